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
from typing import Generic, TypeVar, overload

T = TypeVar("T")

_new_history = object.__new__


class History(Sequence[T], Generic[T]):
    """The first ``len(self)`` entries of a shared append-only list."""

    __slots__ = ("_entries", "_length")

    def __init__(self, entries: Sequence[T] = ()) -> None:
        self._entries = list(entries)
        self._length = len(self._entries)

    @classmethod
    def view(cls, entries: list[T], length: int) -> History[T]:
        """The first ``length`` entries of ``entries``, which the caller only ever appends to
        (no copy: a view per observation costs O(1))."""
        history: History[T] = cls.__new__(cls)
        history._entries = entries
        history._length = length
        return history

    def plus(self, entry: T) -> History[T]:
        """This history followed by ``entry``."""
        # A game adds an entry at every move: the view is made inline (as ``view`` does).
        entries = self._entries
        length = self._length
        if len(entries) != length:
            entries = entries[:length]
        entries.append(entry)
        history: History[T] = _new_history(History)
        history._entries = entries
        history._length = length + 1
        return history

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            positions = range(self._length)[index]  # the entries taken, without a copy of all
            if positions.step == 1:
                return tuple(self._entries[positions.start:positions.stop])
            return tuple(self._entries[position] for position in positions)
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("history index out of range")
        return self._entries[index]

    def __iter__(self) -> Iterator[T]:
        return islice(self._entries, self._length)

    def __reversed__(self) -> Iterator[T]:
        entries = self._entries
        return (entries[index] for index in range(self._length - 1, -1, -1))

    def __eq__(self, other: object) -> bool:
        """Equal to any history (or tuple) holding the same entries."""
        if isinstance(other, History | tuple):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"History({tuple(self)!r})"
