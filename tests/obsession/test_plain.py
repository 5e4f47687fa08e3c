"""The plain line shell on crafted positions: prompts, messages and event lines."""

from __future__ import annotations

import contextlib
import io

from cardtable.engine.match import MatchAbandoned, play_match
from cardtable.games.obsession.state import ObsessionState
from cardtable.ui.plain.console import Console
from cardtable.ui.plain.obsession import HumanSeat, Table

from .helpers import position


class Stop(Exception):
    pass


class Halt:
    """A seat that ends the test when it is asked."""

    def choose(self, observation: object) -> object:
        raise Stop

    def rejected(self, error: object) -> None:
        raise Stop


def _run(game: ObsessionState, stdin: str) -> list[str]:
    out = io.StringIO()
    console = Console(io.StringIO(stdin), out)
    seats = {name: (HumanSeat(console, legal=game.legal_actions) if game.humans[i] else Halt())
             for i, name in enumerate(game.seats)}
    with contextlib.suppress(Stop, MatchAbandoned):
        play_match(game, seats, (Table(console, game.humans),))  # type: ignore[arg-type]
    return out.getvalue().splitlines()


def test_blind_prompt_messages_and_reveal() -> None:
    game = position(hands={1: "9C"}, hidden={0: "4C 8H KS"}, pile="JD",
                    humans=[True, False, False, False])
    prompt = "+++ Enter card number(s): "
    assert _run(game, "0\n1 2\n\n2\n3\n")[:8] == [
        "+++ Select a card from your hidden cards",
        f"{prompt}!!! Invalid card selection",
        f"{prompt}!!! You must select 1 card",
        f"{prompt}{prompt}*** Drew an 8H from your hidden cards",
        "*** Played an 8H",
        "*** Player 1 plays again after the 8.",
        "### Draw:\t0 cards",
        "### Discard:\t2 cards\t1:8H 2:JD",
    ]


def test_end_of_input_at_a_prompt_closes_the_line() -> None:
    game = position(hands={0: "9C 9D"}, pile="5D", humans=[True, False, False, False])
    assert _run(game, "") == ["+++ Select cards from your hand", "+++ Enter card number(s): "]


def test_winning_line_and_board_counts_are_singular_for_one_card() -> None:
    game = position(hands={0: "KC", 1: "AC", 2: "AD", 3: "AH"}, pile="9S",
                    humans=[True, False, False, False])
    lines = _run(game, "1\n")
    assert lines[:3] == ["+++ Select cards from your hand", "+++ Enter card number(s): "
                         "*** Played a KC", "*** Player 1 goes out in 1st place and wins!"]
    assert "### Discard:\t2 cards\t1:KC 2:9S" in lines
    assert "### Hand:\t1 card" in lines


def test_a_refused_play_says_what_may_be_played_on_the_active_face() -> None:
    game = position(hands={0: "4C KD"}, pile="9S", draw="5C 5D",
                    humans=[True, False, False, False])
    assert _run(game, "1\n")[:2] == [
        "+++ Select cards from your hand",
        "+++ Enter card number(s): !!! Invalid selection: a 4 cannot be played on a 9; play a 9 "
        "or higher, or 2, 3, 7, 8, 10 or R",
    ]


def test_a_refusal_under_jokers_names_the_face_beneath() -> None:
    game = position(hands={0: "9C KD"}, pile="R 3S", draw="5C 5D",
                    humans=[True, False, False, False])
    assert _run(game, "1\n")[1] == (
        "+++ Enter card number(s): !!! Invalid selection: a 9 cannot be played on a 3 under the "
        "joker; play 3 or R")


def test_an_extra_turn_is_announced() -> None:
    game = position(hands={0: "8C 9D"}, pile="9S", draw="5C 5D 5H",
                    humans=[True, False, False, False])
    out = _run(game, "1\n")
    assert out[2] == "*** Player 1 plays again after the 8."
    assert out[3].startswith("*** Drew a 5")
    game = position(hands={0: "10C 9D"}, pile="9S", draw="5C 5D 5H",
                    humans=[True, False, False, False])
    assert "*** Player 1 plays again after killing the pile." in _run(game, "2\n")


def test_places_are_named_and_the_last_one_left_loses() -> None:
    game = position(3, hands={0: "KC", 1: "AC", 2: "AD AH"}, pile="9S", humans=[True, True, True])
    out = _run(game, "1\n\n1\n")
    assert "*** Player 1 goes out in 1st place and wins!" in out
    assert "*** Player 2 goes out in 2nd place." in out
    assert "*** Player 3 is the last one left and loses (3rd place)." in out
    assert out[out.index("*** Player 3 is the last one left and loses (3rd place).") + 1] == ""


def test_moves_lists_the_legal_moves_in_selection_numbers() -> None:
    game = position(hands={0: "4C 9D 9H KS"}, pile="9S", draw="5C 5D",
                    humans=[True, False, False, False])
    assert _run(game, "moves\n")[1] == ("+++ Enter card number(s): +++ Legal moves: 2 (9D), "
                                        "2 3 (9D 9H), 3 (9H), 4 (KS)")
    game = position(hidden={0: "4C 8H KS"}, hands={1: "9C"}, pile="JD",
                    humans=[True, False, False, False])
    assert _run(game, "MOVES\n")[1] == ("+++ Enter card number(s): +++ Legal moves: one hidden "
                                        "card, 1 to 3 (face down: any may be tried)")


def test_cards_take_the_article_they_are_read_with() -> None:
    from cardtable.games.obsession.render import with_article

    assert [with_article(text) for text in ("9H", "AD", "8♥", "10C", "R", "KS")] == [
        "a 9H", "an AD", "an 8♥", "a 10C", "an R", "a KS"]
