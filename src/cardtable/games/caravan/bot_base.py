"""The base class of Caravan's bots: every bot (``bots``, ``expert``) builds on it."""

from __future__ import annotations

import random

from cardtable.engine.errors import IllegalAction
from cardtable.games.caravan.notation import Move
from cardtable.games.caravan.observation import Observation


class Bot:
    """Base of Caravan bots: ``choose_code`` picks a packed move, ``choose`` wraps it."""

    name = "bot"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose_code(self, observation: Observation) -> int:
        raise NotImplementedError

    def choose(self, observation: Observation) -> Move:
        return Move.from_code(self.seat, self.choose_code(observation))

    def rejected(self, error: IllegalAction) -> None:
        # A bot only proposes moves it checked; a refusal is a bug, not something to retry.
        raise RuntimeError(f"bot {self.name} proposed an illegal move: {error}")
