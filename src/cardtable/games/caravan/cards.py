"""Caravan cards as small ints, with their text codes and identity strings.

A card is ``rank | suit << 4 | copy << 7 | owner << 9 | sample << 10``:

- rank 1..10 for the numerals (Ace = 1), 11 J, 12 Q, 13 K, 14 Joker;
- suit 0..3 for S H D C, 4 for the Joker (no suit);
- copy 1 or 2 tells the two Jokers of one sample deck apart (1 for other cards);
- owner 0 (ABC) or 1 (DEF), the seat whose deck the card came from;
- sample, the 1-based sample deck the card came from.

Cards of equal rank and suit play identically; the other fields give each physical
card its identity for records, replays and discard piles.
"""

from __future__ import annotations

from cardtable.cards import RANK_NAMES, SUIT_LETTERS

ACE, JACK, QUEEN, KING, JOKER = 1, 11, 12, 13, 14
NO_SUIT = 4
SUITS = SUIT_LETTERS
SEATS = ("ABC", "DEF")

RANK_TEXT = ("", *RANK_NAMES, "JO")
"""Text of each rank (index 1..14): Ace to King, then the Joker."""
RANK_OF_TEXT = {text: rank for rank, text in enumerate(RANK_TEXT) if text and text != "JO"}
FACE_NAMES = {JACK: "JACK", QUEEN: "QUEEN", KING: "KING", JOKER: "JOKER"}

RANK_MASK = 15
SUIT_SHIFT, SUIT_MASK = 4, 7
"""``suit_of(card)`` is ``(card >> SUIT_SHIFT) & SUIT_MASK`` (for hot loops that inline it)."""
NUMERAL_MAX = 10
"""The highest numeral rank (Ten); every higher rank is a face card or the Joker."""
KIND_MASK = 0x7F  # rank and suit: what decides how a card plays


def make(rank: int, suit: int, owner: int = 0, sample: int = 1, copy: int = 1) -> int:
    return rank | suit << 4 | copy << 7 | owner << 9 | sample << 10


def rank_of(card: int) -> int:
    return card & RANK_MASK


def suit_of(card: int) -> int:
    return (card >> SUIT_SHIFT) & SUIT_MASK


def copy_of(card: int) -> int:
    return (card >> 7) & 3


def owner_of(card: int) -> int:
    return (card >> 9) & 1


def sample_of(card: int) -> int:
    return card >> 10


def is_numeral(card: int) -> bool:
    return (card & RANK_MASK) <= NUMERAL_MAX


def value_of(card: int) -> int:
    """The pip value of a numeral (Ace = 1)."""
    return card & RANK_MASK


def code(card: int) -> str:
    """The card's text code: ``7S``, ``10D``, ``QC``, ``JO``."""
    rank = card & RANK_MASK
    if rank == JOKER:
        return "JO"
    return RANK_TEXT[rank] + SUITS[(card >> 4) & 7]


def identity(card: int) -> str:
    """The identity string: ``7S@2`` (sample 2), ``JO@1.2`` (sample 1, second Joker)."""
    if card & RANK_MASK == JOKER:
        return f"JO@{card >> 10}.{(card >> 7) & 3}"
    return f"{code(card)}@{card >> 10}"


def parse_code(text: str) -> tuple[int, int] | None:
    """``(rank, suit)`` for a card code such as ``10h`` or ``jo``; None if it is not one."""
    token = text.strip().upper()
    if token == "JO":
        return JOKER, NO_SUIT
    if len(token) < 2 or token[-1] not in SUITS:
        return None
    rank = RANK_OF_TEXT.get(token[:-1])
    if rank is None:
        return None
    return rank, SUITS.index(token[-1])


def parse_identity(text: str, owner: int) -> int | None:
    """The card named by an identity string, owned by ``owner``; None if malformed."""
    head, sep, tail = text.partition("@")
    parsed = parse_code(head) if sep else None
    if parsed is None or head != head.strip().upper():
        return None
    rank, suit = parsed
    sample_text, dot, copy_text = tail.partition(".")
    if rank == JOKER:
        if not dot or copy_text not in ("1", "2"):
            return None
        copy = int(copy_text)
    else:
        if dot:
            return None
        copy = 1
    if not sample_text.isdigit() or sample_text.startswith("0"):
        return None
    return make(rank, suit, owner, int(sample_text), copy)


def sample_deck(owner: int, sample: int, jokers: int) -> list[int]:
    """One sample deck, unshuffled: suits S H D C, each Ace to King, then the Jokers."""
    cards = [make(rank, suit, owner, sample) for suit in range(4) for rank in range(1, 14)]
    cards += [make(JOKER, NO_SUIT, owner, sample, copy) for copy in range(1, jokers + 1)]
    return cards
