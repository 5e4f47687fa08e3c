"""The default face of a game for external programs (docs/bots.md), from its description's
``observation_json`` and ``rules_json`` and the game's sampled worlds.

The legal actions of the seat to move depend only on what that seat sees, so any world
agreeing with its observation lists the same ones: the adapter deals one
(``game.sample_world(observation, 0)``) and writes its legal actions in the game's notation
(``state.action_text``), in the game's order. A program's move is one of those texts (spaces
between words do not count), or any text the game's notation reads (``state.parse_action``:
the match loop then refuses it if it is not legal, with the game's message).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardtable.engine.description import ExternalAdapter

if TYPE_CHECKING:
    from cardtable.engine.description import GameDescription


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
