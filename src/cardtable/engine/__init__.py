"""The game-agnostic core: game protocol, seeded randomness, match loop, records and replay.

Nothing in this package knows any particular game.

Only the exception types are imported here; everything else is loaded on first use (PEP 562),
so that ``from cardtable.engine.errors import IllegalAction`` costs a fast-start program (the
Austerity hub and players) one small module instead of the match loop, typing and dataclasses.
"""

from cardtable.engine.errors import GameError, IllegalAction, RecordError

# Not ``typing.TYPE_CHECKING``: importing typing is what this module avoids.
TYPE_CHECKING = False
if TYPE_CHECKING:
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

_LAZY = {
    "AsyncSeat": "match", "AwaitedSeat": "match", "MatchAbandoned": "match",
    "MatchListener": "match", "Seat": "match", "play_match": "match",
    "play_match_async": "match", "GameState": "protocol", "Result": "protocol",
    "GameRandom": "randomness", "derived_random": "randomness",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)


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
