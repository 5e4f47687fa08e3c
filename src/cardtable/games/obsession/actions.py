"""The decisions a seat can take. Cards are card ids (see ``cards``); positions are 1-based."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Swap:
    """At the deal: the 3 cards of the pooled hand and visible row that become the visible row."""

    visible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """One or more cards of a single face from the seat's active pile (hand, else visible row)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Blind:
    """Turn over the hidden card at 1-based ``index`` (hand and visible row empty)."""

    index: int


Action = Swap | Play | Blind
