"""The engine's match loop run by a full-screen app.

A screen plays its game through :func:`cardtable.engine.match.play_match_async`, like every
other shell. Its seats answer later: a person types a move, a bot thinks in a worker thread.
Each such seat's ``choose`` awaits an :class:`Answer`, which the screen gives once the move is
known (``screen_match.give(answer, move)``). The screen runs the match coroutine itself, on
its own thread, one step per answer: a move is applied, recorded and shown inside the handler
that received it, before the next key is read, and nothing else touches the game meanwhile.
(An asyncio task would apply it one turn of the event loop later, when the screen may have
moved on.)

A bot may also answer with a :class:`~cardtable.engine.match.Forfeit` (an external program that
broke the protocol or its clock): the screen hands it to the match (:meth:`ScreenMatch.fail`),
whose loop ends the game with the result ``forfeit``.
"""

from __future__ import annotations

from collections.abc import Coroutine, Generator, Mapping
from typing import Any, Generic, Protocol, TypeVar

from cardtable.engine.errors import IllegalAction
from cardtable.engine.match import Forfeit, MatchAbandoned, Seat
from cardtable.engine.protocol import Result

T = TypeVar("T")


class Answer(Generic[T]):
    """A choice that a seat will give later; awaiting it suspends the match until then."""

    __slots__ = ("_given", "_value")

    def __init__(self) -> None:
        self._given = False
        self._value: T | None = None

    def __await__(self) -> Generator[Answer[T], None, T]:
        if not self._given:
            yield self  # handed to ScreenMatch, which resumes the match once it is given
        assert self._given, "a match resumed before its answer was given"
        return self._value  # type: ignore[return-value]


class ScreenMatch:
    """Runs one ``play_match_async`` coroutine step by step on the screen's thread.

    ``waiting`` is the answer the match waits for (None before :meth:`start` and once the
    match is over). ``result`` is the result once the game has ended; ``abandoned`` the
    :class:`MatchAbandoned` once a seat gave up (the listeners have been told either way).
    Errors raised by seats or listeners (a bot's refused move, a record that cannot be written)
    come out of the call that made the step.
    """

    def __init__(self, match: Coroutine[Any, Any, Result]) -> None:
        self._match = match
        self.waiting: Answer[Any] | None = None
        self.result: Result | None = None
        self.abandoned: MatchAbandoned | None = None
        self._started = False
        self._done = False

    @property
    def running(self) -> bool:
        """Started and not over (ended, abandoned, or stopped by an error)."""
        return self._started and not self._done

    def start(self) -> None:
        """Run the match up to the first seat that has to be waited for."""
        if self._started:
            return
        self._started = True
        self._step(None)

    def give(self, answer: Answer[T], value: T) -> bool:
        """Give ``answer`` its ``value`` and run the match on to the next wait. False (and
        nothing happens) when the match is not waiting for this answer (any more)."""
        if answer is not self.waiting or not self.running:
            return False
        answer._value = value
        answer._given = True
        self._step(None)
        return True

    def fail(self, answer: Answer[Any], forfeit: Forfeit) -> bool:
        """The seat ``answer`` was awaited from forfeits instead: the match loop ends the game
        with the ``forfeit`` result. False when the match is not waiting for this answer."""
        if answer is not self.waiting or not self.running:
            return False
        self._step(forfeit)
        return True

    def abandon(self, seat: str, cause: str) -> bool:
        """Stop the match between two moves as abandoned by ``seat`` (``cause``: ``quit``,
        ``interrupt``...): the listeners hear of it as from any seat that gives up. False when
        the match is not running (not started, or already over)."""
        if not self.running:
            if not self._started:  # never started: nothing to tell anyone
                self._match.close()
                self._started = self._done = True
            return False
        self._step(MatchAbandoned(seat, cause))
        return True

    def _step(self, error: MatchAbandoned | None) -> None:
        self.waiting = None
        try:
            waited = self._match.send(None) if error is None else self._match.throw(error)
        except StopIteration as done:
            self._done = True
            self.result = done.value
            return
        except MatchAbandoned as abandoned:
            self._done = True
            self.abandoned = abandoned
            return
        except BaseException:
            self._done = True
            raise
        if not isinstance(waited, Answer):
            self._match.close()
            self._done = True
            raise TypeError(f"a screen's seat awaited {waited!r}, not an Answer")
        self.waiting = waited


class SeatsScreen(Protocol[T]):
    """What a full-screen app offers its seats: where a person's answer is awaited, the bots,
    a worker to think in, and a place to show a refusal."""

    human_answer: Answer[T] | None

    @property
    def bots(self) -> Mapping[int, Seat]: ...

    def think(self, seat: int, observation: Any, answer: Answer[T]) -> None: ...

    def refuse(self, error: IllegalAction) -> None: ...


class ScreenHuman(Generic[T]):
    """A person at the screen: the move arrives through the command line (or the mouse)."""

    def __init__(self, app: SeatsScreen[T]) -> None:
        self.app = app

    async def choose(self, observation: Any) -> T:
        answer: Answer[T] = Answer()
        self.app.human_answer = answer
        try:
            return await answer
        finally:
            self.app.human_answer = None

    def rejected(self, error: IllegalAction) -> None:
        self.app.refuse(error)


class ScreenBot(Generic[T]):
    """A bot seat: asked in a worker thread after the delay, so the screen keeps answering.

    The bot may be an external program (:class:`~cardtable.agents.external.ExternalSeat`): the
    end of the match is passed on to it (``match_over``), which ends its process.
    """

    def __init__(self, app: SeatsScreen[T], seat: int) -> None:
        self.app = app
        self.seat = seat

    async def choose(self, observation: Any) -> T:
        answer: Answer[T] = Answer()
        self.app.think(self.seat, observation, answer)
        return await answer

    def rejected(self, error: IllegalAction) -> None:
        self.app.bots[self.seat].rejected(error)

    def match_over(self, observation: Any, result: Result | None) -> None:
        over = getattr(self.app.bots[self.seat], "match_over", None)
        if over is not None:
            over(observation, result)

