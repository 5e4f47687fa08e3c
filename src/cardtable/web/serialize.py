"""Observations as JSON, one serializer per game, built only from observation objects.

A seat's frame is made from that seat's observation; the public view (spectators, the table's
public page) from observations with everything private to a seat removed. A card is an object
``{"card": "7S", "id": "..."}``: ``card`` is what is shown, ``id`` names the physical card (it
lets a page follow a card, and lets tests prove that no hidden card is ever sent). A card the
viewer may not see is never sent at all; where its place is shown it is ``null``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from cardtable.engine.protocol import Result

Json = dict[str, Any]

HISTORY_SHOWN = 12
"""How many of the last moves a frame carries."""


def result_json(result: Result | None) -> Json | None:
    if result is None:
        return None
    details = {key: value for key, value in result.details.items()
               if isinstance(value, int | str | list | type(None))}
    return {"winners": list(result.winners), "reason": result.reason, "details": details}


# --------------------------------------------------------------------------- Caravan


@functools.cache
def _caravan_card(card: int) -> Json | None:
    """A card's JSON (shared between frames, never changed: cached, as cards are small ints)."""
    from cardtable.games.caravan.cards import SEATS, code, identity, owner_of
    from cardtable.games.caravan.observation import HIDDEN_CARD

    if card == HIDDEN_CARD:
        return None
    return {"card": code(card), "id": f"{SEATS[owner_of(card)]}/{identity(card)}"}


def _caravan_rules(rules: Any) -> Json:
    from cardtable.games.caravan.rules_assembly import rules_to_json

    data: Json = rules_to_json(rules)
    return data


def caravan_view(obs: Any, public: Any | None = None) -> Json:
    """Caravan: ``obs`` is a seat's observation; with ``public`` (the other seat's observation)
    the view is the public one: no hand, and each side's caravans and history as the other
    seat sees them (so a simultaneous opening stays hidden from spectators)."""
    from cardtable.games.caravan.board import (
        CARAVAN_NAMES,
        DIRECTION_TEXT,
        in_range,
        lane_taker,
        owner_of_caravan,
    )
    from cardtable.games.caravan.cards import SEATS, SUITS

    views = (obs, obs) if public is None else ((public, obs) if obs.seat == 0 else (obs, public))
    # views[s]: the observation whose picture of seat s's caravans is shown.
    caravans = []
    for index in range(6):
        owner = owner_of_caravan(index)
        source = views[owner] if public is not None else obs
        slots = source.caravans[index]
        value, size, _last, suit, direction = source.summaries[index]
        rules = obs.rules[owner]
        hidden = any(numeral == 0 for numeral, _faces in slots)
        caravans.append({
            "name": CARAVAN_NAMES[index],
            "owner": SEATS[owner],
            "cards": [{"numeral": _caravan_card(numeral),
                       "faces": [_caravan_card(face) for face in faces]}
                      for numeral, faces in slots],
            "value": None if hidden else value,
            "size": size,
            "suit": None if hidden or suit < 0 or suit >= len(SUITS) else SUITS[suit],
            "direction": None if hidden else DIRECTION_TEXT[direction],
            "sold": not hidden and size > 0 and in_range(value, rules),
            "bust": not hidden and value > rules.sold_max,
        })
    lanes: list[str | None] = []
    for lane in range(3):
        left, right = caravans[lane], caravans[lane + 3]
        if left["value"] is None or right["value"] is None:
            lanes.append(None)
            continue
        taker = lane_taker(left["value"], right["value"], obs.rules[0], obs.rules[1])
        lanes.append(None if taker is None else SEATS[taker])
    history: list[Json] = []
    start = max(0, len(obs.history) - HISTORY_SHOWN)
    for position in range(start, len(obs.history)):
        entry = obs.history[position]
        if public is not None:
            entry = views[entry.seat].history[position]
        move = entry.move
        history.append({
            "seat": SEATS[entry.seat],
            "move": None if move is None else str(move),
            "cards": [_caravan_card(card) for card in entry.cards],
            "mulligan": move is None,
        })
    view: Json = {
        "game": "caravan",
        "seats": list(SEATS),
        "to_move": None if obs.to_move is None else SEATS[obs.to_move],
        "caravans": caravans,
        "lanes": lanes,
        "deck_sizes": list(obs.deck_sizes),
        "hand_sizes": list(obs.hand_sizes),
        "piles": [[_caravan_card(card) for card in pile] for pile in obs.piles],
        "opening": list(obs.opening),
        "moves_made": list(obs.moves_made),
        "rules": {SEATS[seat]: _caravan_rules(obs.rules[seat]) for seat in (0, 1)},
        "history": history,
        "result": result_json(obs.result),
    }
    if public is None:
        view["hand"] = [_caravan_card(card) for card in obs.hand]
    return view


# --------------------------------------------------------------------------- Obsession


@functools.cache
def _obsession_card(card: int) -> Json:
    from cardtable.games.obsession.cards import TEXT

    return {"card": TEXT[card], "id": f"o{card}"}


def _obsession_cards(cards: Sequence[int]) -> list[Json]:
    return [_obsession_card(card) for card in cards]


def obsession_view(obs: Any, public: bool = False) -> Json:
    from cardtable.games.obsession.cards import FACE_NAMES
    from cardtable.games.obsession.record import event_record
    from cardtable.games.obsession.state import seat_name

    players = len(obs.out)
    history = []
    for event in list(obs.history)[-HISTORY_SHOWN * 2:]:
        line = event_record(event)
        if line is not None:
            history.append(line)
    view: Json = {
        "game": "obsession",
        "seats": [seat_name(seat) for seat in range(players)],
        "phase": obs.phase,
        "to_move": None if obs.to_move is None else seat_name(obs.to_move),
        "players": [
            {"seat": seat_name(seat),
             "hand_count": obs.hand_counts[seat],
             "visible": _obsession_cards(obs.visible[seat]),
             "hidden_count": obs.hidden_counts[seat],
             "out": obs.out[seat]}
            for seat in range(players)
        ],
        "draw_count": obs.draw_count,
        "pile": _obsession_cards(obs.discard),
        "active_face": FACE_NAMES.get(obs.active_face) if obs.active_face else None,
        "run": obs.run,
        "direction": obs.direction,
        "placings": [seat_name(seat) for seat in obs.placings],
        "plays": obs.play_number,
        "rules": obs.rules.to_json(),
        "history": history[-HISTORY_SHOWN:],
    }
    if not public:
        view["hand"] = _obsession_cards(obs.hand)
    return view


# --------------------------------------------------------------------------- Austerity


def austerity_view(obs: Any) -> Json:
    """Austerity hides nothing but the deck order: every seat's view is the public one."""
    from cardtable.games.austerity.rules import COLOURS, letter

    players = len(obs.points)
    return {
        "game": "austerity",
        "seats": [letter(seat) for seat in range(players)],
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


# --------------------------------------------------------------------------- any game


def seat_view(game: str, state: Any, seat: str) -> Json:
    """What ``seat`` may see, from its observation only."""
    obs = state.observation(seat)
    if game == "caravan":
        return caravan_view(obs)
    if game == "obsession":
        return obsession_view(obs)
    return austerity_view(obs)


def public_view(game: str, state: Any) -> Json:
    """What anyone may see (spectators, the public table page)."""
    seats = state.seats
    if game == "caravan":
        return caravan_view(state.observation(seats[0]), state.observation(seats[1]))
    if game == "obsession":
        return obsession_view(state.observation(seats[0]), public=True)
    return austerity_view(state.observation(seats[0]))
