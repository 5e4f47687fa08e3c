"""A Caravan observation as JSON: what one seat may see, and nothing else.

Built only from :class:`~cardtable.games.caravan.observation.Observation`, so it cannot show
what the seat may not see. External bots receive it (docs/bots.md) with cards as their codes
(``7S``, ``KH``, ``JO``); the web pages build on it with cards as objects that name the
physical card (docs/web.md). Either way a card the seat may not see (the other seat's numerals
during a simultaneous opening) is ``null``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from cardtable.engine.result_json import result_json
from cardtable.games.caravan.board import CARAVAN_NAMES, DIRECTION_TEXT, owner_of_caravan
from cardtable.games.caravan.cards import SEATS, SUITS, code
from cardtable.games.caravan.events import HistoryEntry
from cardtable.games.caravan.observation import HIDDEN_CARD, Observation
from cardtable.games.caravan.rules import Rules
from cardtable.games.caravan.rules_assembly import rules_to_json

Json = dict[str, Any]

CardForm = Callable[[int], Any]
"""How a card is written; it is given :data:`HIDDEN_CARD` for a card the seat may not see."""


def card_json(card: int) -> str | None:
    """The bots' form of a card: its code, or None for a card the seat may not see."""
    return None if card == HIDDEN_CARD else code(card)


def seat_rules_json(rules: tuple[Rules, Rules]) -> Json:
    """Each seat's rules, by seat name."""
    return {SEATS[seat]: rules_to_json(rules[seat]) for seat in (0, 1)}


def observation_json(obs: Observation, card: CardForm = card_json,
                     history_shown: int | None = None) -> Json:
    """The seat's whole view: its hand, the six caravans, counts, discard piles, history (the
    latest ``history_shown`` entries, or all)."""
    return {"seat": SEATS[obs.seat], "to_move": _seat_name(obs.to_move),
            "hand": list(map(card, obs.hand)),
            **_table_json(obs, (obs, obs), card, history_shown)}


def public_json(abc: Observation, def_: Observation, card: CardForm = card_json,
                history_shown: int | None = None) -> Json:
    """What anyone may see, from both seats' observations: no hand, and each seat's caravans
    and moves as the other seat sees them (so a simultaneous opening stays hidden from
    everyone until both seats may see it)."""
    return {"to_move": _seat_name(abc.to_move),
            **_table_json(abc, (def_, abc), card, history_shown)}


def _seat_name(seat: int | None) -> str | None:
    return None if seat is None else SEATS[seat]


def shown_history(obs: Observation, seen: tuple[Observation, Observation],
                  history_shown: int | None) -> list[HistoryEntry]:
    """The latest ``history_shown`` entries of the history (or all), each as ``seen[s]``
    shows the moves of seat ``s``."""
    history = obs.history
    start = 0 if history_shown is None else max(0, len(history) - history_shown)
    latest = history[start:]
    pictures = [latest if shown_by is obs else shown_by.history[start:] for shown_by in seen]
    return [pictures[entry.seat][offset] for offset, entry in enumerate(latest)]


def _table_json(obs: Observation, seen: tuple[Observation, Observation], card: CardForm,
                history_shown: int | None) -> Json:
    """Everything but the hand; ``seen[s]`` is the observation whose picture of seat ``s``'s
    caravans and moves is shown."""
    return {
        "caravans": [_caravan_json(seen[owner], index, card)
                     for index, owner in enumerate(_CARAVAN_OWNERS)],
        "deck_sizes": dict(zip(SEATS, obs.deck_sizes, strict=True)),
        "hand_sizes": dict(zip(SEATS, obs.hand_sizes, strict=True)),
        "discards": {SEATS[seat]: list(map(card, obs.piles[seat])) for seat in (0, 1)},
        "opening": dict(zip(SEATS, obs.opening, strict=True)),
        "moves_made": dict(zip(SEATS, obs.moves_made, strict=True)),
        "history": [history_json(entry, card)
                    for entry in shown_history(obs, seen, history_shown)],
        "result": result_json(obs.result),
    }


_CARAVAN_OWNERS = tuple(owner_of_caravan(index) for index in range(6))
_CARAVAN_OWNER_NAMES = tuple(SEATS[owner] for owner in _CARAVAN_OWNERS)


def _caravan_json(obs: Observation, index: int, card: CardForm) -> Json:
    slots = obs.caravans[index]
    value, size, _last, suit, direction = obs.summaries[index]
    hidden = False
    cards = []
    for numeral, faces in slots:
        hidden = hidden or numeral == HIDDEN_CARD
        cards.append({"numeral": card(numeral), "faces": list(map(card, faces))})
    return {
        "name": CARAVAN_NAMES[index],
        "owner": _CARAVAN_OWNER_NAMES[index],
        "cards": cards,
        "value": None if hidden else value,
        "size": size,
        "suit": None if hidden or not 0 <= suit < len(SUITS) else SUITS[suit],
        "direction": None if hidden else DIRECTION_TEXT[direction],
    }


HISTORY_JSON_KEPT = 1 << 14
"""How many entries' JSON :func:`history_json` keeps (the latest moves of many tables)."""


@functools.lru_cache(maxsize=HISTORY_JSON_KEPT)
def history_json(entry: HistoryEntry, card: CardForm) -> Json:
    """A move with the cards it showed; ``move`` null for a hand shown for a mulligan.

    Made once per entry and card form while it is recent (views show the latest moves at
    every frame): an entry is an immutable tuple whose hidden cards are already
    :data:`HIDDEN_CARD`, so its JSON is the same whoever asks. The JSON is shared between
    views: never change it."""
    move = entry.move
    return {"seat": SEATS[entry.seat], "move": None if move is None else move.notation,
            "cards": list(map(card, entry.cards))}
