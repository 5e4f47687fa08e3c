"""Stopping a bot-only game that can no longer end.

The rules have no end for a game in which nobody changes a caravan any more. Two bots can get
there: under foxon, two ``normal`` bots whose lanes are tied at the top of the sold range can
neither add to a caravan nor have a reason to clear one, so both keep discarding, and their
discards keep becoming decks again. A person can always quit; for games between two bots the
interfaces use an :class:`IdleWatch` and stop the game (abandoned, cause ``stalemate``) once
no caravan has changed for :data:`STUCK_PLIES` moves in a row. Ordinary play, random bots
included, changes a caravan within a few dozen moves.
"""

from __future__ import annotations

from typing import Any

from cardtable.engine.match import MatchAbandoned, MatchListener
from cardtable.engine.protocol import GameState
from cardtable.games.caravan.board import Caravan
from cardtable.games.caravan.state import Game

STUCK_PLIES = 1000
STALEMATE = "stalemate"


class IdleWatch(MatchListener):
    """Counts the moves since a caravan last changed.

    Either call :meth:`update` after each move, or add the watch to a match's listeners: it
    then abandons the match (``MatchAbandoned`` with cause ``stalemate``) at the next turn once
    the limit is reached.
    """

    def __init__(self, limit: int = STUCK_PLIES) -> None:
        self.limit = limit
        self.idle = 0
        self._last: tuple[Caravan, ...] | None = None

    def update(self, game: Game) -> bool:
        """Take the move just made into account; True once the game is stuck."""
        caravans = tuple(game.caravans)
        if caravans == self._last:
            self.idle += 1
        else:
            self.idle = 0
            self._last = caravans
        return self.stuck

    @property
    def stuck(self) -> bool:
        return self.idle >= self.limit

    def message(self) -> str:
        """What an interface says when it stops the game."""
        return (f"No caravan has changed in {self.limit} moves: the bots are stuck and the "
                "game is stopped.")

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        assert isinstance(state, Game)
        self.update(state)

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        if self.stuck:
            raise MatchAbandoned(seat, STALEMATE)
