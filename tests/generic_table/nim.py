"""A tiny game known only through its description, for the tests of the generic terminal
table: a pile of stones, seats A and B take one or two in turn, and whoever takes the last
stone wins. It gives no view of its own (its observation's fields are shown), and registers
in the test's process only (``registered``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cardtable.engine import game_registry
from cardtable.engine.description import Bot, BotSpec, GameDescription, Param, no_options
from cardtable.engine.errors import IllegalAction, NotationError, UnknownSeat
from cardtable.engine.protocol import Result

SEATS = ("A", "B")


@dataclass(frozen=True)
class Observation:
    seat: str
    pile: int
    to_move: str | None


class NimState:
    def __init__(self, pile: int) -> None:
        self.pile = pile
        self.turn = 0
        self.result: Result | None = None

    @property
    def seats(self) -> Sequence[str]:
        return SEATS

    @property
    def to_move(self) -> str | None:
        return None if self.result is not None else SEATS[self.turn]

    def legal_actions(self) -> list[int]:
        return [take for take in (1, 2) if take <= self.pile] if self.result is None else []

    def apply(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"You cannot take {action} (the pile has {self.pile}).")
        self.pile -= action
        if self.pile == 0:
            self.result = Result((SEATS[self.turn],), "last stone", {"left": 0})
        self.turn = 1 - self.turn

    def observation(self, seat: str) -> Observation:
        return Observation(seat, self.pile, self.to_move)

    def clone(self) -> NimState:
        other = NimState(self.pile)
        other.turn, other.result = self.turn, self.result
        return other

    def parse_action(self, text: str) -> int:
        words = text.strip().lower().split()
        if len(words) == 2 and words[0] == "take" and words[1] in ("1", "2"):
            return int(words[1])
        raise NotationError(f"Unknown move '{text.strip()}' (allowed: take 1, take 2).")

    def action_text(self, action: int) -> str:
        return f"take {action}"

    def seat_number(self, seat: str | int) -> int:
        if seat in SEATS:
            return SEATS.index(str(seat))
        raise UnknownSeat(f"Unknown seat '{seat}'.")


@dataclass(frozen=True)
class NimGame:
    pile: int
    name = "test_nim"

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    def new_state(self, seed: Any = None) -> NimState:
        return NimState(self.pile)

    def state_from_position(self, text: str) -> NimState:
        raise NotImplementedError

    def num_actions(self) -> int:
        return 2


class TakeOne:
    """Always takes one stone."""

    def choose(self, observation: Observation) -> int:
        return 1

    def rejected(self, error: IllegalAction) -> None:
        raise error


def _take_one(game: Any, spec: BotSpec, seat: str, seed: int | str) -> TakeOne:
    no_options(spec)
    return TakeOne()


STONES = Param("stones", "stones on the pile", kind="int", default=5, low=1, high=20)


class NimDescription(GameDescription):
    name = "test_nim"
    title = "Test Nim"
    summary = "Take one or two stones; whoever takes the last one wins."
    params = (STONES,)
    seat_counts = (2, 2)

    def load(self, **params: Any) -> NimGame:
        from cardtable.engine.description import checked_params

        return NimGame(checked_params(self.params, params, self.name)["stones"])

    def bots(self) -> Sequence[Bot]:
        return (Bot("take-one", _take_one, "always takes one stone", instant=True),)

    def howto(self, preset: str | None = None) -> list[str]:
        return [self.title, self.summary, "Type take 1 or take 2."]


NIM = NimDescription()


@contextmanager
def registered() -> Iterator[NimDescription]:
    """The test game known to cardtable while the block runs."""
    game_registry.register(NIM)
    try:
        yield NIM
    finally:
        game_registry.unregister(NIM.name)
