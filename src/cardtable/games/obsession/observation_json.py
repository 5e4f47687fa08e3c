"""An Obsession observation as JSON: what one seat may see, and nothing else.

Built only from :class:`~cardtable.games.obsession.observation.Observation`: the seat's own
hand, every visible row, counts of hands, hidden rows and the draw pile, the discard pile, and
the public history as record lines. External bots receive it (docs/bots.md) with cards as
their texts (``9H``, ``R`` for a joker); the web pages build on it with cards as objects that
name the physical card (docs/web.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardtable.engine.result_json import result_json
from cardtable.games.obsession.cards import FACE_NAMES, TEXT
from cardtable.games.obsession.events import Event
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.record import event_record
from cardtable.games.obsession.state import seat_name

Json = dict[str, Any]

CardForm = Callable[[int], Any]
"""How a card is written."""


def card_text(card: int) -> str:
    """The bots' form of a card: its text."""
    return TEXT[card]


def observation_json(obs: Observation, card: CardForm = card_text,
                     history_shown: int | None = None) -> Json:
    """The seat's whole view, with the latest ``history_shown`` record lines (or all)."""
    players = len(obs.out)
    return {
        "seat": seat_name(obs.seat),
        "phase": obs.phase,
        "to_move": None if obs.to_move is None else seat_name(obs.to_move),
        "hand": list(map(card, obs.hand)),
        "players": [
            {"seat": seat_name(seat),
             "hand_count": obs.hand_counts[seat],
             "visible": list(map(card, obs.visible[seat])),
             "hidden_count": obs.hidden_counts[seat],
             "out": obs.out[seat]}
            for seat in range(players)
        ],
        "draw_count": obs.draw_count,
        "pile": list(map(card, obs.discard)),
        "active_face": FACE_NAMES.get(obs.active_face) if obs.active_face else None,
        "run": obs.run,
        "direction": obs.direction,
        "placings": [seat_name(seat) for seat in obs.placings],
        "plays": obs.play_number,
        "killed": list(map(card, obs.killed)),
        "removed": list(map(card, obs.removed)),
        "history": _history_json(obs.history, history_shown),
        "result": result_json(getattr(obs, "result", None)),
    }


def public_json(obs: Observation, card: CardForm = card_text,
                history_shown: int | None = None) -> Json:
    """What every seat sees alike (spectators too): any seat's view without its name and
    hand."""
    view = observation_json(obs, card, history_shown)
    del view["seat"], view["hand"]
    return view


def _history_json(events: Sequence[Event], shown: int | None = None) -> list[Json]:
    """The public events as record lines: the latest ``shown`` of them, or all."""
    if shown is None:
        return [line for line in map(event_record, events) if line is not None]
    lines: list[Json] = []
    for event in reversed(events):
        if len(lines) >= shown:
            break
        line = event_record(event)
        if line is not None:
            lines.append(line)
    lines.reverse()
    return lines
