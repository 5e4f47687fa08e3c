"""Obsession's cards as small ints whose natural order is the display order.

A card id is ``(face_index * 4 + suit) * 8 + deck`` for the 52 suited cards (face index 0..12 for
2..A, suit 0..3 for C D H S, deck 0..4) and ``416 + deck * 2 + copy`` for the two jokers of a deck.
Sorting ids therefore sorts by rank, then suit, then deck, with jokers last, which is exactly the
order in which hands and rows are shown and numbered. Faces are their ranks: 2..14 and 15 for the
joker, so face comparisons are int comparisons and tables are indexed by face.
"""

from __future__ import annotations

from cardtable.cards import RANK_NAMES, SUIT_LETTERS

JOKER = 15
"""The face (and rank) of the joker."""

SUITS = SUIT_LETTERS[::-1]
"""C D H S: suits from low to high, the order of ids and of display."""
FACES = tuple(range(2, 16))
FACE_NAMES = {face: RANK_NAMES[(face - 1) % 13] for face in range(2, 15)} | {JOKER: "R"}
"""2..10, J, Q, K, A (the Ace is high, face 14), and R for the joker."""
FACE_OF_NAME = {name: face for face, name in FACE_NAMES.items()}

SPECIAL_FACES = frozenset((2, 3, 7, 8, 10, JOKER))
PLAIN_FACES = frozenset(FACES) - SPECIAL_FACES

MAX_DECKS = 5
_JOKER_BASE = 13 * 4 * 8
NO_CARD = _JOKER_BASE + 2 * MAX_DECKS
"""Not a card: its face is 0. Used as a separator when faces of several piles are joined."""
ID_LIMIT = NO_CARD + 1
"""Every id (cards and ``NO_CARD``) is below this bound; tables indexed by id have this length."""


def suited(face: int, suit: int, deck: int) -> int:
    return ((face - 2) * 4 + suit) * 8 + deck


def joker(deck: int, copy: int) -> int:
    return _JOKER_BASE + deck * 2 + copy


def _build() -> tuple[list[int], list[str]]:
    face = [0] * ID_LIMIT
    text = [""] * ID_LIMIT
    for deck in range(MAX_DECKS):
        for f in range(2, 15):
            for suit, letter in enumerate(SUITS):
                card = suited(f, suit, deck)
                face[card] = f
                text[card] = FACE_NAMES[f] + letter
        for copy in (0, 1):
            card = joker(deck, copy)
            face[card] = JOKER
            text[card] = "R"
    return face, text


FACE, TEXT = _build()
"""Lookup tables by card id: face (rank) and card text (``9H``, ``10D``, ``R``)."""


def canonical_deck(decks: int) -> list[int]:
    """All cards in canonical order: deck by deck, face-major 2..A, suits C D H S, then 2 jokers."""
    return list(_CANONICAL[decks])


def _canonical(decks: int) -> tuple[int, ...]:
    cards: list[int] = []
    for deck in range(decks):
        for f in range(2, 15):
            cards.extend(suited(f, suit, deck) for suit in range(4))
        cards.extend((joker(deck, 0), joker(deck, 1)))
    return tuple(cards)


# Built once: every new game starts from one of these.
_CANONICAL = [_canonical(decks) for decks in range(MAX_DECKS + 1)]
