"""The worked examples E1..E8 of the rules, step by step."""

from __future__ import annotations

import contextlib
import io

from cardtable.engine.match import play_match
from cardtable.games.obsession.actions import Swap
from cardtable.games.obsession.events import Played, Started, WentOut
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import ObsessionState
from cardtable.ui.plain.console import Console
from cardtable.ui.plain.obsession import HumanSeat, Table

from .helpers import blind, hand, lines, pile, play, position
from .test_setup import _deal


def _opened(rules: Rules) -> ObsessionState:
    game = ObsessionState(rules, _deal(3, ["9C KD 2S", "6H 6S QC", "6D AH R"]), [False] * 3)
    for seat in range(3):
        game.apply(Swap(tuple(game.visible[seat])))
    return game


def test_e1_start_and_opening() -> None:
    game = _opened(Rules(players=3))
    assert Started(1) in game.events
    assert pile(game) == ["6S", "6H"] and game.run == 2 and game.to_move == "P3"
    assert {len(game.hands[1])} == {3}
    after = game.clone()
    play(after, "6D")
    assert after.run == 3 and after.to_move == "P1"
    killing = _opened(Rules(players=3, run_kill=3))
    play(killing, "6D")
    assert killing.pile == [] and killing.to_move == "P3"


def test_e2_seven_and_the_visible_row_through_the_line_interface() -> None:
    game = position(hands={0: "4C", 1: "KC"}, visible={3: "5C 5H AD"}, pile="7S R 9D", to_move=3,
                    humans=[False, False, False, True])
    out = io.StringIO()
    console = Console(io.StringIO("1,3\n1 2\n"), out)

    class Stop(Exception):
        pass

    class Bot:
        def choose(self, observation: object) -> object:
            raise Stop

        def rejected(self, error: object) -> None:
            raise Stop

    seats = {"P4": HumanSeat(console), "P1": Bot(), "P2": Bot(), "P3": Bot()}
    with contextlib.suppress(Stop):
        play_match(game, seats, (Table(console, game.humans),))  # type: ignore[arg-type]
    assert out.getvalue().splitlines() == [
        "+++ Select cards from your visible cards",
        "+++ Enter card number(s): !!! Invalid selection: cards played together must share "
        "one face",
        "+++ Select cards from your visible cards",
        "+++ Enter card number(s): *** Played a 5C",
        "*** Played a 5H",
        "",
        "=== PLAYER 1",
        "### Draw:\t0 cards",
        "### Discard:\t5 cards\t1:5H 2:5C 3:7S 4:R 5:9D",
        "### Hand:\t1 card",
        "### Visible:\t0 cards",
        "### Hidden:\t0 cards",
        "*** No valid moves, picked up 5 cards",
        "",
        "=== PLAYER 2",
        "### Draw:\t0 cards",
        "### Discard:\t0 cards",
        "### Hand:\t1 card",
        "### Visible:\t0 cards",
        "### Hidden:\t0 cards",
    ]


def test_e2_nothing_legal_in_the_visible_row() -> None:
    game = position(hands={2: "4C 7S"}, visible={3: "9C KH AD"}, pile="R 9D", to_move=2)
    events = play(game, "7S")
    assert "*** No valid moves, picked up 3 cards" in lines(events, [False] * 4)
    assert hand(game, 3) == ["7S", "9D", "R"] and len(game.visible[3]) == 3
    assert game.to_move == "P1" and game.pile == []


def test_e3_runs_across_players() -> None:
    game = position(hands={1: "6D 6S 9C", 2: "6H 4C"}, pile="6H 6C 7S", to_move=1, draw="KC KD")
    both = game.clone()
    events = play(both, "6D 6S")
    assert "*** Killed pile" in lines(events, [False] * 4) and both.to_move == "P2"
    assert len(both.hands[1]) == 3  # refilled before its extra play
    play(game, "6D")
    assert game.run == 3 and game.to_move == "P3"
    play(game, "6H")
    assert game.pile == [] and game.to_move == "P3"
    short = position(hands={1: "6D 6S 9C"}, pile="6H 6C 7S", to_move=1, draw="KC KD",
                     rules=Rules(players=4, run_kill=3))
    play(short, "6D")
    assert short.pile == [] and short.to_move == "P2"


def test_e4_picking_up_3s() -> None:
    game = position(hands={0: "3H QC", 1: "4S 9H KC", 2: "5D"}, pile="R 3C QS 6D", draw="")
    events = play(game, "3H")
    assert ("*** No valid moves, picked up 3 cards (2 threes on the pile left the game)"
            in lines(events, [False] * 4))
    assert hand(game, 1) == ["4S", "6D", "9H", "QS", "KC", "R"]
    assert game.to_move == "P3" and game.pile == []
    only = position(hands={0: "3S QC", 1: "4S 9H KC", 2: "5D"}, draw="")
    assert ("*** No valid moves, picked up 0 cards (the 3 on the pile left the game)"
            in lines(play(only, "3S"), [False] * 4))


def test_e5_jokers_completing_a_run() -> None:
    for order, direction, after in (("effect-first", -1, "P5"), ("kill-first", 1, "P2")):
        game = position(5, hands={0: "R R R 5D 9D"}, pile="R 9C", draw="KC KD KH",
                        rules=Rules(players=5, kill_order=order))
        play(game, "R R R")
        assert game.direction == direction and game.pile == [] and game.to_move == "P1"
        play(game, "5D")
        assert game.to_move == after


def test_e6_blind_attempts() -> None:
    humans = [False, False, True, False]
    game = position(hands={0: "9C"}, hidden={2: "4C 8H KS"}, pile="JD", to_move=2, humans=humans)
    first = lines(blind(game, 2), humans)
    assert first[:2] == ["*** Drew an 8H from your hidden cards", "*** Played an 8H"]
    assert game.to_move == "P3"
    assert lines(blind(game, 2), humans)[:2] == ["*** Drew a KS from your hidden cards",
                                                  "*** Played a KS"]
    assert game.to_move == "P4"
    other = position(hands={0: "9C"}, hidden={2: "4C 8H KS"}, pile="JD", to_move=2, humans=humans)
    assert "*** No valid moves, picked up 1 card" in lines(blind(other, 1), humans)
    assert hand(other, 2) == ["4C", "JD"] and len(other.hidden[2]) == 2


def test_e7_going_out_and_the_next_seat() -> None:
    game = position(5, hands={1: "10S", 2: "AC", 3: "AD", 4: "AH", 0: "AS KS"}, pile="KD",
                    to_move=1)
    events = play(game, "10S")
    assert "*** Player 2 goes out in 1st place and wins!" in lines(events, [False] * 5)
    assert WentOut(1, 1) in events and game.to_move == "P3"
    later = position(5, hands={0: "KC", 2: "AC", 3: "AD", 4: "AH"}, pile="9S", direction=-1,
                     out=[1])
    play(later, "KC")
    assert later.to_move == "P5"


def test_e8_is_covered_by_the_bot_tests() -> None:
    from .test_bots import _choice, _e8

    assert _choice(_e8(), 0.0) == ["9C", "9H"]
    game = _e8()
    events = play(game, "9C 9H")
    played = next(e for e in events if isinstance(e, Played))
    assert played.effects == ("kill", "extra")
