"""A tiny game known only through its description, for the tests of records of any game: the
seed lays 5 to 9 pebbles, seats N and S take one or two in turn (``take 1``, ``take 2``), and
whoever takes the last pebble wins. It has a rule (``most``, the most a seat may take: 2 or 3)
so that its records carry rules, and registers in the test's process only (``registered``)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cardtable.engine import game_registry
from cardtable.engine.description import GameDescription, Param, checked_params
from cardtable.engine.errors import IllegalAction, NotationError, UnknownSeat
from cardtable.engine.protocol import Result

SEATS = ("N", "S")


class PebblesState:
    def __init__(self, pile: int, most: int) -> None:
        self.pile = pile
        self.most = most
        self.turn = 0
        self.result: Result | None = None

    @property
    def seats(self) -> Sequence[str]:
        return SEATS

    @property
    def to_move(self) -> str | None:
        return None if self.result is not None else SEATS[self.turn]

    def legal_actions(self) -> list[int]:
        return [] if self.result is not None else list(range(1, min(self.most, self.pile) + 1))

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"You cannot take {action} (the pile has {self.pile}).")
        self.pile -= action
        if self.pile == 0:
            self.result = Result((SEATS[self.turn],), "last pebble", {"taker": SEATS[self.turn]})
        self.turn = 1 - self.turn

    def observation(self, seat: str) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.to_move}

    def clone(self) -> PebblesState:
        other = PebblesState(self.pile, self.most)
        other.turn, other.result = self.turn, self.result
        return other

    def parse_action(self, text: str) -> int:
        words = text.split()
        if len(words) == 2 and words[0] == "take" and words[1].isdigit() and len(words[1]) == 1:
            return int(words[1])
        raise NotationError(f"'{text}' is not a move (take N)")

    def action_text(self, action: int) -> str:
        return f"take {action}"

    def seat_number(self, seat: str | int) -> int:
        if seat in SEATS:
            return SEATS.index(str(seat))
        raise UnknownSeat(f"Unknown seat '{seat}'.")


@dataclass(frozen=True)
class PebblesGame:
    most: int
    name = "test_pebbles"

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    def new_state(self, seed: Any = None) -> PebblesState:
        return PebblesState(random.Random(seed).randint(5, 9), self.most)

    def state_from_position(self, text: str) -> PebblesState:
        raise NotImplementedError

    def num_actions(self) -> int:
        return self.most


MOST = Param("most", "the most pebbles a seat takes", kind="int", default=2, low=2, high=3)


class PebblesDescription(GameDescription):
    name = "test_pebbles"
    title = "Pebbles"
    summary = "Take one or two pebbles; whoever takes the last one wins."
    params = (MOST,)

    def load(self, **params: Any) -> PebblesGame:
        return PebblesGame(checked_params(self.params, params, self.name)["most"])

    def public_view(self, state: Any) -> dict[str, Any]:
        return {"pile": state.pile, "to_move": state.to_move}

    def record_rules(self, game: Any) -> dict[str, Any]:
        return {"most": game.most}

    def load_recorded(self, rules: Mapping[str, Any]) -> Any:
        return self.load(**rules)


PEBBLES = PebblesDescription()


@contextmanager
def registered() -> Iterator[PebblesDescription]:
    """The test game known to cardtable while the block runs."""
    game_registry.register(PEBBLES)
    try:
        yield PEBBLES
    finally:
        game_registry.unregister(PEBBLES.name)
