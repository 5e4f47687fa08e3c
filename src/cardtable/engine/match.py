"""The match loop: ask the seat to move for an action, apply it, repeat until the game ends."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping
from types import TracebackType
from typing import Any, Protocol

from cardtable.engine.errors import IllegalAction
from cardtable.engine.protocol import GameState, Result


class MatchAbandoned(Exception):
    """Raised by a seat that will not go on (a player quit, input ended ...)."""

    def __init__(self, seat: str, cause: str) -> None:
        super().__init__(f"{seat} abandoned the game ({cause})")
        self.seat = seat
        self.cause = cause


class Forfeit(MatchAbandoned):
    """Raised by a seat that loses by forfeit (an external program that crashed, went silent,
    answered out of turn, ran out of time ...). The match loop ends the game with a result
    whose reason is ``forfeit``: every other seat wins, and the details name the seat and why.
    """

    def __init__(self, seat: str, why: str) -> None:
        super().__init__(seat, FORFEIT)
        self.why = why
        self.args = (f"{seat} forfeits: {why}",)


FORFEIT = "forfeit"
"""The result reason (and record cause) of a game a seat forfeited."""


def forfeit_result(state: GameState[Any, Any], forfeit: Forfeit) -> Result:
    """The result of ``state`` when ``forfeit.seat`` forfeits: the other seats win."""
    winners = tuple(seat for seat in state.seats if seat != forfeit.seat)
    return Result(winners, FORFEIT, {"seat": forfeit.seat, "why": forfeit.why})


def forfeit_message(result: Result) -> str | None:
    """``"DEF forfeits: WHY"`` for the result of a forfeited game, else None."""
    if result.reason != FORFEIT:
        return None
    return f"{result.details.get('seat')} forfeits: {result.details.get('why')}"


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


class BotPause(MatchListener):
    """Waits ``delay`` seconds before each of ``seats`` is asked, so that people can follow the
    bots. Put it after the listeners that show the turn. ``sleep`` is replaceable in tests."""

    def __init__(self, seats: Collection[str], delay: float,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.seats = frozenset(seats)
        self.delay = delay
        self.sleep = sleep

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        if self.delay > 0 and seat in self.seats:
            self.sleep(self.delay)


class AsyncSeat(Protocol):
    """A seat whose choice is awaited: a person at a web table, a remote program, a bot off-thread.

    The same contract as :class:`Seat`, with ``choose`` a coroutine.
    """

    async def choose(self, observation: Any) -> Any: ...

    def rejected(self, error: IllegalAction) -> None: ...


class AwaitedSeat:
    """An ordinary :class:`Seat` (a bot, say) seated in :func:`play_match_async`."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    async def choose(self, observation: Any) -> Any:
        return self.seat.choose(observation)

    def rejected(self, error: IllegalAction) -> None:
        self.seat.rejected(error)

    def match_over(self, observation: Any, result: Result | None) -> None:
        _tell_over(self.seat, observation, result)


# The turn logic both loops share: each loop only differs in how it waits for a choice.

def _begin_turn(state: GameState[Any, Any], listeners: tuple[MatchListener, ...]) -> str | None:
    seat = state.to_move
    if seat is not None:
        for listener in listeners:
            listener.on_turn(state, seat)
    return seat


def _try_action(
    state: GameState[Any, Any],
    seat: str,
    player: Seat | AsyncSeat,
    action: Any,
    listeners: tuple[MatchListener, ...],
) -> bool:
    """Apply ``action``; on a refusal tell the listeners and the seat and return False."""
    try:
        event = state.apply(action)
    except IllegalAction as error:
        for listener in listeners:
            listener.on_rejected(state, seat, error)
        player.rejected(error)
        return False
    for listener in listeners:
        listener.on_action(state, seat, action, event)
    return True


def _abandon(
    state: GameState[Any, Any], abandoned: MatchAbandoned, listeners: tuple[MatchListener, ...]
) -> None:
    for listener in listeners:
        listener.on_abandon(state, abandoned)


def _forfeit(state: GameState[Any, Any], forfeit: Forfeit,
             listeners: tuple[MatchListener, ...]) -> Result:
    result = forfeit_result(state, forfeit)
    for listener in listeners:
        listener.on_end(state, result)
    return result


def _tell_over(player: object, observation: Any, result: Result | None) -> None:
    over = getattr(player, "match_over", None)
    if over is not None:
        over(observation, result)


def _seats_over(state: GameState[Any, Any], seats: Mapping[str, object],
                result: Result | None) -> None:
    """Tell every seat with a ``match_over(observation, result)`` method that the match is over
    (``result`` None when it stopped unfinished): an external program hears the result and is
    ended, whatever way the match ended."""
    for name, player in seats.items():
        if getattr(player, "match_over", None) is not None:
            _tell_over(player, state.observation(name), result)


class _MatchEnd:
    """How every match ends, whichever way its seats answer: a :class:`Forfeit` is the
    forfeiting seat's loss, :class:`MatchAbandoned` is told to the listeners and raised again,
    and on every way out the seats hear that the match is over."""

    def __init__(self, state: GameState[Any, Any], seats: Mapping[str, object],
                 listeners: tuple[MatchListener, ...]) -> None:
        self.state = state
        self.seats = seats
        self.listeners = listeners
        self.forfeited: Result | None = None

    def __enter__(self) -> _MatchEnd:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> bool:
        try:
            if isinstance(error, Forfeit):
                self.forfeited = _forfeit(self.state, error, self.listeners)
            elif isinstance(error, MatchAbandoned):
                _abandon(self.state, error, self.listeners)
        finally:
            _seats_over(self.state, self.seats, self.state.result if self.forfeited is None
                        else self.forfeited)
        return self.forfeited is not None

    def result(self) -> Result:
        """The forfeit's result, or the finished game's (told to the listeners)."""
        if self.forfeited is not None:
            return self.forfeited
        result = self.state.result
        assert result is not None, "a game with no seat to move must have a result"
        for listener in self.listeners:
            listener.on_end(self.state, result)
        return result


def play_match(
    state: GameState[Any, Any],
    seats: Mapping[str, Seat],
    listeners: tuple[MatchListener, ...] = (),
) -> Result:
    """Run ``state`` to its end and return the result.

    Raises :class:`MatchAbandoned` (after telling the listeners) when a seat gives up; a seat
    that raises :class:`Forfeit` loses, and the result (reason ``forfeit``) is returned.
    """
    with _MatchEnd(state, seats, listeners) as end:
        while (seat := _begin_turn(state, listeners)) is not None:
            player = seats[seat]
            while not _try_action(state, seat, player,
                                  player.choose(state.observation(seat)), listeners):
                pass
    return end.result()


async def play_match_async(
    state: GameState[Any, Any],
    seats: Mapping[str, AsyncSeat],
    listeners: tuple[MatchListener, ...] = (),
) -> Result:
    """:func:`play_match` for seats whose choices are awaited (full screen, web tables).

    The turn logic is the same; only the wait for each choice differs. Cancelling the task
    stops the match between actions: the state is never left half-applied.
    """
    with _MatchEnd(state, seats, listeners) as end:
        while (seat := _begin_turn(state, listeners)) is not None:
            player = seats[seat]
            while not _try_action(state, seat, player,
                                  await player.choose(state.observation(seat)), listeners):
                pass
    return end.result()
