"""The face of a game for external programs (docs/bots.md): what the bot protocol needs of a
game (:class:`ExternalAdapter`), and the default one, from its description's
``observation_json`` and ``rules_json`` and the game's sampled worlds.

The legal actions of the seat to move depend only on what that seat sees, so any world
agreeing with its observation lists the same ones: the adapter deals one
(``game.sample_world(observation, 0)``) and writes its legal actions in the game's notation
(``state.action_text``), in the game's order. A program's move is one of those texts (spaces
between words do not count), or any text the game's notation reads (``state.parse_action``:
the match loop then refuses it if it is not legal, with the game's message).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardtable.engine.description import GameDescription, Json


@dataclass(frozen=True)
class ExternalAdapter:
    """What the JSON-lines bot protocol (docs/bots.md) needs of a game, computed from a seat's
    observation and the loaded game (which holds only rules), never from the state.
    :mod:`cardtable.engine.description` hands it out with the rest of a game's description."""

    observation_json: Callable[[Any], Json]
    rules_json: Callable[[Any], Json]
    legal: Callable[[Any, Any], dict[str, Any]]
    """``legal(game, observation)``: every legal action of the seat, by its notation, in the
    game's canonical order."""
    parse: Callable[[Any, Any, str], Any]
    """``parse(game, observation, text)``: the action ``text`` names; raises ``NotationError``
    (or ``IllegalAction``) with the game's message when it names none."""


def _world(game: Any, observation: Any) -> Any:
    return game.sample_world(observation, 0)


def legal_by_text(game: Any, observation: Any) -> dict[str, Any]:
    """Every legal action of the observation's seat, by its notation, in the game's order."""
    world = _world(game, observation)
    return {world.action_text(action): action for action in world.legal_actions()}


def parse_text(game: Any, observation: Any, text: str) -> Any:
    """The action ``text`` names: a legal action's notation (spaces between words do not
    count), else whatever the game's notation reads (``NotationError`` when nothing)."""
    world = _world(game, observation)
    known = {world.action_text(action): action for action in world.legal_actions()}
    action = known.get(" ".join(text.split()))
    return action if action is not None else world.parse_action(text)


def observed_adapter(described: GameDescription) -> ExternalAdapter:
    """The adapter of a game whose description gives ``observation_json`` (and
    ``rules_json``) and whose game samples worlds."""
    return ExternalAdapter(described.observation_json, described.rules_json, legal_by_text,
                           parse_text)
