"""Shared checks for sampled-world tests: a chi-square bound without scipy."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable

Z_999 = 3.0902  # the standard normal's 99.9 % quantile
WORLDS = 24
"""Worlds sampled to see them differ where the seat cannot see. Three unseen cards can be
dealt in as few as three ways (two in one place, one in another): 24 worlds all alike by
chance is 3 * (1/3)**24 at most, where four were once in a few hundred cases."""


def chi_square_bound(categories: int) -> float:
    """The 99.9 % point of chi-square with ``categories - 1`` degrees of freedom
    (Wilson–Hilferty; accurate to well under 1 % from 5 degrees of freedom up)."""
    k = categories - 1
    return float(k * (1 - 2 / (9 * k) + Z_999 * (2 / (9 * k)) ** 0.5) ** 3)


def chi_square(observed: Iterable[Hashable], categories: list[Hashable]) -> float:
    """Pearson's statistic of ``observed`` against the uniform law on ``categories``."""
    counts = Counter(observed)
    assert set(counts) <= set(categories), set(counts) - set(categories)
    total = sum(counts.values())
    expected = total / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)
