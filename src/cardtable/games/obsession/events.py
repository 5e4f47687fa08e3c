"""What happened, as the state machine reports it. Seats are 0-based indices here.

Events are the truth; who may see which one is decided by the observation (``Board`` and
``Drew`` are private to their seat, the rest is public) and by the renderer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Swapped:
    seat: int
    visible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Started:
    seat: int


@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: int


@dataclass(frozen=True, slots=True)
class Board:
    """The board of ``seat`` at the start of one of its plays (private: it holds the hand)."""

    seat: int
    draw: int
    discard: int
    top: tuple[int, ...]
    """At most 5 cards, top first."""
    hand: tuple[int, ...]
    visible: tuple[int, ...]
    hidden: int


@dataclass(frozen=True, slots=True)
class BlindTurned:
    n: int
    seat: int
    index: int
    card: int
    left: int
    """Hidden cards left after this one was turned."""


@dataclass(frozen=True, slots=True)
class Played:
    n: int
    seat: int
    source: str
    """``hand``, ``visible`` or ``hidden`` (a blind card played at once)."""
    cards: tuple[int, ...]
    auto: bool
    effects: tuple[str, ...]
    """In this order when present: ``reverse``, ``kill``, ``extra``."""
    drew: int
    left: int
    """Cards left in the source pile after the play."""


@dataclass(frozen=True, slots=True)
class Drew:
    """Refill cards (private to ``seat``)."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PickedUp:
    n: int
    seat: int
    count: int
    threes_removed: int


@dataclass(frozen=True, slots=True)
class WentOut:
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class Stalemate:
    reason: str
    """``cap`` or ``repetition``."""
    plays: int
    limit: int


@dataclass(frozen=True, slots=True)
class Ended:
    placings: tuple[int, ...]
    stalemate: bool
    reason: str | None
    finished: int
    """How many seats went out; the placings after them were ranked by a stalemate or came last."""
    plays: int
    turns: int
    cards_left: tuple[int, ...]
    """Per seat: hand + visible + hidden at the end."""


Event = (Swapped | Started | TurnStarted | Board | BlindTurned | Played | Drew | PickedUp
         | WentOut | Stalemate | Ended)

PRIVATE_EVENTS = (Board, Drew)
