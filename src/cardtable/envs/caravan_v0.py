"""Caravan as a PettingZoo AEC environment: ``env(**params)`` (wrapped) and ``raw_env``.

``params`` are ``cardtable.load_game("caravan", ...)``'s (``rules="nv"``, ``max_faces=2``,
``first="DEF"``, ...) plus ``render_mode`` (``"ansi"`` or ``"human"``) and ``max_steps``.
``player_0`` is ABC and ``player_1`` DEF. Rewards are +1 for the winner, −1 for the loser and
0 for both in a draw. An episode is truncated (both rewards 0) after ``max_steps`` actions
(default :data:`MAX_STEPS`) or once no caravan has changed in ``stuck_plies`` moves in a
row (the rule of ``cardtable.games.caravan.stalemate``, at the bots' default ``STUCK_PLIES``
unless given). See docs/rl.md.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from cardtable.engine.protocol import Result
from cardtable.envs.aec import CardTableEnv, wrap
from cardtable.envs.caravan_encoding import CaravanEncoder
from cardtable.envs.rewards import winners_rewards
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.render import BoardView, board_lines, status_lines
from cardtable.games.caravan.stalemate import STUCK_PLIES, is_stalemate

MAX_STEPS = 10_000
"""Actions after which an episode is truncated (ordinary games take a few hundred at most)."""


class CaravanParts:
    name = "caravan"
    env_name = "caravan_v0"
    default_max_steps: int | None = MAX_STEPS

    def encoder(self, game: Any) -> CaravanEncoder:
        return CaravanEncoder(game)

    def rewards(self, game: Any, result: Result) -> list[float]:
        return winners_rewards(SEATS, result.winners)

    def truncated(self, result: Result) -> bool:
        return is_stalemate(result)

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

    def game_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """Caravan's ``stuck_plies`` rule at the bots' default unless given."""
        return params if "stuck_plies" in params else {**params, "stuck_plies": STUCK_PLIES}


class raw_env(CardTableEnv):
    """Caravan as an unwrapped AEC environment."""

    def __init__(self, render_mode: str | None = None, max_steps: int | None = MAX_STEPS,
                 **params: Any) -> None:
        super().__init__(CaravanParts(), render_mode=render_mode, max_steps=max_steps,
                         **params)


def env(**params: Any) -> AECEnv:
    """Caravan wrapped as PettingZoo's classic games are (see :func:`cardtable.envs.aec.wrap`)."""
    return wrap(raw_env(**params))
