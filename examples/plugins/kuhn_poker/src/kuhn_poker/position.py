"""Positions: a game as one line, ``kuhn_poker/1 CARDS HISTORY``.

``CARDS`` is ``P1``'s card then ``P2``'s (``KJ``); ``HISTORY`` the actions so far as letters
(``pb``), ``-`` before the first. Kuhn poker draws nothing at random after the deal, so the
line holds the whole game: a restored state plays on exactly as the one written.
"""

from __future__ import annotations

from cardtable.engine.errors import PositionError

from kuhn_poker.rules import CARDS, is_history
from kuhn_poker.state import KuhnState

TAG = "kuhn_poker/1"
FIELDS = ("game", "cards", "history")


def to_position(state: KuhnState) -> str:
    cards = "".join(CARDS[card] for card in state.cards)
    return f"{TAG} {cards} {state.history or '-'}"


def from_position(text: str) -> KuhnState:
    """The state ``to_position`` wrote as ``text``, or :class:`PositionError` naming the field
    at fault."""
    if not isinstance(text, str):
        raise PositionError(f"a position is text, not {type(text).__name__}")
    fields = text.split()
    if len(fields) != len(FIELDS):
        raise PositionError(f"expected {len(FIELDS)} fields, got {len(fields)}")
    tag, cards_text, history = fields
    if tag != TAG:
        raise PositionError.in_field("game", f"expected {TAG}, got {PositionError.quoted(tag)}")
    if len(cards_text) != 2 or any(card not in CARDS for card in cards_text):
        raise PositionError.in_field("cards", "expected two of J, Q, K (P1's first), got "
                                     f"{PositionError.quoted(cards_text)}")
    if cards_text[0] == cards_text[1]:
        raise PositionError.in_field("cards", f"both seats hold {cards_text[0]}")
    if history == "-":
        history = ""
    elif not is_history(history):
        raise PositionError.in_field("history", "not a betting history of Kuhn poker (p and b "
                                     f"letters, as far as the game's end): "
                                     f"{PositionError.quoted(history)}")
    return KuhnState((CARDS.index(cards_text[0]), CARDS.index(cards_text[1])), history)
