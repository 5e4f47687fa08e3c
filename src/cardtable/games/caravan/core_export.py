"""The one door from a Python Caravan game into the compiled core: :func:`export_core`.

The core never reads a game's attributes; it takes the flat tuple this function makes, whose
fields are named, in order, by :data:`CORE_FIELDS`. The C side lists the same names
(``_core.EXPORT_FIELDS``), and a test checks that the two agree.

Fields (``ABC`` first in every pair):

- ``rules``: the two seats' :class:`~cardtable.games.caravan.rules.Rules`;
- ``caravans``: six caravans A..F, each a tuple of ``(numeral, faces)`` slots;
- ``held``: per caravan, the direction kept for ``keep_previous`` (None when none is held);
- ``hands``, ``decks``, ``piles``: pairs of card lists (a deck's top card last);
- ``placed``, ``moves_made``: pairs of counts (Start-round placements, moves made);
- ``turn`` (0 or 1) and ``plies``;
- ``jack_as_joker``: per seat, whether its Jacks play as Jokers;
- ``result``: None while the game runs, else ``(winners, reason)``.
"""

from __future__ import annotations

from typing import Any

CORE_FIELDS = (
    "rules", "caravans", "held", "hands", "decks", "piles", "placed", "moves_made", "turn",
    "plies", "jack_as_joker", "result",
)

CoreExport = tuple[Any, ...]

_RESULT = CORE_FIELDS.index("result")


def export_core(game: Any) -> CoreExport:
    """``game`` as the compiled core imports it (fields :data:`CORE_FIELDS`, in order).

    Reads only the game's public fields, so anything shaped like a game will do (tests hand
    the core deliberately broken ones this way)."""
    exported = [getattr(game, name) for name in CORE_FIELDS]
    result = exported[_RESULT]
    if result is not None:
        exported[_RESULT] = (result.winners, result.reason)
    return tuple(exported)
