"""Seeded random sources.

A game owns one :class:`GameRandom`; cloning a state shares the generator until
one side draws from it (copy on write), so clones stay cheap and independent.
"""

from __future__ import annotations

import base64
import binascii
import random
import secrets
import struct
import zlib
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

    __slots__ = ("_owned", "_rng", "_start")

    _rng: random.Random | None
    _start: tuple[int | str, int] | None

    def __init__(self, seed: int | str | None = None, *, _rng: random.Random | None = None) -> None:
        self._rng = _rng if _rng is not None else random.Random(seed)
        self._owned = True
        self._start = None

    @classmethod
    def after_draws(cls, seed: int | str, draws: int) -> GameRandom:
        """The generator seeded with ``seed`` after ``draws`` 32-bit draws (the state text
        ``+DRAWS``), made when it is first used: a game whose generator is not drawn from
        again costs no seeding."""
        lazy = cls.__new__(cls)
        lazy._rng = None
        lazy._owned = False
        lazy._start = (seed, draws)
        return lazy

    def _generator(self) -> random.Random:
        """The generator to read; one that is still to be made is made here, and owned."""
        rng = self._rng
        if rng is None:
            assert self._start is not None
            seed, draws = self._start
            rng = self._rng = random.Random(seed)
            if draws:
                rng.getrandbits(32 * draws)  # one 32-bit output per draw
            self._owned = True
        return rng

    def _writable(self) -> random.Random:
        if not self._owned:
            rng = self._generator()
            if not self._owned:
                copy = random.Random()
                copy.setstate(rng.getstate())
                self._rng = copy
                self._owned = True
        assert self._rng is not None
        return self._rng

    def clone(self) -> GameRandom:
        other = GameRandom.__new__(GameRandom)
        other._rng = self._rng
        other._owned = False
        other._start = self._start  # a generator still to be made is made by each, later
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

    # --- export and import of the generator state (positions)

    def state_text(self, seed: int | str) -> str:
        """The generator's exact state as short text, given the seed it was made from.

        ``+K``: the generator seeded with ``seed`` after K 32-bit draws (what a game's own
        generator always is); ``mt:DATA``: the whole Mersenne Twister state, for a generator
        that did not start from ``seed``.
        """
        return random_state_text(self._generator(), seed)

    @classmethod
    def from_state_text(cls, seed: int | str, text: str) -> GameRandom:
        """The generator that :meth:`state_text` described; raises ValueError if malformed."""
        return cls(_rng=random_from_text(seed, text))


MAX_DRAWS = 1 << 20
"""The most 32-bit draws a ``+K`` state text may count (a long game makes a few thousand)."""

_WORDS = 624


def random_state_text(rng: random.Random, seed: int | str) -> str:
    """See :meth:`GameRandom.state_text`."""
    version, internal, gauss = rng.getstate()
    if gauss is None and version == 3:
        index = internal[_WORDS]
        probe = random.Random(seed)
        if probe.getstate() == (version, internal, gauss):
            return "+0"
        # After K >= 1 draws the twister's index is ((K - 1) mod 624) + 1.
        draws = index
        probe.getrandbits(32 * draws)
        while draws <= MAX_DRAWS:
            if probe.getstate()[1] == internal:
                return f"+{draws}"
            probe.getrandbits(32 * _WORDS)
            draws += _WORDS
    data = struct.pack(f"<{_WORDS + 1}I", *internal)
    text = "mt:" + base64.urlsafe_b64encode(zlib.compress(data, 9)).decode("ascii").rstrip("=")
    if gauss is not None:
        text += ":" + float(gauss).hex()
    return text


def random_from_text(seed: int | str, text: str) -> random.Random:
    """The generator a :func:`random_state_text` text describes; ValueError if malformed."""
    if text.startswith("+"):
        digits = text[1:]
        if not digits.isdigit() or not digits.isascii() or (len(digits) > 1 and digits[0] == "0"):
            raise ValueError(f"not a draw count: {text!r}")
        draws = int(digits)
        if draws > MAX_DRAWS:
            raise ValueError(f"more than {MAX_DRAWS} draws")
        rng = random.Random(seed)
        if draws:
            rng.getrandbits(32 * draws)
        return rng
    head, _, rest = text.partition(":")
    if head != "mt" or not rest:
        raise ValueError("expected +DRAWS or mt:STATE")
    data_text, _, gauss_text = rest.partition(":")
    try:
        data = zlib.decompress(base64.urlsafe_b64decode(data_text + "=" * (-len(data_text) % 4)))
        words = struct.unpack(f"<{_WORDS + 1}I", data)
        gauss = float.fromhex(gauss_text) if gauss_text else None
    except (ValueError, zlib.error, struct.error, binascii.Error) as error:
        raise ValueError(f"unreadable generator state ({error})") from None
    if not 1 <= words[_WORDS] <= _WORDS:
        raise ValueError("generator index out of range")
    rng = random.Random()
    try:
        rng.setstate((3, words, gauss))
    except (ValueError, TypeError, OverflowError) as error:
        raise ValueError(f"unusable generator state ({error})") from None
    return rng
