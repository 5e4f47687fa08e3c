"""The match loop: ask the seat to move for an action, apply it, repeat until the game ends."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from cardtable.engine.errors import IllegalAction
from cardtable.engine.protocol import GameState, Result


class MatchAbandoned(Exception):
    """Raised by a seat that will not go on (a player quit, input ended ...)."""

    def __init__(self, seat: str, cause: str) -> None:
        super().__init__(f"{seat} abandoned the game ({cause})")
        self.seat = seat
        self.cause = cause


class Seat(Protocol):
    """Anything that can take a seat: a bot, a human at some interface, a remote program.

    ``choose`` receives only the seat's observation. When the game refuses the
    answer, ``rejected`` is called with the error and ``choose`` is asked again;
    a seat that cannot learn from that (a bot) should raise.
    """

    def choose(self, observation: Any) -> Any: ...

    def rejected(self, error: IllegalAction) -> None: ...


class MatchListener:
    """Receives what happens during a match; every method does nothing by default."""

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        """``seat`` is about to be asked for an action."""

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        """``action`` by ``seat`` was applied; ``state`` is the state after it."""

    def on_rejected(self, state: GameState[Any, Any], seat: str, error: IllegalAction) -> None:
        """An action by ``seat`` was refused; the state is unchanged."""

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        """The game is over."""

    def on_abandon(self, state: GameState[Any, Any], abandoned: MatchAbandoned) -> None:
        """A seat abandoned the game before it was over."""


def play_match(
    state: GameState[Any, Any],
    seats: Mapping[str, Seat],
    listeners: tuple[MatchListener, ...] = (),
) -> Result:
    """Run ``state`` to its end and return the result.

    Raises :class:`MatchAbandoned` (after telling the listeners) when a seat gives up.
    """
    try:
        while (seat := state.to_move) is not None:
            for listener in listeners:
                listener.on_turn(state, seat)
            player = seats[seat]
            while True:
                action = player.choose(state.observation(seat))
                try:
                    event = state.apply(action)
                except IllegalAction as error:
                    for listener in listeners:
                        listener.on_rejected(state, seat, error)
                    player.rejected(error)
                    continue
                break
            for listener in listeners:
                listener.on_action(state, seat, action, event)
    except MatchAbandoned as abandoned:
        for listener in listeners:
            listener.on_abandon(state, abandoned)
        raise
    result = state.result
    assert result is not None, "a game with no seat to move must have a result"
    for listener in listeners:
        listener.on_end(state, result)
    return result
