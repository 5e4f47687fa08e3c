"""What the external-bot protocol needs of each game, from a seat's observation alone.

For every game an external program can play: the observation as JSON, the rules as JSON, the
legal actions in notation, and the action a line of notation names. Each is computed from the
seat's observation (and the loaded game object, which holds only rules), never from the state,
so nothing the seat may not see can reach the program.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]


@dataclass(frozen=True)
class GameAdapter:
    observation_json: Callable[[Any], Json]
    rules_json: Callable[[Any], Json]
    legal: Callable[[Any, Any], dict[str, Any]]
    """``legal(game, observation)``: every legal action of the seat, by its notation, in the
    game's canonical order."""
    parse: Callable[[Any, Any, str], Any]
    """``parse(game, observation, text)``: the action ``text`` names; raises ``NotationError``
    (or ``IllegalAction``) with the game's message when it names none."""


def _caravan() -> GameAdapter:
    from cardtable.games.caravan.notation import parse_move
    from cardtable.games.caravan.observation_json import observation_json, seat_rules_json

    def legal(game: Any, obs: Any) -> dict[str, Any]:
        return {move.notation: move for move in obs.legal_moves()}

    def parse(game: Any, obs: Any, text: str) -> Any:
        known = legal(game, obs).get(text.strip().upper())
        if known is not None:
            return known
        move = parse_move(text, game.rules, obs.seat)
        if move is None:
            from cardtable.engine.errors import NotationError

            raise NotationError("An empty move.")
        return move

    return GameAdapter(observation_json,
                       lambda game: seat_rules_json((game.rules.abc, game.rules.def_)),
                       legal, parse)


def _obsession() -> GameAdapter:
    from cardtable.games.obsession.observation_json import observation_json

    def world(game: Any, obs: Any) -> Any:
        # Legality depends only on what the seat sees (its pile, the top of the discard
        # pile), so any world that agrees with the observation lists the same actions.
        return game.sample_world(obs, 0)

    def legal(game: Any, obs: Any) -> dict[str, Any]:
        state = world(game, obs)
        return {state.action_text(action): action for action in state.legal_actions()}

    def parse(game: Any, obs: Any, text: str) -> Any:
        state = world(game, obs)
        known = {state.action_text(action): action for action in state.legal_actions()}
        action = known.get(" ".join(text.split()))
        return action if action is not None else state.parse_action(text)

    return GameAdapter(observation_json, lambda game: dict(game.rules.to_json()), legal, parse)


_ADAPTERS: dict[str, Callable[[], GameAdapter]] = {"caravan": _caravan, "obsession": _obsession}


def adapter(game: str) -> GameAdapter | None:
    """The game's adapter, or None for a game external bots cannot play through this table."""
    make = _ADAPTERS.get(game)
    return None if make is None else make()
