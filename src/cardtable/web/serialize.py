"""The pages' views of a table: each game's observation JSON, plus what a page draws with.

A view is the game's own observation JSON (``games/<game>/observation_json.py``, the one
external bots receive), so it holds only what its observations hold: a seat's view is made from
that seat's observation, the public view (spectators, the table's public page) from
observations with everything private to a seat left out. The pages get cards as objects
``{"card": "7S", "id": "..."}``: ``card`` is what is shown, ``id`` names the physical card (it
lets a page follow a card, and lets tests prove that no hidden card is ever sent). A card the
viewer may not see is never sent at all; where its place is shown it is ``null``. To that the
page's view adds the game's name, its seats and rules, only the latest moves, and what the
board marks (Caravan's sold and bust caravans and the seat taking each lane).
"""

from __future__ import annotations

import functools
from typing import Any

from cardtable.engine.result_json import result_json as result_json  # the frames' results

Json = dict[str, Any]

HISTORY_SHOWN = 12
"""How many of the last moves a frame carries."""


# --------------------------------------------------------------------------- Caravan


@functools.cache
def _caravan_card(card: int) -> Json | None:
    """A card's JSON (shared between frames, never changed: cached, as cards are small ints)."""
    from cardtable.games.caravan.cards import SEATS, identity, owner_of
    from cardtable.games.caravan.observation import HIDDEN_CARD
    from cardtable.games.caravan.observation_json import card_json

    if card == HIDDEN_CARD:
        return None
    return {"card": card_json(card), "id": f"{SEATS[owner_of(card)]}/{identity(card)}"}


def caravan_view(obs: Any, public: Any | None = None) -> Json:
    """Caravan: ``obs`` is a seat's observation; with ``public`` (the other seat's observation)
    the view is the public one."""
    from cardtable.games.caravan.board import in_range, lane_taker, owner_of_caravan
    from cardtable.games.caravan.cards import SEATS
    from cardtable.games.caravan.observation_json import (
        observation_json,
        public_json,
        seat_rules_json,
    )

    if public is None:
        view = observation_json(obs, _caravan_card, HISTORY_SHOWN)
    else:
        abc, def_ = (obs, public) if obs.seat == 0 else (public, obs)
        view = public_json(abc, def_, _caravan_card, HISTORY_SHOWN)
    rules = obs.rules
    caravans = view["caravans"]
    for index, caravan in enumerate(caravans):
        value, owner_rules = caravan["value"], rules[owner_of_caravan(index)]
        shown = value is not None
        caravan["sold"] = shown and caravan["size"] > 0 and in_range(value, owner_rules)
        caravan["bust"] = shown and value > owner_rules.sold_max
    lanes: list[str | None] = []
    for lane in range(3):
        left, right = caravans[lane]["value"], caravans[lane + 3]["value"]
        taker = None if left is None or right is None else lane_taker(left, right, *rules)
        lanes.append(None if taker is None else SEATS[taker])
    view.update(game="caravan", seats=list(SEATS), lanes=lanes, rules=seat_rules_json(rules))
    return view


# --------------------------------------------------------------------------- Obsession


@functools.cache
def _obsession_card(card: int) -> Json:
    from cardtable.games.obsession.observation_json import card_text

    return {"card": card_text(card), "id": f"o{card}"}


def obsession_view(obs: Any, public: bool = False) -> Json:
    """Obsession: ``obs`` is a seat's observation; ``public`` leaves out the seat's hand."""
    from cardtable.games.obsession.observation_json import observation_json, public_json

    view = (public_json if public else observation_json)(obs, _obsession_card, HISTORY_SHOWN)
    view.update(game="obsession", seats=[player["seat"] for player in view["players"]],
                rules=obs.rules.to_json())
    return view


# --------------------------------------------------------------------------- Austerity


def austerity_view(obs: Any, public: bool = False) -> Json:
    """Austerity hides nothing but the deck order: a seat's view is the public one with the
    seat's letter."""
    from cardtable.games.austerity.observation_json import observation_json, public_json

    view = (public_json if public else observation_json)(obs)
    view.update(game="austerity", seats=[player["seat"] for player in view["players"]])
    return view


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
    return austerity_view(state.observation(seats[0]), public=True)
