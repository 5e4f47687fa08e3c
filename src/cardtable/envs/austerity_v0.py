"""Austerity as a PettingZoo AEC environment: ``env(**params)`` (wrapped) and ``raw_env``.

``params`` are ``cardtable.load_game("austerity", ...)``'s (``deck``, ``tokens``, ``points``,
``players``, ``deal``) plus ``render_mode`` (``"ansi"`` or ``"human"``) and ``max_steps``
(default :data:`MAX_STEPS`: the game has no length cap of its own). ``player_0`` is ``A``,
``player_1`` ``B``, ... Rewards rank the seats by points, ``1 - 2 * place / (players - 1)``,
tied seats sharing the mean of their places (a two-player tie: 0 each). Each reset deals the
deck shuffled from the game's seed (``deal`` :data:`DEFAULT_DEAL`); ``deal="file"`` deals the
deck file in its order, the same game at every reset. See docs/rl.md.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from cardtable.engine.protocol import Result
from cardtable.envs.aec import CardTableEnv, wrap
from cardtable.envs.austerity_encoding import AusterityEncoder
from cardtable.envs.rewards import place_rewards, shared_places
from cardtable.games.austerity.player import status_block
from cardtable.games.austerity.rules import letter

MAX_STEPS = 10_000
"""Actions after which an episode is truncated (rewards 0)."""
DEFAULT_DEAL = "shuffled"
"""The environment's deal unless ``deal`` is given: a game of its own at every reset (the
game's default, the hub's, is the deck file's order: one game, whatever the seed)."""


class AusterityParts:
    name = "austerity"
    env_name = "austerity_v0"
    default_max_steps: int | None = MAX_STEPS

    def encoder(self, game: Any) -> AusterityEncoder:
        return AusterityEncoder(game)

    def rewards(self, game: Any, result: Result) -> list[float]:
        return place_rewards(shared_places(result.details["points"]))

    def truncated(self, result: Result) -> bool:
        return False

    def render(self, state: Any, seat: int) -> str:
        """The player programs' status block (market, then every player), and who moves."""
        text = status_block(state.game.table).rstrip("\n")
        result = state.result
        if result is not None:
            winners = ", ".join(result.winners)
            return f"{text}\nGame over ({result.reason}): won by {winners}."
        return f"{text}\nPlayer {letter(seat)} to move."

    def game_params(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"deal": DEFAULT_DEAL, **params}


class raw_env(CardTableEnv):
    """Austerity as an unwrapped AEC environment."""

    def __init__(self, render_mode: str | None = None, max_steps: int | None = MAX_STEPS,
                 **params: Any) -> None:
        super().__init__(AusterityParts(), render_mode=render_mode, max_steps=max_steps,
                         **params)


def env(**params: Any) -> AECEnv:
    """Austerity wrapped as PettingZoo's classic games are (see
    :func:`cardtable.envs.aec.wrap`)."""
    return wrap(raw_env(**params))
