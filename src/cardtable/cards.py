"""Standard playing cards as every game and shell names them: suit letters, rank names, glyphs.

Games keep their own compact int encodings (and their own suit order and joker name) for the hot
path, building their text tables from these names once at import; the full-screen UI draws suits
with these glyphs.
"""

from __future__ import annotations

SUIT_LETTERS = "SHDC"
"""Suit letters in the order Spades, Hearts, Diamonds, Clubs."""

SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank names from Ace to King; a joker has no rank name here (games call it JO or R)."""

