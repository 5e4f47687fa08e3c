"""The selection grammar and its messages, shared by every interface (line mode, full screen).

A selection is a line of text naming 1-based positions in a displayed pile. Each maximal run of
ASCII digits is one number; everything else separates numbers (so ``4,5``, ``4 5``, ``4-5`` and
``a4b5`` all mean 4 and 5, and a minus sign is never a sign).
"""

from __future__ import annotations

import re

from cardtable.games.obsession.actions import Action, Blind, Play, Swap
from cardtable.games.obsession.observation import Observation

INVALID_CARD_SELECTION = "Invalid card selection"
DUPLICATE_CARD_SELECTION = "Duplicate card selection"
INVALID_SELECTION = "Invalid selection"
GAME_OVER = "The game is over"

_NUMBER = re.compile(r"[0-9]+")
# Longer numbers are out of range for any pile; cutting them short also keeps int() from
# refusing (or spending time on) thousands of digits.
_MAX_DIGITS = 6


def must_select(count: int) -> str:
    return f"You must select {count} card" + ("" if count == 1 else "s")


def no_number(size: int, count: int | None = None) -> str:
    """The answer to a line with no number in it (``abc``): what to type instead. The
    reference asked again in silence, which left a newcomer guessing."""
    span = f"1 to {size}"
    if count == 1:
        return f"Type the number of a hidden card ({span}), or help"
    if count is not None:
        return f"Type the numbers of {count} different cards ({span}), or help"
    return f"Type the number of a card ({span}), or help"


def numbers(line: str) -> list[int]:
    """The numbers in ``line``; a number too long to be a position is returned as -1."""
    found: list[int] = []
    for match in _NUMBER.finditer(line):
        digits = match.group().lstrip("0") or "0"
        found.append(int(digits) if len(digits) <= _MAX_DIGITS else -1)
    return found


def check(picked: list[int], size: int, count: int | None = None) -> str | None:
    """The message for the first failing check (range, duplicates, fixed count), or None.

    ``count`` is the required number of cards where it is fixed (3 at the swap, 1 for a blind
    attempt). An empty ``picked`` is not checked here: the caller asks again without a message.
    """
    if any(not 1 <= number <= size for number in picked):
        return INVALID_CARD_SELECTION
    if len(set(picked)) != len(picked):
        return DUPLICATE_CARD_SELECTION
    if count is not None and len(picked) != count:
        return must_select(count)
    return None


def parse(line: str, size: int, count: int | None = None) -> tuple[list[int], str | None]:
    """``(positions, message)``: positions are 1-based; empty positions mean "ask again"."""
    picked = numbers(line)
    if not picked:
        return [], None
    return picked, check(picked, size, count)


def expected(observation: Observation) -> tuple[int, int | None]:
    """(size of the numbered pile, fixed count or None) for the decision at hand."""
    if observation.phase == "swap":
        return len(observation.pool), 3
    if observation.source == "hidden":
        return observation.hidden_counts[observation.seat], 1
    return len(observation.pool), None


def action_for(observation: Observation, positions: list[int]) -> Action:
    """The action meant by positions that passed :func:`check` (1-based, in display order)."""
    if observation.phase == "swap":
        return Swap(tuple(observation.pool[i - 1] for i in positions))
    if observation.source == "hidden":
        return Blind(positions[0])
    return Play(tuple(observation.pool[i - 1] for i in positions))
