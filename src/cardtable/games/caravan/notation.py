"""The move notation: one parser for every interface (line mode, full-screen UI, records, bots).

Human form ``P2B``, ``P4F3``, ``D3``, ``CA``, ``CB4``; canonical form ``ABC:P2B``.
Moves are also packed into small ints (``Move.code``) for the hot path:
``kind | caravan << 2 | hand << 5 | slot << 21``, slot 0 meaning "none".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from cardtable.engine.one_line import shortened
from cardtable.engine.seats import seat_number
from cardtable.games.caravan.board import CARAVAN_NAMES
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.errors import MoveSyntaxError
from cardtable.games.caravan.rules import SeatRules

PLAY, DISCARD, CLEAR = 0, 1, 2
KIND_LETTERS = "PDC"
# Hand and caravan positions are small; the packed move keeps 16 bits for the hand.
_MAX_POSITION_DIGITS = 4
_SHOWN_DIGITS = 12
"""How many digits of a refused position a message repeats."""


HAND_OUT_OF_RANGE = "The chosen hand position is out of range."
"""The one refusal of a hand position that names no card: past the largest hand the rules
allow (refused here) or past the cards in hand (refused by the rules, ``legality``)."""


_CARAVAN_SHIFT, _HAND_SHIFT, _SLOT_SHIFT = 2, 5, 21
"""Where each field of a packed move starts (the compiled core packs moves the same way)."""


def pack(kind: int, caravan: int = 0, hand: int = 0, slot: int = 0) -> int:
    return kind | caravan << _CARAVAN_SHIFT | hand << _HAND_SHIFT | slot << _SLOT_SHIFT


def unpack(code: int) -> tuple[int, int, int, int]:
    """``(kind, caravan, hand, slot)`` of a packed move."""
    return (code & 3, (code >> _CARAVAN_SHIFT) & 7, (code >> _HAND_SHIFT) & 0xFFFF,
            code >> _SLOT_SHIFT)


def with_slot(code: int, slot: int) -> int:
    """Packed move ``code`` (which names no slot) played on ``slot``."""
    return code | slot << _SLOT_SHIFT


@dataclass(frozen=True, slots=True)
class Move:
    """A move by ``seat`` (0 = ABC, 1 = DEF). ``hand`` and ``slot`` are 1-based; 0 means absent."""

    seat: int
    kind: int
    caravan: int = 0
    hand: int = 0
    slot: int = 0

    @property
    def code(self) -> int:
        return pack(self.kind, self.caravan, self.hand, self.slot)

    @classmethod
    def from_code(cls, seat: int, code: int) -> Move:
        if cls is Move:
            return _move_of_code(seat, code)
        kind, caravan, hand, slot = unpack(code)
        return cls(seat, kind, caravan, hand, slot)

    @classmethod
    def parse(cls, text: str, rules: SeatRules, seat: int | str | None = None) -> Move | None:
        """Parse human or canonical notation; see :func:`parse_move`."""
        return parse_move(text, rules, seat)

    @property
    def notation(self) -> str:
        """The move without its seat: ``P2B``, ``P4F3``, ``D3``, ``CA``, ``CB4``."""
        if self.kind == PLAY:
            text = f"P{self.hand}{CARAVAN_NAMES[self.caravan]}"
            return f"{text}{self.slot}" if self.slot else text
        if self.kind == DISCARD:
            return f"D{self.hand}"
        text = f"C{CARAVAN_NAMES[self.caravan]}"
        return f"{text}{self.hand}" if self.hand else text

    def __str__(self) -> str:
        return f"{SEATS[self.seat]}:{self.notation}"


@lru_cache(maxsize=4096, typed=True)
def _move_of_code(seat: int, code: int) -> Move:
    """``Move.from_code``: a move is immutable, and bots turn the same few codes into moves
    at every turn of a match, so the moves made are kept (typed: ``True`` is no seat 1)."""
    kind, caravan, hand, slot = unpack(code)
    return Move(seat, kind, caravan, hand, slot)


def _ascii_digit_run(text: str, start: int) -> str:
    end = start
    while end < len(text) and "0" <= text[end] <= "9":
        end += 1
    return text[start:end]


def _shown(run: str) -> str:
    """A digit run as a message repeats it: cut after a few digits, so that thousands of
    digits typed by mistake do not fill the screen."""
    return shortened(run, _SHOWN_DIGITS)


def _position(run: str, limit: int | None) -> int | None:
    """The 1-based position written as the digit run ``run``, or None when it is 0, has a
    leading zero or exceeds ``limit``. A run longer than any position is refused before
    ``int()``, which would refuse thousands of digits with a ``ValueError`` of its own."""
    if not run or run[0] == "0" or len(run) > _MAX_POSITION_DIGITS:
        return None
    value = int(run)
    return value if limit is None or value <= limit else None


def _hand_position(text: str, at: int, limit: int) -> tuple[int, int]:
    if at >= len(text):
        raise MoveSyntaxError("A hand position has not been entered.")
    run = _ascii_digit_run(text, at)
    if not run:
        raise MoveSyntaxError(f"Invalid hand position '{text[at]}'.")
    if run[0] == "0" and len(run) > 1:
        raise MoveSyntaxError(f"Invalid hand position '{_shown(run)}'.")
    value = _position(run, limit)
    if value is None:  # 0, or a number past the largest hand
        raise MoveSyntaxError(HAND_OUT_OF_RANGE)
    return value, at + len(run)


def _caravan(text: str, at: int) -> int:
    if at >= len(text):
        raise MoveSyntaxError("A caravan name has not been entered.")
    letter = text[at]
    index = CARAVAN_NAMES.find(letter.upper()) if letter.isascii() else -1
    if index < 0:
        raise MoveSyntaxError(f"Invalid caravan name '{letter}', must be between: A-F.")
    return index


def parse_move(text: str, rules: SeatRules, seat: int | str | None = None) -> Move | None:
    """Parse a move typed by ``seat`` (or written canonically as ``SEAT:MOVE``).

    ``seat`` is a seat name (``ABC``, ``DEF``) or index (0, 1); anything else raises
    :class:`~cardtable.engine.errors.UnknownSeat` rather than being read as some seat.

    Returns None for empty input. Raises :class:`MoveSyntaxError` with the exact
    message for anything else that is not a move; whether the move is legal is
    decided by the game, not here.
    """
    if seat is not None:
        seat = seat_number(seat, SEATS)
    text = text.strip()
    head, colon, tail = text.partition(":")
    if colon and head.upper() in SEATS:
        seat = SEATS.index(head.upper())
        text = tail.strip()
    if not text:
        return None
    if seat is None:
        raise MoveSyntaxError("The seat making the move is not known.")
    mover = rules.of(seat)
    letter = text[0].upper()
    if letter == "P":
        hand, at = _hand_position(text, 1, mover.largest_hand)
        caravan = _caravan(text, at)
        at += 1
        slot = 0
        if at < len(text):
            run = _ascii_digit_run(text, at)
            position = _position(run, rules.of(0 if caravan < 3 else 1).max_numerals)
            if position is None:
                raise MoveSyntaxError(f"Invalid caravan position '{_shown(run) or text[at]}'.")
            slot = position
        return Move(seat, PLAY, caravan, hand, slot)
    if letter == "D":
        hand, _ = _hand_position(text, 1, mover.largest_hand)
        return Move(seat, DISCARD, 0, hand)
    if letter == "C":
        caravan = _caravan(text, 1)
        if mover.clear_policy == "destroy_restart":
            hand, _ = _hand_position(text, 2, mover.largest_hand)
            return Move(seat, CLEAR, caravan, hand)
        return Move(seat, CLEAR, caravan)
    raise MoveSyntaxError(
        f"Invalid option '{text[0]}', must be one of: (P)lay, (D)iscard, (C)lear."
    )
