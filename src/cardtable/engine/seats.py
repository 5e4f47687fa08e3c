"""Naming a seat: by its name (``ABC``, ``P2``, ``C``) or by its 0-based index, nothing else."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.engine.errors import UnknownSeat
from cardtable.engine.one_line import one_line, shortened

_SHOWN = 20
"""How many characters of a refused seat a message repeats."""


def seat_number(seat: object, names: Sequence[str]) -> int:
    """The 0-based index of ``seat``, given as one of ``names`` (any case) or as an index.

    Raises :class:`UnknownSeat` naming the accepted forms for anything else (including
    ``True``, which is an ``int`` to Python but not a seat).
    """
    if isinstance(seat, int) and not isinstance(seat, bool):
        if 0 <= seat < len(names):
            return seat
    elif isinstance(seat, str):
        wanted = seat.strip().upper()
        for index, name in enumerate(names):
            if name.upper() == wanted:
                return index
    raise UnknownSeat(unknown_seat_message(seat, names))


def unknown_seat_message(seat: object, names: Sequence[str]) -> str:
    shown = shortened(one_line(seat) if isinstance(seat, str) else repr(seat), _SHOWN)
    allowed = ", ".join(names) if len(names) <= 4 else f"{names[0]}..{names[-1]}"
    return f"Unknown seat '{shown}' (allowed: {allowed} or an index 0..{len(names) - 1})."
