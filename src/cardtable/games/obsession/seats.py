"""How Obsession names its seats in text: ``P1``, ``P2``, ... for the 0-based seats."""

from __future__ import annotations


def seat_name(seat: int) -> str:
    return f"P{seat + 1}"
