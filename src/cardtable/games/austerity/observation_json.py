"""An Austerity observation as JSON: the whole table (the game hides only the deck order).

Built only from :class:`~cardtable.games.austerity.state.Observation`. The web pages build on
it (docs/web.md); player programs speak the hub's own protocol instead (docs/austerity.md).
Token counts are lists in the order of ``colours`` (``P B Y R``); a card is its text as in
deck files (``P:1:1,0,2,0``) with its colour, points and cost.
"""

from __future__ import annotations

from typing import Any

from cardtable.games.austerity.rules import COLOURS, letter
from cardtable.games.austerity.state import Observation

Json = dict[str, Any]


def observation_json(obs: Observation) -> Json:
    """The seat's view: its letter and the table."""
    return {"seat": letter(obs.seat), **public_json(obs)}


def public_json(obs: Observation) -> Json:
    """What anyone may see: the table, as any seat's observation shows it."""
    players = len(obs.points)
    return {
        "to_move": None if obs.to_move is None else letter(obs.to_move),
        "colours": list(COLOURS),
        "piles": list(obs.piles),
        "market": [{"card": card.text(), "colour": COLOURS[card.colour], "points": card.value,
                    "cost": list(card.cost)} for card in obs.market],
        "players": [
            {"seat": letter(seat), "tokens": list(obs.tokens[seat]), "wilds": obs.wilds[seat],
             "discounts": list(obs.discounts[seat]), "points": obs.points[seat]}
            for seat in range(players)
        ],
        "target": obs.target,
    }
