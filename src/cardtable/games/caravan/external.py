"""Caravan's face for external programs (docs/bots.md), from a seat's observation alone.

The observation and the seat's rules as JSON, the legal moves in notation (``P2B``, ``D3``)
from the observation (which lists them), and the move a line of notation names: a listed
move's notation in any case, else whatever the notation reads for the seat.
"""

from __future__ import annotations

from typing import Any

from cardtable.engine.description import ExternalAdapter


def _legal(game: Any, obs: Any) -> dict[str, Any]:
    return {move.notation: move for move in obs.legal_moves()}


def _parse(game: Any, obs: Any, text: str) -> Any:
    from cardtable.games.caravan.notation import parse_move

    known = _legal(game, obs).get(text.strip().upper())
    if known is not None:
        return known
    move = parse_move(text, game.rules, obs.seat)
    if move is None:
        from cardtable.engine.errors import NotationError

        raise NotationError("An empty move.")
    return move


def _rules(game: Any) -> dict[str, Any]:
    from cardtable.games.caravan.observation_json import seat_rules_json

    return seat_rules_json((game.rules.abc, game.rules.def_))


def adapter() -> ExternalAdapter:
    from cardtable.games.caravan.observation_json import observation_json

    return ExternalAdapter(observation_json, _rules, _legal, _parse)
