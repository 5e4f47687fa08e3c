"""What a move did, for logs, records and interfaces."""

from __future__ import annotations

from typing import NamedTuple

from cardtable.games.caravan.notation import Move


class MoveEvent(NamedTuple):
    """A successful move by ``seat``; ``code`` is its canonical packed form (no slot on a
    numeral play).

    ``card`` is the hand card used (None for a plain clear); ``target`` the numeral a
    face was played on; ``removed`` every card that left the table; ``shuffles`` the
    new deck orders (top card first) of seats whose discards became a deck.
    """

    seat: int
    code: int
    card: int | None
    target: int | None
    removed: tuple[int, ...] = ()
    shuffles: tuple[tuple[int, tuple[int, ...]], ...] = ()

    @property
    def move(self) -> Move:
        return Move.from_code(self.seat, self.code)


class HistoryEntry(NamedTuple):
    """One public event: a move (packed ``code``) with the cards it showed, or (``code``
    None) a hand shown for a mulligan. ``opening`` marks placements of a simultaneous
    opening, which the other seat may not see until all six are down."""

    seat: int
    code: int | None
    cards: tuple[int, ...]
    opening: bool = False

    @property
    def move(self) -> Move | None:
        return None if self.code is None else Move.from_code(self.seat, self.code)
