"""Seeded random sources.

A game owns one :class:`GameRandom`; cloning a state shares the generator until
one side draws from it (copy on write), so clones stay cheap and independent.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")


def fresh_seed() -> int:
    """A seed from OS entropy, for games started without one."""
    return secrets.randbits(63)


def derived_random(seed: int | str, *labels: object) -> random.Random:
    """An independent generator for one purpose, e.g. ``derived_random(7, "bot", "ABC")``.

    Seeded with the string ``"7:bot:ABC"`` so that it never depends on how many
    numbers other generators have drawn.
    """
    return random.Random(":".join(str(part) for part in (seed, *labels)))


class GameRandom:
    """The random source owned by a game state."""

    __slots__ = ("_owned", "_rng")

    def __init__(self, seed: int | str | None = None, *, _rng: random.Random | None = None) -> None:
        self._rng = _rng if _rng is not None else random.Random(seed)
        self._owned = True

    def _writable(self) -> random.Random:
        if not self._owned:
            copy = random.Random()
            copy.setstate(self._rng.getstate())
            self._rng = copy
            self._owned = True
        return self._rng

    def clone(self) -> GameRandom:
        other = GameRandom.__new__(GameRandom)
        other._rng = self._rng
        other._owned = False
        self._owned = False
        return other

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._writable().shuffle(items)

    def randrange(self, start: int, stop: int | None = None) -> int:
        rng = self._writable()
        return rng.randrange(start) if stop is None else rng.randrange(start, stop)

    def randint(self, low: int, high: int) -> int:
        return self._writable().randint(low, high)

    def choice(self, items: list[T]) -> T:
        return items[self._writable().randrange(len(items))]
