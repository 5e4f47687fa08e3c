"""An Obsession observation as JSON: what one seat may see, and nothing else.

Built only from :class:`~cardtable.games.obsession.observation.Observation`: the seat's own
hand, every visible row, counts of hands, hidden rows and the draw pile, the discard pile, and
the public history as record lines. Cards are their texts (``9H``, ``R`` for a joker).
External bots receive it (docs/bots.md); any other interface may share it.
"""

from __future__ import annotations

from typing import Any

from cardtable.engine.protocol import Result
from cardtable.games.obsession.cards import FACE_NAMES, TEXT
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.record import event_record
from cardtable.games.obsession.state import seat_name

Json = dict[str, Any]


def result_json(result: Result | None) -> Json | None:
    if result is None:
        return None
    return {"winners": list(result.winners), "reason": result.reason,
            "details": {key: value for key, value in result.details.items()
                        if isinstance(value, int | str | list | type(None))}}


def observation_json(obs: Observation) -> Json:
    players = len(obs.out)
    history = [line for line in map(event_record, obs.history) if line is not None]
    return {
        "seat": seat_name(obs.seat),
        "phase": obs.phase,
        "to_move": None if obs.to_move is None else seat_name(obs.to_move),
        "hand": [TEXT[card] for card in obs.hand],
        "players": [
            {"seat": seat_name(seat),
             "hand_count": obs.hand_counts[seat],
             "visible": [TEXT[card] for card in obs.visible[seat]],
             "hidden_count": obs.hidden_counts[seat],
             "out": obs.out[seat]}
            for seat in range(players)
        ],
        "draw_count": obs.draw_count,
        "pile": [TEXT[card] for card in obs.discard],
        "active_face": FACE_NAMES.get(obs.active_face) if obs.active_face else None,
        "run": obs.run,
        "direction": obs.direction,
        "placings": [seat_name(seat) for seat in obs.placings],
        "plays": obs.play_number,
        "killed": [TEXT[card] for card in obs.killed],
        "removed": [TEXT[card] for card in obs.removed],
        "history": history,
        "result": result_json(getattr(obs, "result", None)),
    }
