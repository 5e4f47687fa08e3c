"""The game-agnostic core: game protocol, seeded randomness, match loop, records and replay.

Nothing in this package knows any particular game.
"""

from cardtable.engine.errors import GameError, IllegalAction, RecordError
from cardtable.engine.match import (
    AsyncSeat,
    AwaitedSeat,
    MatchAbandoned,
    MatchListener,
    Seat,
    play_match,
    play_match_async,
)
from cardtable.engine.protocol import GameState, Result
from cardtable.engine.randomness import GameRandom, derived_random

__all__ = [
    "AsyncSeat",
    "AwaitedSeat",
    "GameError",
    "GameRandom",
    "GameState",
    "IllegalAction",
    "MatchAbandoned",
    "MatchListener",
    "RecordError",
    "Result",
    "Seat",
    "derived_random",
    "play_match",
    "play_match_async",
]
