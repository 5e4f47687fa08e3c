"""Obsession as a PettingZoo AEC environment: ``env(**params)`` (wrapped) and ``raw_env``.

``params`` are ``cardtable.load_game("obsession", ...)``'s (``players``, ``run_kill``,
``kill_order``, ``max_plays``, ``repeat_limit``) plus ``render_mode`` (``"ansi"`` or
``"human"``) and ``max_steps`` (default None: the rules' own caps end every game).
``player_0`` is ``P1``, ``player_1`` ``P2``, ... A seat that plays again (an extra play after
a kill or a ten) is selected again. Rewards follow the placings, ``1 - 2 * place / (players -
1)`` (first +1, last −1); a game stopped by the rules' cap on plays or by the repetition guard
is truncated, its seats still in placed by the rules (fewest cards left first). See docs/rl.md.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from cardtable.engine.protocol import Result
from cardtable.envs.aec import CardTableEnv, wrap
from cardtable.envs.obsession_encoding import ObsessionEncoder
from cardtable.envs.rewards import placing_rewards
from cardtable.games.obsession.cards import TEXT
from cardtable.games.obsession.events import Board
from cardtable.games.obsession.render import board_lines, cards_count


class ObsessionParts:
    name = "obsession"
    env_name = "obsession_v0"
    default_max_steps: int | None = None

    def encoder(self, game: Any) -> ObsessionEncoder:
        return ObsessionEncoder(game)

    def rewards(self, game: Any, result: Result) -> list[float]:
        players = game.rules.players
        return placing_rewards(players, [number - 1 for number in result.details["placings"]])

    def truncated(self, result: Result) -> bool:
        return bool(result.details.get("stalemate"))

    def render(self, state: Any, seat: int) -> str:
        """The line mode's board of ``seat`` (its hand shown) and a line per other seat."""
        obs = state.observation(seat)
        board = Board(seat, obs.draw_count, len(obs.discard), tuple(obs.discard[:5]), obs.hand,
                      obs.visible[seat], obs.hidden_counts[seat])
        lines = [f"=== Player {seat + 1} ({obs.phase}, play {obs.play_number})"]
        lines += board_lines(board, show_hand=True)
        for other in range(len(obs.out)):
            if other == seat:
                continue
            visible = " ".join(TEXT[card] for card in obs.visible[other]) or "-"
            state_text = "out" if obs.out[other] else (
                f"hand {cards_count(obs.hand_counts[other])}, visible {visible}, "
                f"hidden {obs.hidden_counts[other]}")
            lines.append(f"--- Player {other + 1}: {state_text}")
        result = state.result
        if result is not None:
            order = ", ".join(f"P{number}" for number in result.details["placings"])
            lines.append(f"Game over ({result.reason}): placings {order}.")
        return "\n".join(lines)

    def game_params(self, params: dict[str, Any]) -> dict[str, Any]:
        return params


class raw_env(CardTableEnv):
    """Obsession as an unwrapped AEC environment."""

    def __init__(self, render_mode: str | None = None, max_steps: int | None = None,
                 **params: Any) -> None:
        super().__init__(ObsessionParts(), render_mode=render_mode, max_steps=max_steps,
                         **params)


def env(**params: Any) -> AECEnv:
    """Obsession wrapped as PettingZoo's classic games are (see
    :func:`cardtable.envs.aec.wrap`)."""
    return wrap(raw_env(**params))
