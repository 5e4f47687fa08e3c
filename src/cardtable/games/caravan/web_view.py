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

from cardtable.cards import SUIT_GLYPHS
from cardtable.engine.protocol import Result
from cardtable.games.caravan.board import CARAVAN_NAMES, in_range, lane_taker, owner_of_caravan
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.events import HistoryEntry
from cardtable.games.caravan.rules import Rules

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
    from cardtable.games.caravan.observation_json import (
        observation_json,
        public_json,
        shown_history,
    )

    if public is None:
        view = observation_json(obs, _card, history)
        entries = shown_history(obs, (obs, obs), history)
    else:
        abc, def_ = (obs, public) if obs.seat == 0 else (public, obs)
        view = public_json(abc, def_, _card, history)
        entries = shown_history(abc, (def_, abc), history)  # the moves public_json shows
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
    view.update(game="caravan", seats=list(SEATS), lanes=lanes, rules=_rules_json(rules))
    viewer = SEATS[obs.seat] if public is None else None
    view["history_text"] = texts = [_entry_words(entry, viewer) for entry in entries]
    moves = view["history"]
    view["last_move"] = _marked(moves[-1], texts[-1]) if moves else None
    return view


RULES_KEPT = 1024
"""How many games' rules :func:`_rules_json` keeps."""

_rules_shown: dict[int, tuple[tuple[Rules, Rules], Json]] = {}


def _rules_json(rules: tuple[Rules, Rules]) -> Json:
    """Both seats' rules as a view shows them, made once per game: a game's rules never
    change, and its states (clones included) share one tuple of them, which is kept here by
    its identity (held, so the identity stays its own). Shared between views: never change
    it."""
    from cardtable.games.caravan.observation_json import seat_rules_json

    kept = _rules_shown.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    if len(_rules_shown) >= RULES_KEPT:
        _rules_shown.clear()
    shown = seat_rules_json(rules)
    _rules_shown[id(rules)] = (rules, shown)
    return shown


WORDS_KEPT = 1 << 15
"""How many history entries' words :func:`_entry_words` keeps (the latest moves of many
tables, as each seat and anyone sees them)."""


@functools.lru_cache(maxsize=WORDS_KEPT)
def _entry_words(entry: HistoryEntry, viewer: str | None) -> str:
    """:func:`move_words` of a history entry (an immutable tuple whose hidden cards are
    already hidden), made once while the entry is among the latest moves."""
    from cardtable.games.caravan.observation_json import history_json

    return move_words(history_json(entry, _card), viewer)


def card_words(card: Json | None) -> str:
    """A card as a line of words shows it (``K♥``, ``joker``); a card the viewer may not see
    is "a face-down card"."""
    if card is None:
        return "a face-down card"
    text = str(card["card"])
    if text == "JO":
        return "a joker"
    return text[:-1] + SUIT_GLYPHS.get(text[-1], text[-1])


def _caravan_words(name: str, viewer: str | None) -> str:
    """``your caravan A`` for the viewer's own lane, else ``caravan A``."""
    owner = SEATS[owner_of_caravan(CARAVAN_NAMES.index(name))]
    return f"your caravan {name}" if owner == viewer else f"caravan {name}"


def move_words(entry: Json, viewer: str | None) -> str:
    """One history entry of a view in words, as ``viewer`` (a seat, or None for anyone) sees
    it: "DEF played K♥ on your 9♣ in A". Built from the entry alone (its notation and the
    cards it showed), so it says nothing the entry does not show."""
    seat, move, cards = entry["seat"], entry["move"], entry.get("cards") or []
    mine = seat == viewer
    who = "You" if mine else seat
    if move is None:
        return f"{who} {'show' if mine else 'shows'} a hand without enough numerals and " \
               f"{'draw' if mine else 'draws'} again"
    kind, rest = move[0], move[1:]
    first = card_words(cards[0]) if cards else "a card"
    if kind == "D":
        return f"{who} discarded {first}"
    name = rest.lstrip("0123456789")[:1] if kind == "P" else rest[:1]
    if kind == "C":
        lane = _caravan_words(name, viewer)
        if len(rest) > 1 and cards:  # destroy and restart: the restart card comes last
            return f"{who} cleared {lane} and started it again with {card_words(cards[-1])}"
        removed = len(cards)
        return f"{who} cleared {lane}" + (f" ({removed} card{'s' if removed != 1 else ''})"
                                          if removed else "")
    if len(cards) >= 2:  # a face card on a numeral of a caravan
        target, owner = card_words(cards[1]), _caravan_words(name, viewer)
        whose = "your " if owner.startswith("your") else ""
        return f"{who} played {first} on {whose}{target} in {name}"
    return f"{who} played {first} on {_caravan_words(name, viewer)}"


def last_move(history: list[Json], viewer: str | None) -> Json | None:
    """The latest move as the board marks it: its seat, its words and the ids of the cards
    it moved (the card played and, for a face card, the numeral it went on)."""
    if not history:
        return None
    return _marked(history[-1], move_words(history[-1], viewer))


def _marked(entry: Json, text: str) -> Json:
    """:func:`last_move` of ``entry``, whose words are ``text``."""
    move, cards = entry["move"], entry.get("cards") or []
    if move is None or (move.startswith("C") and len(move) == 2):
        cards = []  # a shown hand or a cleared caravan leaves nothing on the table to mark
    elif move.startswith("C"):
        cards = cards[-1:]  # destroyed and started again: the restart card
    ids = [card["id"] for card in cards[:2] if card is not None]
    return {"seat": entry["seat"], "text": text, "cards": ids}


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
