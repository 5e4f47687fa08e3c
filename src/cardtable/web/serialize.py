"""The pages' views of a table: what each game's description says a seat or anyone may see.

A view is the game's own JSON (``GameDescription.seat_view`` and ``public_view``): a seat's
view is made from that seat's observation only, the public view (spectators, the table's
public page) from what every seat may see. A card the viewer may not see is never sent at all.
The built-in games send cards as objects ``{"card": "7S", "id": "..."}``: ``card`` is what is
shown, ``id`` names the physical card (it lets a page follow a card, and lets tests prove that
no hidden card is ever sent).
"""

from __future__ import annotations

from typing import Any

from cardtable.engine.description import GameDescription
from cardtable.engine.game_registry import description
from cardtable.engine.result_json import result_json as result_json  # the frames' results

Json = dict[str, Any]

HISTORY_SHOWN = GameDescription.view_history
"""How many of the last moves a view carries (unless a game says otherwise)."""


def seat_view(game: str, state: Any, seat: str) -> Json:
    """What ``seat`` may see, from its observation only."""
    view: Json = description(game).seat_view(state, seat)
    return view


def public_view(game: str, state: Any) -> Json:
    """What anyone may see (spectators, the public table page)."""
    view: Json = description(game).public_view(state)
    return view
