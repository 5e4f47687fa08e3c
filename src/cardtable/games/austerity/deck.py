"""Deck files: one card ``D:V:P,B,Y,R`` per line, top card first.

Read as bytes. One final ``\\n`` is dropped; every remaining piece between ``\\n`` must be a card
(so blank lines, ``\\r``, spaces and a second trailing newline are all refused). Leading zeros in
numbers are tolerated. A file without any card is invalid.
"""

from cardtable.games.austerity.codec import parse_card
from cardtable.games.austerity.rules import Card


class DeckError(Exception):
    """A deck that cannot be used; ``status`` is the hub's exit status for it (3 or 4)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


CANNOT_ACCESS = "Cannot access deck file"
INVALID_CONTENTS = "Invalid deck file contents"
MAX_DECK_FILE_BYTES = 1 << 20
"""A deck is at most a few thousand short lines; this only stops files that never end."""


def parse_deck(data: bytes) -> list[Card] | None:
    """The cards of a deck file's contents, or None when the contents are invalid."""
    if data.endswith(b"\n"):
        data = data[:-1]
    if not data:
        return None
    cards = []
    for piece in data.split(b"\n"):
        card = parse_card(piece, canonical=False)
        if card is None:
            return None
        cards.append(card)
    return cards


def load_deck(path: str) -> list[Card]:
    """Read and validate a deck file; raises :class:`DeckError` with the hub's message."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_DECK_FILE_BYTES + 1)
    except (OSError, ValueError):
        # ValueError: a path with an embedded NUL cannot name any file.
        raise DeckError(CANNOT_ACCESS, 3) from None
    if len(data) > MAX_DECK_FILE_BYTES:
        # The hub's messages are fixed: a file too long to be a deck has invalid contents.
        raise DeckError(INVALID_CONTENTS, 4)
    cards = parse_deck(data)
    if cards is None:
        raise DeckError(INVALID_CONTENTS, 4)
    return cards
