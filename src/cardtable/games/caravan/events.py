"""What a move did, for logs, records and interfaces."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from cardtable.games.caravan.cards import RANK_MASK
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


Slot = tuple[int, tuple[int, ...]]
"""A numeral and the faces attached to it, as on a caravan."""


def removed_slots(
    before: Sequence[Sequence[Slot]], removed: Sequence[int], played_on: int
) -> tuple[tuple[int, tuple[Slot, ...]], ...]:
    """What a face play took off the table, per caravan: ``(caravan, slots)`` in caravan order.

    ``before`` is the board as it stood before the move, ``removed`` the cards the move
    removed (:attr:`MoveEvent.removed`, each numeral followed by its faces) and
    ``played_on`` the caravan the face was played on; the face just played (a Joker that
    went with its target) belongs there. Card identities are unique, so each card is found
    where it stood.
    """
    where: dict[int, int] = {}
    for index, caravan in enumerate(before):
        for numeral, faces in caravan:
            where[numeral] = index
            for face in faces:
                where[face] = index
    groups: dict[int, list[Slot]] = {}
    for card in removed:
        index = where.get(card, played_on)
        slots = groups.setdefault(index, [])
        if card & RANK_MASK <= 10 or not slots:
            slots.append((card, ()))
        else:
            numeral, faces = slots[-1]
            slots[-1] = (numeral, (*faces, card))
    return tuple((index, tuple(groups[index])) for index in sorted(groups))
