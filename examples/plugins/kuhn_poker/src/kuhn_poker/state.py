"""A game of Kuhn poker in play: cardtable's state protocol over the rules of :mod:`rules`.

The state is the deal (each player's card) and the betting history; both are immutable, so
cloning copies two references. ``apply`` refuses with :class:`IllegalAction` and changes
nothing; every other method only reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.engine.errors import IllegalAction, UnknownSeat
from cardtable.engine.protocol import Result
from cardtable.engine.randomness import GameRandom

from kuhn_poker import notation, rules
from kuhn_poker.rules import CARDS, SEATS, Action

NUM_ACTIONS = len(Action)


@dataclass(frozen=True, slots=True)
class Event:
    """What ``apply`` did: ``seat`` took ``action``; ``over`` when that ended the game."""

    seat: str
    action: Action
    over: bool


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat sees: its own card and the public betting history. The other card is
    there only after a showdown (``other_card``); a folded card is never shown."""

    seat: str
    card: str
    history: str
    to_move: str | None
    other_card: str | None = None

    def legal_actions(self) -> list[Action]:
        """The seat's legal actions: both while it is to act, none otherwise."""
        return list(Action) if self.to_move == self.seat else []

    @property
    def number(self) -> int:
        return SEATS.index(self.seat)

    def chips(self) -> tuple[int, int] | None:
        """What each seat won or lost once the game is over (the seat can tell from what it
        sees: a fold needs no card, a showdown shows both), else None."""
        if not rules.is_over(self.history):
            return None
        cards = [0, 0]
        cards[self.number] = CARDS.index(self.card)
        if self.other_card is not None:
            cards[1 - self.number] = CARDS.index(self.other_card)
        return rules.chips(self.history, (cards[0], cards[1]))


def seat_number(seat: str | int) -> int:
    """``P1``/``P2`` or 0/1 as a 0-based index, or :class:`UnknownSeat`."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(SEATS):
        return seat
    if isinstance(seat, str) and seat in SEATS:
        return SEATS.index(seat)
    raise UnknownSeat(f"Unknown seat '{seat}' (allowed: {', '.join(SEATS)} or an index "
                      f"0..{len(SEATS) - 1}).")


def deal(seed: int | str) -> tuple[int, int]:
    """The cards of ``P1`` and ``P2`` for ``seed``: two of the three, uniformly (the game's
    generator shuffles the three cards and deals the top two)."""
    deck = list(range(len(CARDS)))
    GameRandom(seed).shuffle(deck)
    return deck[0], deck[1]


class KuhnState:
    """One game: the cards dealt (``cards[0]`` is ``P1``'s) and the actions so far."""

    __slots__ = ("cards", "history")

    def __init__(self, cards: tuple[int, int], history: str = "") -> None:
        self.cards = cards
        self.history = history

    # --- the protocol ---------------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    @property
    def to_move(self) -> str | None:
        number = rules.mover(self.history)
        return None if number is None else SEATS[number]

    @property
    def result(self) -> Result | None:
        history = self.history
        if not rules.is_over(history):
            return None
        won = rules.winner(history, self.cards)
        details: dict[str, object] = {"chips": list(rules.chips(history, self.cards)),
                                      "history": history}
        if rules.folder(history) is None:
            details["cards"] = [CARDS[card] for card in self.cards]
            return Result((SEATS[won],), "showdown", details)
        return Result((SEATS[won],), "fold", details)

    def legal_actions(self) -> list[Action]:
        return [] if rules.is_over(self.history) else list(Action)

    def apply(self, action: Action) -> Event:
        number = rules.mover(self.history)
        if number is None:
            raise IllegalAction("The game is over: no more actions.")
        if type(action) is not Action and not (type(action) is int and 0 <= action < NUM_ACTIONS):
            raise IllegalAction(f"Not an action of Kuhn poker: {action!r} (pass or bet).")
        action = Action(action)
        self.history += action.letter
        return Event(SEATS[number], action, rules.is_over(self.history))

    def observation(self, seat: str | int) -> Observation:
        number = seat_number(seat)
        history = self.history
        shown = rules.is_over(history) and rules.folder(history) is None
        return Observation(SEATS[number], CARDS[self.cards[number]], history, self.to_move,
                           CARDS[self.cards[1 - number]] if shown else None)

    def clone(self) -> KuhnState:
        return KuhnState(self.cards, self.history)

    # --- notation and seats ----------------------------------------------------------------

    def parse_action(self, text: str) -> Action:
        return notation.parse_action(text, self.history)

    def action_text(self, action: Action) -> str:
        return notation.action_text(action)

    def seat_number(self, seat: str | int) -> int:
        return seat_number(seat)

    # --- action indices (OpenSpiel's action ids) ---------------------------------------------

    def action_index(self, action: Action) -> int:
        if type(action) is not Action:
            raise ValueError(f"Not an action of Kuhn poker: {action!r}.")
        return int(action)

    def index_action(self, index: int) -> Action:
        if type(index) is not int or not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"Action index {index!r} is out of range 0..{NUM_ACTIONS - 1}.")
        return Action(index)

    def legal_mask(self) -> bytes:
        """One byte per action index: 1 where the action is legal."""
        return bytes(NUM_ACTIONS) if rules.is_over(self.history) else b"\x01" * NUM_ACTIONS

    # --- positions and sampled worlds --------------------------------------------------------

    def to_position(self) -> str:
        from kuhn_poker.position import to_position

        return to_position(self)

    def sample_world(self, seat: str | int, seed: int | str) -> KuhnState:
        """A state that ``seat`` cannot tell from this one: its card and the history kept, the
        other card dealt from ``seed`` among the two it may be (kept after a showdown)."""
        from kuhn_poker.worlds import world_of

        return world_of(self.observation(seat), seed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KuhnState):
            return NotImplemented
        return self.cards == other.cards and self.history == other.history

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"KuhnState({self.to_position()!r})"
