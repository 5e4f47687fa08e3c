"""What one seat may know. Built by the state; the only thing a seat is ever given."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.games.obsession.events import Event
from cardtable.games.obsession.rules import Rules


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
    known: tuple[tuple[int, ...], ...] = ()
    """Per seat, sorted, the cards every seat saw go into its hand and that it has not played
    since: the pile cards it picked up, a hidden card it turned and took up, the cards it
    swapped out of its face-up row. Public; a part of that seat's hand (empty when unknown)."""
    lacks: tuple[tuple[int, ...], ...] = ()
    """Per seat, what its choices so far show about the cards of its hand that are not in
    ``known``: for each of some of those cards, the strictest first, the faces it is not, as
    bits (``1 << face``): the rules' facts in the low bits, the ``obsessed`` policy's (while
    the seat plays like it) shifted by ``inference.POLICY_SHIFT`` (``inference.combined``
    joins them). Public; empty when unknown."""

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
