"""The plain line shell on crafted positions: prompts, messages and event lines."""

from __future__ import annotations

import contextlib
import io

from cardtable.engine.match import MatchAbandoned, play_match
from cardtable.games.obsession.state import Game
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


def _run(game: Game, stdin: str) -> list[str]:
    out = io.StringIO()
    console = Console(io.StringIO(stdin), out)
    seats = {name: (HumanSeat(console) if game.humans[i] else Halt())
             for i, name in enumerate(game.seats)}
    with contextlib.suppress(Stop, MatchAbandoned):
        play_match(game, seats, (Table(console, game.humans),))  # type: ignore[arg-type]
    return out.getvalue().splitlines()


def test_blind_prompt_messages_and_reveal() -> None:
    game = position(hands={1: "9C"}, hidden={0: "4C 8H KS"}, pile="JD",
                    humans=[True, False, False, False])
    prompt = "+++ Enter card number(s): "
    assert _run(game, "0\n1 2\n\n2\n3\n")[:7] == [
        "+++ Select a card from your hidden cards",
        f"{prompt}!!! Invalid card selection",
        f"{prompt}!!! You must select 1 card",
        f"{prompt}{prompt}*** Drew a 8H from your hidden cards",
        "*** Played a 8H",
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
                         "*** Played a KC", "*** Player 1 wins!"]
    assert "### Discard:\t2 cards\t1:KC 2:9S" in lines
    assert "### Hand:\t1 card" in lines
