"""Caravan as a web page draws it: a seat's view, the public view and a record's replay steps.

A view is the game's own observation JSON (:mod:`observation_json`, the one external bots
receive), so it holds only what its observations hold: a seat's view is made from that seat's
observation, the public view from both seats' observations with every hand and deck left out.
Cards are objects ``{"card": "7S", "id": "ABC/..."}``: ``card`` is what is shown, ``id`` names
the physical card (a page follows a card by it, and tests prove that no hidden card is ever
sent); a card the viewer may not see is ``null``. To that the view adds the game's name, its
seats and rules, and what the board marks: the sold and bust caravans and the seat taking each
lane.
"""

from __future__ import annotations

import functools
import os
import tempfile
from typing import Any

from cardtable.engine.protocol import Result

Json = dict[str, Any]


@functools.cache
def _card(card: int) -> Json | None:
    """A card's JSON (shared between frames, never changed: cached, as cards are small ints)."""
    from cardtable.games.caravan.cards import SEATS, identity, owner_of
    from cardtable.games.caravan.observation import HIDDEN_CARD
    from cardtable.games.caravan.observation_json import card_json

    if card == HIDDEN_CARD:
        return None
    return {"card": card_json(card), "id": f"{SEATS[owner_of(card)]}/{identity(card)}"}


def caravan_view(obs: Any, public: Any | None = None, history: int = 12) -> Json:
    """``obs`` is a seat's observation; with ``public`` (the other seat's observation) the
    view is the public one. ``history``: how many of the latest moves it carries."""
    from cardtable.games.caravan.board import in_range, lane_taker, owner_of_caravan
    from cardtable.games.caravan.cards import SEATS
    from cardtable.games.caravan.observation_json import (
        observation_json,
        public_json,
        seat_rules_json,
    )

    if public is None:
        view = observation_json(obs, _card, history)
    else:
        abc, def_ = (obs, public) if obs.seat == 0 else (public, obs)
        view = public_json(abc, def_, _card, history)
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


def seat_view(state: Any, seat: str, history: int) -> Json:
    return caravan_view(state.observation(seat), history=history)


def public_view(state: Any, history: int) -> Json:
    seats = state.seats
    return caravan_view(state.observation(seats[0]), state.observation(seats[1]), history)


def replay_views(record: str, history: int) -> tuple[list[Json], list[Json], Result | None]:
    """The record replayed by ``caravan --replay``'s own reader (``load_replay``), which checks
    every line; each step the public view with both hands."""
    from cardtable.games.caravan.cards import SEATS
    from cardtable.games.caravan.record import load_replay

    handle, path = tempfile.mkstemp(suffix=".jsonl", prefix="cardtable-replay-")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(record)
        replay = load_replay(path)
    finally:
        os.unlink(path)
    game = replay.start()

    def view() -> Json:
        shown = caravan_view(game.observation(0), game.observation(1), history)
        shown["hands"] = {SEATS[seat]: caravan_view(game.observation(seat), history=history)
                          ["hand"] for seat in (0, 1)}
        return shown

    frames, moves = [view()], []
    for step in replay.moves:
        replay.apply(game, step)
        moves.append({"seat": SEATS[step.move.seat], "move": step.move.notation})
        frames.append(view())
    replay.finish(game)  # an abandoned or forfeited game's end is on the record's last line
    return frames, moves, game.result


def recorder(state: Any, writer: Any, players: list[str]) -> Any:
    """The ``caravan --record`` recorder of a web table (its first lines written now)."""
    from cardtable.games.caravan.record import GameRecorder

    named = {seat: player for seat, player in zip(state.seats, players, strict=True)}
    recording = GameRecorder(writer, "web", named, ("random", "random"))
    recording.start(state)
    return recording


def form_fields() -> list[tuple[str, list[Any]]]:
    """Every rule field of :class:`~cardtable.games.caravan.rules.Rules`, in its order, as a
    form offers it: one parameter for both seats (a field they must share) or one per seat
    (``abc.FIELD``, ``def.FIELD``). A ``Literal`` or a ``bool`` is a choice (``yes``/``no``),
    a number an integer; a field that may be None also takes ``none``."""
    import types
    from dataclasses import fields
    from typing import Literal, get_args, get_origin, get_type_hints

    from cardtable.engine.description import Param
    from cardtable.games.caravan.cards import SEATS
    from cardtable.games.caravan.rules import GLOBAL_FIELDS, Rules

    def param(name: str, hint: object, label: str) -> Param:
        args = get_args(hint)
        nullable = isinstance(hint, types.UnionType) and type(None) in args
        if nullable:
            (hint,) = (arg for arg in args if arg is not type(None))
        values: tuple[str, ...] | None = None
        if hint is bool:
            values = ("yes", "no")
        elif get_origin(hint) is Literal:
            values = tuple(str(arg) for arg in get_args(hint))
        if values is None:
            return Param(name, label, kind="int", none=nullable)
        return Param(name, label, kind="choice", choices=(*values, *(("none",) if nullable
                                                                      else ())))

    hints = get_type_hints(Rules)
    rows: list[tuple[str, list[Any]]] = []
    for field in fields(Rules):
        name, hint = field.name, hints[field.name]
        if name in GLOBAL_FIELDS:
            rows.append((name, [param(name, hint, f"{name} (both seats)")]))
        else:
            rows.append((name, [param(f"{seat.lower()}.{name}", hint, f"{name} for {seat}")
                                for seat in SEATS]))
    return rows
