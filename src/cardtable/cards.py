"""Standard playing cards as every game sees them: suits, ranks, jokers, text and glyph forms.

Games keep their own compact encodings on the hot path; this module holds the
names and conversions they share.
"""

from __future__ import annotations

SUIT_LETTERS = "SHDC"
"""Suit letters in the order Spades, Hearts, Diamonds, Clubs."""

SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank names from Ace to King; a joker has no rank name here (games call it JO or R)."""


def suit_glyph(letter: str, ascii_only: bool = False) -> str:
    """The glyph for a suit letter, or the letter itself when ``ascii_only``."""
    return letter if ascii_only else SUIT_GLYPHS.get(letter, letter)


def split_code(code: str) -> tuple[str, str] | None:
    """Split a card code such as ``10h`` into ``("10", "H")``; None when it is not rank+suit."""
    text = code.strip().upper()
    if len(text) < 2:
        return None
    rank, suit = text[:-1], text[-1]
    if rank not in RANK_NAMES or suit not in SUIT_LETTERS:
        return None
    return rank, suit
