"""Caravan's part of its reinforcement-learning environment (``cardtable.envs.env("caravan")``),
named by its description: the vector of :mod:`cardtable.envs.caravan_encoding` and the line
mode's board as text.

Rewards are the places' (+1 for the winner, -1 for the loser, 0 each for a draw); a game the
``stuck_plies`` rule stops (the description's ``stopped``) is truncated with 0 for both.
"""

from __future__ import annotations

from typing import Any

from cardtable.envs.caravan_encoding import CaravanEncoder
from cardtable.envs.parts import MAX_STEPS
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.render import BoardView, board_lines, status_lines


class CaravanPart:
    max_steps: int | None = MAX_STEPS

    def encoder(self, game: Any) -> CaravanEncoder:
        return CaravanEncoder(game)

    def render(self, state: Any, seat: int) -> str:
        """The line mode's board as ``seat`` sees it (its hand shown, the other's hidden)."""
        view = BoardView.of([state.observation(seat)])
        lines = board_lines(view, ("", ""))
        lines = [line.replace("  (", " (", 1) for line in lines]
        lines += status_lines(view)
        if state.result is not None:
            winners = ", ".join(state.result.winners) or "nobody"
            lines.append(f"Game over ({state.result.reason}): won by {winners}.")
        else:
            lines.append(f"{SEATS[seat]} to move.")
        return "\n".join(lines)


PART = CaravanPart()
