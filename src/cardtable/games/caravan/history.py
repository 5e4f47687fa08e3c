"""The public history of a game as an immutable sequence that grows in constant time.

A game adds one entry per move, and every observation hands the history to a seat; copying
it each time would make a long game (random foxon games run to thousands of moves) cost
more per move the longer it lasts. A :class:`History` is a snapshot: the first ``length``
entries of a list that is only ever appended to. Adding an entry to the newest snapshot
appends to the shared list in place; adding to an older one (a clone that went its own
way) copies its entries first. No snapshot ever sees an entry change.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import overload

from cardtable.games.caravan.events import HistoryEntry


class History(Sequence[HistoryEntry]):
    """The first ``len(self)`` entries of a shared append-only list."""

    __slots__ = ("_entries", "_length")

    def __init__(self, entries: Sequence[HistoryEntry] = ()) -> None:
        self._entries = list(entries)
        self._length = len(self._entries)

    def plus(self, entry: HistoryEntry) -> History:
        """This history followed by ``entry``."""
        entries = self._entries
        if len(entries) != self._length:
            entries = entries[: self._length]
        entries.append(entry)
        grown = History.__new__(History)
        grown._entries = entries
        grown._length = self._length + 1
        return grown

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> HistoryEntry: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[HistoryEntry, ...]: ...

    def __getitem__(self, index: int | slice) -> HistoryEntry | tuple[HistoryEntry, ...]:
        if isinstance(index, slice):
            return tuple(self._entries[: self._length][index])
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("history index out of range")
        return self._entries[index]

    def __iter__(self) -> Iterator[HistoryEntry]:
        return islice(self._entries, self._length)

    def __reversed__(self) -> Iterator[HistoryEntry]:
        entries = self._entries
        return (entries[index] for index in range(self._length - 1, -1, -1))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History | tuple):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"History({tuple(self)!r})"
