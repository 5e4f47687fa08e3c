"""A tiny game with a hidden card per seat, registered in process for the tests of the web's
generic table page (a game with no page of its own, known only through its description).

"Tiny duel": two seats, North and South, are each dealt one card of six, face down. For
``rounds`` rounds each seat in turn says ``raise`` (one more chip on the table) or ``hold``;
then the cards are shown and the higher card takes every chip. A seat sees its own card; the
other card is shown to no one before the end (the tests look for it in every frame).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.engine.description import GameDescription, Param
from cardtable.engine.errors import GameParamsError, IllegalAction, NotationError
from cardtable.engine.protocol import Result

NAME = "tiny_duel"
SEATS = ("North", "South")
DECK = ("2S", "5H", "7D", "9C", "JS", "KH")
MOVES = ("raise", "hold")
ROUNDS = Param("rounds", "rounds of betting", kind="int", default=2, low=1, high=3)

Json = dict[str, Any]


def card_json(card: int) -> Json:
    return {"card": DECK[card], "id": f"t{card}"}


@dataclass(frozen=True)
class Observation:
    seat: str
    card: int
    other: int | None
    to_move: str | None
    history: tuple[tuple[str, str], ...]

    def legal_actions(self) -> list[str]:
        return list(MOVES) if self.to_move == self.seat else []


@dataclass
class TinyState:
    rounds: int
    cards: tuple[int, int]
    history: list[tuple[str, str]] = field(default_factory=list)

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    @property
    def over(self) -> bool:
        return len(self.history) >= 2 * self.rounds

    @property
    def to_move(self) -> str | None:
        return None if self.over else SEATS[len(self.history) % 2]

    @property
    def chips(self) -> dict[str, int]:
        return {seat: 1 + sum(1 for who, move in self.history if who == seat and move == "raise")
                for seat in SEATS}

    @property
    def result(self) -> Result | None:
        if not self.over:
            return None
        winner = SEATS[0] if self.cards[0] > self.cards[1] else SEATS[1]
        return Result((winner,), "showdown", {"chips": self.chips,
                                              "cards": [DECK[card] for card in self.cards]})

    def legal_actions(self) -> list[str]:
        return [] if self.over else list(MOVES)

    def apply(self, action: str) -> None:
        if self.over or action not in MOVES:
            raise IllegalAction(f"'{action}' is not a legal move now.")
        seat = self.to_move
        assert seat is not None
        self.history.append((seat, action))

    def observation(self, seat: str) -> Observation:
        number = SEATS.index(seat)
        other = self.cards[1 - number] if self.over else None
        return Observation(seat, self.cards[number], other, self.to_move, tuple(self.history))

    def clone(self) -> TinyState:
        return TinyState(self.rounds, self.cards, list(self.history))

    def parse_action(self, text: str) -> str:
        word = text.strip().lower()
        if word not in MOVES:
            raise NotationError(f"A move is raise or hold (got '{text[:20]}').")
        return word

    def action_text(self, action: str) -> str:
        return action

    def seat_number(self, seat: str | int) -> int:
        return seat if isinstance(seat, int) else SEATS.index(seat)


@dataclass(frozen=True)
class TinyGame:
    rounds: int = 2
    name: str = NAME

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    def new_state(self, seed: Any = None) -> TinyState:
        dealt = random.Random(f"tiny:{seed}").sample(range(len(DECK)), 2)
        return TinyState(self.rounds, (dealt[0], dealt[1]))

    def state_from_position(self, text: str) -> TinyState:
        raise NotationError("Tiny duel has no positions.")

    def num_actions(self) -> int:
        return len(MOVES)


def _betting(state: TinyState) -> Json:
    return {"to_move": state.to_move, "round": min(len(state.history) // 2 + 1, state.rounds),
            "chips": state.chips,
            "history": [{"seat": seat, "move": move} for seat, move in state.history]}


class TinyDuel(GameDescription):
    name = NAME
    title = "Tiny duel"
    summary = "Two seats, one hidden card each: raise or hold, then the higher card wins."
    params = (ROUNDS,)
    seat_counts = (2, 2)

    def load(self, **params: Any) -> TinyGame:
        for name in params:
            if name != ROUNDS.name:
                raise GameParamsError(f"Unknown parameter '{name}' for {NAME} (allowed: rounds).")
        return TinyGame(ROUNDS.check(params.get("rounds", ROUNDS.default)))

    def bots(self) -> Sequence[Any]:
        return ()

    def seat_view(self, state: Any, seat: str) -> Json:
        seen = state.observation(seat)
        cards: Json = {seen.seat: card_json(seen.card)}
        other = SEATS[1 - SEATS.index(seat)]
        cards[other] = None if seen.other is None else card_json(seen.other)
        return {"seat": seat, "your_card": card_json(seen.card), "cards": cards,
                "over": state.over, **_betting(state)}

    def public_view(self, state: Any) -> Json:
        cards = {seat: card_json(card) if state.over else None
                 for seat, card in zip(SEATS, state.cards, strict=True)}
        return {"cards": cards, "over": state.over, **_betting(state)}

    def howto(self, preset: str | None = None) -> list[str]:
        return [self.title, self.summary, "Moves: raise or hold."]

    def record_rules(self, game: Any) -> Json:
        return {"rounds": game.rounds}

    def load_recorded(self, rules: Mapping[str, Any]) -> TinyGame:
        return self.load(**rules)


TINY_DUEL = TinyDuel()


def hidden_ids(state: TinyState, viewer: str | None) -> set[str]:
    """The ids of the cards ``viewer`` (a seat, or None for a spectator) may not see."""
    if state.over:
        return set()
    return {f"t{card}" for seat, card in zip(SEATS, state.cards, strict=True) if seat != viewer}
