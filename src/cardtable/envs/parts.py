"""What a game adds to its reinforcement-learning environments, found through its description.

A game's description names its part by an import path
(:attr:`~cardtable.engine.description.GameDescription.rl_environment`,
``"package.module:NAME"``); the environments import it when one is made, so a game package
never imports this layer. The part is an object with:

- ``encoder(game)`` (required): an :class:`Encoder` for the loaded ``game``, which turns one
  seat's observation into a fixed-length vector;
- ``render(state, seat)`` (optional): the text of ``render_mode="ansi"`` for the 0-based
  ``seat``; without it, the seat's view (``description.seat_view``) one key a line;
- ``rewards(game, result)`` (optional): one final reward per seat; without it, the rewards of
  the game's places (:func:`cardtable.envs.rewards.place_rewards`);
- ``max_steps`` (optional): actions after which an episode is truncated unless the
  environment is given ``max_steps``; without it :data:`MAX_STEPS` (None: the game's rules
  end every game).

Everything else comes from the description itself: the game's parameters for games between
bots (``bot_params``, then ``table_params``), the places (``places``) and whether the rules
stopped a game short of its end (``stopped``). docs/rl.md describes the whole of it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import import_module
from typing import Any, Protocol

import numpy as np

from cardtable.engine.description import GameDescription
from cardtable.engine.errors import GameParamsError
from cardtable.engine.game_registry import description, descriptions
from cardtable.engine.protocol import Result
from cardtable.envs.rewards import place_rewards

MAX_STEPS = 10_000
"""Actions after which an episode is truncated when the game's part says nothing (ordinary
games of cardtable's own take a few hundred at most)."""


class Encoder(Protocol):
    """Turns one seat's observation into a vector and a legal mask (see docs/rl.md).

    ``names`` names every entry of the vector, ``size`` is their number, ``low`` and ``high``
    their bounds (arrays of ``size`` entries, whose dtype is the vector's).
    """

    size: int
    low: np.ndarray
    high: np.ndarray
    names: list[str]

    def encode(self, observation: Any) -> np.ndarray:
        """The vector of ``state.observation(seat)``: ``size`` entries within the bounds."""
        ...

    def legal_mask(self, observation: Any) -> np.ndarray | None:
        """The seat's mask from its observation, or None to use ``state.legal_mask()``."""
        ...


class GamePart(Protocol):
    """The one required member of a game's part (the optional ones are read with
    ``getattr``: ``render``, ``rewards``, ``max_steps``)."""

    def encoder(self, game: Any) -> Encoder: ...


def _imported(path: str) -> Any:
    module, colon, name = path.partition(":")
    if not colon or not module or not name:
        raise ValueError(f"'{path}' is no import path of the form 'package.module:NAME'")
    found: Any = import_module(module)
    for attribute in name.split("."):
        found = getattr(found, attribute)
    return found


def part_of(game: str | GameDescription) -> tuple[GameDescription, GamePart]:
    """The description of ``game`` (a name or a description) and its environment part, or
    :class:`GameParamsError` for an unknown game or a game without one."""
    described = description(game) if isinstance(game, str) else game
    if described.rl_environment is None:
        raise GameParamsError(
            f"The game '{described.name}' has no reinforcement-learning environment: its "
            "description names no encoder (rl_environment; see docs/rl.md).")
    part: GamePart = _imported(described.rl_environment)
    return described, part


def environments() -> tuple[str, ...]:
    """The names of the games that have an environment, in the registry's order."""
    return tuple(one.name for one in descriptions() if one.rl_environment is not None)


def generic_render(described: GameDescription, state: Any, seat: int) -> str:
    """The seat's view (``description.seat_view``) one key a line, or its observation when
    the game has no view; then who moves, or how the game ended."""
    names = tuple(state.seats)
    try:
        view: dict[str, Any] | None = described.seat_view(state, names[seat])
    except NotImplementedError:
        view = None
    if view is None:
        lines = [repr(state.observation(seat))]
    else:
        lines = [f"{key}: {json.dumps(value)}" for key, value in view.items()]
    result = state.result
    if result is not None:
        winners = ", ".join(result.winners) or "nobody"
        lines.append(f"Game over ({result.reason}): won by {winners}.")
    else:
        lines.append(f"{state.to_move} to move.")
    return "\n".join(lines)


def final_rewards(described: GameDescription, part: GamePart, game: Any, result: Result,
                  seats: Sequence[str]) -> list[float]:
    """The part's rewards when it has its own, else those of the game's places."""
    own = getattr(part, "rewards", None)
    if own is not None:
        return [float(value) for value in own(game, result)]
    return place_rewards(described.places(result, seats))
