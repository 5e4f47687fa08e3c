"""What one seat may know. Built by the state; the only thing a seat is ever given."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from cardtable.games.obsession.events import Event
from cardtable.games.obsession.rules import Rules


class History(Sequence[Event]):
    """A read-only view of the first ``length`` public events of an append-only list.

    Making it costs O(1), so an observation per decision stays cheap in long games.
    """

    __slots__ = ("_events", "_length")

    def __init__(self, events: list[Event], length: int) -> None:
        self._events = events
        self._length = length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | Sequence[Event]:
        if isinstance(index, slice):
            return tuple(self._events[: self._length][index])
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("history index out of range")
        return self._events[index]

    def __iter__(self) -> Iterator[Event]:
        for index in range(self._length):
            yield self._events[index]

    def __eq__(self, other: object) -> bool:
        """Equal to any history (or tuple) holding the same events."""
        if isinstance(other, History | tuple):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))


@dataclass(frozen=True, slots=True)
class Observation:
    """Seat ``seat``'s view (seats are 0-based). Hidden cards are in nobody's observation."""

    seat: int
    phase: str
    """``swap``, ``play`` or ``over``."""
    rules: Rules
    hand: tuple[int, ...]
    """This seat's own hand in display order."""
    visible: tuple[tuple[int, ...], ...]
    hand_counts: tuple[int, ...]
    hidden_counts: tuple[int, ...]
    draw_count: int
    discard: tuple[int, ...]
    """The whole discard pile, top first."""
    active_face: int
    """0 when there is none (empty pile or jokers only)."""
    run: int
    """Run length of the literal top face (0 for an empty pile)."""
    direction: int
    """+1 forward, -1 reverse."""
    to_move: int | None
    out: tuple[bool, ...]
    placings: tuple[int, ...]
    history: Sequence[Event]
    play_number: int
    """Plays made so far."""
    killed: tuple[int, ...] = ()
    """Cards killed with the pile, in the order they left it (each was seen face up)."""
    removed: tuple[int, ...] = ()
    """Threes removed from the game when a pile was picked up (each was seen face up)."""

    @property
    def source(self) -> str:
        """This seat's active pile: ``hand``, ``visible`` or ``hidden``."""
        if self.hand:
            return "hand"
        if self.visible[self.seat]:
            return "visible"
        return "hidden"

    @property
    def pool(self) -> tuple[int, ...]:
        """The cards a selection is numbered against: the swap pool or the active pile."""
        if self.phase == "swap":
            return tuple(sorted(self.hand + self.visible[self.seat]))
        # The hand, else the visible row; both empty means the hidden row: no pool (``()``).
        return self.hand or self.visible[self.seat]

    def next_seat(self, after: int) -> int:
        """The next seat still in the game after ``after`` in the current direction."""
        players = len(self.out)
        seat = (after + self.direction) % players
        while self.out[seat]:
            seat = (seat + self.direction) % players
        return seat
