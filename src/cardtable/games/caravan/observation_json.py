"""A Caravan observation as JSON: what one seat may see, and nothing else.

Built only from :class:`~cardtable.games.caravan.observation.Observation`, so it cannot show
what the seat may not see. Cards are their codes (``7S``, ``KH``, ``JO``); a card the seat may
not see (the other seat's numerals during a simultaneous opening) is ``null``. External bots
receive it (docs/bots.md); any other interface may share it.
"""

from __future__ import annotations

from typing import Any

from cardtable.engine.protocol import Result
from cardtable.games.caravan.board import CARAVAN_NAMES, DIRECTION_TEXT, owner_of_caravan
from cardtable.games.caravan.cards import SEATS, SUITS, code
from cardtable.games.caravan.observation import HIDDEN_CARD, Observation
from cardtable.games.caravan.rules import Rules
from cardtable.games.caravan.rules_assembly import rules_to_json

Json = dict[str, Any]


def card_json(card: int) -> str | None:
    return None if card == HIDDEN_CARD else code(card)


def result_json(result: Result | None) -> Json | None:
    if result is None:
        return None
    return {"winners": list(result.winners), "reason": result.reason,
            "details": {key: value for key, value in result.details.items()
                        if isinstance(value, int | str | list | type(None))}}


def seat_rules_json(rules: tuple[Rules, Rules]) -> Json:
    """Each seat's rules, by seat name."""
    return {SEATS[seat]: rules_to_json(rules[seat]) for seat in (0, 1)}


def observation_json(obs: Observation) -> Json:
    """The seat's whole view: its hand, the six caravans, counts, discard piles, history."""
    caravans = []
    for index in range(6):
        slots = obs.caravans[index]
        value, size, _last, suit, direction = obs.summaries[index]
        hidden = any(numeral == HIDDEN_CARD for numeral, _faces in slots)
        caravans.append({
            "name": CARAVAN_NAMES[index],
            "owner": SEATS[owner_of_caravan(index)],
            "cards": [{"numeral": card_json(numeral), "faces": [card_json(f) for f in faces]}
                      for numeral, faces in slots],
            "value": None if hidden else value,
            "size": size,
            "suit": None if hidden or not 0 <= suit < len(SUITS) else SUITS[suit],
            "direction": None if hidden else DIRECTION_TEXT[direction],
        })
    return {
        "seat": SEATS[obs.seat],
        "to_move": None if obs.to_move is None else SEATS[obs.to_move],
        "hand": [code(card) for card in obs.hand],
        "caravans": caravans,
        "deck_sizes": dict(zip(SEATS, obs.deck_sizes, strict=True)),
        "hand_sizes": dict(zip(SEATS, obs.hand_sizes, strict=True)),
        "discards": {SEATS[seat]: [code(card) for card in obs.piles[seat]] for seat in (0, 1)},
        "opening": dict(zip(SEATS, obs.opening, strict=True)),
        "moves_made": dict(zip(SEATS, obs.moves_made, strict=True)),
        "history": [
            {"seat": SEATS[entry.seat],
             "move": None if entry.code is None else (entry.move.notation if entry.move else None),
             "cards": [card_json(card) for card in entry.cards]}
            for entry in obs.history
        ],
        "result": result_json(obs.result),
    }
