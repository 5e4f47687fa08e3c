"""Live tables: each one a game state driven by the engine's async match loop.

The server owns every state and random source. People's seats wait for a move from their
WebSocket; bots think on a worker thread. Every move is stored before anyone is told of it
(and before the state changes): a seat's choice is checked on a copy of the state, stored, and
only then applied. When the database does not answer, a person's move is refused (they are
asked again), while a bot's move, the turn timer's and a game's result wait for the database
and the table goes on by itself once it is back. The hub (``hub.Hub``) rebuilds a table after a
restart from its rules, seed and stored moves (replayed with full validation), and its match
loop goes on from there.

A seat may be a program the operator offers (``bot:exec:NAME``, docs/web.md): it is started
when the table's people are here (``program_seats``) and answers on a worker thread like any
bot, from its seat's observation only.
When it forfeits (or cannot start), the game ends with the result ``forfeit``; its process is
ended with the match, the table's task or the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from cardtable.engine.errors import GameError, IllegalAction
from cardtable.engine.match import (
    FORFEIT,
    Forfeit,
    MatchAbandoned,
    MatchListener,
    forfeit_result,
    play_match_async,
)
from cardtable.engine.protocol import GameState, Result
from cardtable.web import games, serialize
from cardtable.web.backoff import Backoff, retry_async
from cardtable.web.program_seats import is_program
from cardtable.web.store import SeatRow, StoreUnavailable, TableRow, token_hash

if TYPE_CHECKING:
    from cardtable.web.hub import Hub

log = logging.getLogger("cardtable.web")

Json = dict[str, Any]
FORGET_AFTER = 600.0
"""Seconds a finished table stays in memory (then it is read back from the database when
asked for: its page, record or replay)."""
OUTBOX_LIMIT = 200
"""Frames queued for one connection; a client that falls this far behind is dropped."""
SAVE_FAILED = "The server could not save your move; try again."
"""A person's move the database did not take: nothing happened, and it is still their turn."""
KEEP_TRYING = Backoff(first=0.2, cap=5.0)
"""How what nobody can take back (a bot's move, the turn timer's, a game's result) is stored
while the database is away: tried again, at most 5 s apart, until it is stored."""

STORE_THREADS = 4
"""Store calls of the live tables at once (each one short transaction)."""

T = TypeVar("T")
Choice = tuple[Any, str, bool]
"""A move for the match loop: the action, its notation, and whether it must be stored even if
that takes retries (the turn timer's move) instead of being refused."""


@dataclass
class Connection:
    """One WebSocket: a seat (``seat`` set) or a spectator; frames go through ``outbox``."""

    seat: str | None
    name: str | None
    send: Callable[[Json], None]
    closed: bool = False
    close_code: int = 1008
    """The WebSocket's close code once ``closed`` (4401: a wrong token in a ``hello``)."""


class HumanSeat:
    """A person's seat: ``choose`` waits until a move arrives from their WebSocket (or the turn
    timer plays one), and hands it on once it is stored."""

    def __init__(self, live: LiveTable, seat: str) -> None:
        self.live = live
        self.seat = seat
        self.waiter: asyncio.Future[Choice] | None = None
        self.early: tuple[Any, str] | None = None
        """A move that arrived before the match loop asked for it (the frame announcing the
        turn can reach the player before the loop gets there)."""

    async def choose(self, observation: Any) -> Any:
        live = self.live
        live.start_timer(self)
        try:
            while True:
                action, text, forced = await self._next()
                if await live.commit(self.seat, action, text, keep_trying=forced):
                    return action
                # Not stored, so nothing happened: the person is asked again, with a whole
                # turn (the fault was the server's), and their page gets its moves back.
                live.send_to_seat(self.seat, error_frame(SAVE_FAILED))
                live.stop_timer()
                live.start_timer(self)
                if live.deadline is None:  # (a timer's start told everyone already)
                    live.send_to_seat(self.seat, live.state_frame(self.seat))
        finally:
            live.stop_timer()

    async def _next(self) -> Choice:
        if self.early is not None:
            action, text = self.early
            self.early = None
            return action, text, False
        self.waiter = asyncio.get_running_loop().create_future()
        try:
            return await self.waiter
        finally:
            self.waiter = None

    def rejected(self, error: IllegalAction) -> None:
        self.live.send_to_seat(self.seat, error_frame(error.message))


class BotSeat(games.ThreadedBot):
    """A bot that writes down the notation of its move before the move is applied."""

    def __init__(self, live: LiveTable, bot: Any, delay: float, instant: bool,
                 seat: str) -> None:
        super().__init__(bot, delay, instant)
        self.live = live
        self.seat = seat

    async def choose(self, observation: Any) -> Any:
        action = await super().choose(observation)
        await self.live.commit(self.seat, action, self.live.state.action_text(action),
                               keep_trying=True)
        return action


def error_frame(message: str) -> Json:
    return {"type": "error", "message": message}


@dataclass
class LiveTable:
    row: TableRow
    seats: list[SeatRow]
    state: Any
    hub: Hub
    ply: int = 0
    connections: list[Connection] = field(default_factory=list)
    task: asyncio.Task[Any] | None = None
    humans: dict[str, HumanSeat] = field(default_factory=dict)
    pending_text: str | None = None
    deadline: float | None = None
    timer: asyncio.TimerHandle | None = None
    last_move: float = field(default_factory=time.time)
    forfeit: Result | None = None
    """The result of a game a program forfeited, or of one the server closed as abandoned
    (the game's own state is not over)."""
    storing: bool = False
    """A move is being stored (the mover cannot send another meanwhile)."""
    background: set[asyncio.Task[Any]] = field(default_factory=set)
    """Writes that wait for the database to come back (kept here: a task nobody holds may be
    collected before it ends)."""

    @property
    def result(self) -> Result | None:
        """The game's result, or the forfeit that ended it; None while it goes on."""
        result: Result | None = self.state.result
        return result if result is not None else self.forfeit

    @property
    def forfeited(self) -> tuple[str, str] | None:
        """``(seat, why)`` when a program's forfeit ended the game (the table's record ends
        with it), else None."""
        if self.forfeit is None or self.forfeit.reason != FORFEIT:
            return None
        return str(self.forfeit.details.get("seat")), str(self.forfeit.details.get("why"))

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def kinds(self) -> list[str]:
        return [seat.kind for seat in self.seats]

    @property
    def free_seats(self) -> list[str]:
        return [seat.seat for seat in self.seats
                if seat.kind == "human" and seat.token_hash is None]

    def seat_of_token(self, token: str) -> str | None:
        hashed = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, hashed):
                return seat.seat
        return None

    # --- the match ----------------------------------------------------------------------------

    def start(self) -> None:
        """Run the match loop (from wherever the state is) once every seat is taken."""
        if self.task is not None or self.free_seats or self.result is not None:
            return
        if self.row.status != "playing":
            self.row.status = "playing"
            try:
                self.hub.store.set_status(self.id, "playing")
            except StoreUnavailable:  # the match may go on: its moves wait for the database
                self.spawn(self.keep_trying("status", lambda: self.hub.store.set_status(
                    self.id, "playing")))
        seats: dict[str, Any] = {}
        loaded = games.load(self.row.game, self.row.params)
        delay = self.hub.bot_delay if self.row.bot_delay is None else self.row.bot_delay
        for seat in self.seats:
            if seat.kind == "human":
                self.humans[seat.seat] = HumanSeat(self, seat.seat)
                seats[seat.seat] = self.humans[seat.seat]
                continue
            if is_program(seat.kind):  # its process starts when the table's people are here
                seats[seat.seat] = self.hub.program_seat(self, loaded, seat.seat, delay)
                continue
            try:
                bot = games.make_bot(loaded, seat.kind[4:], seat.seat, self.row.seed,
                                     self.hub.programs)
            except GameError as error:  # a bot that cannot be made forfeits at once
                for other in seats.values():
                    if isinstance(other, BotSeat):  # the bots already made end
                        other.match_over(self.state.observation(other.seat), None)
                forfeit = Forfeit(seat.seat, error.message.rstrip("."))
                self.forfeit = forfeit_result(self.state, forfeit)
                self.finish_now(self.forfeit)
                return
            seats[seat.seat] = BotSeat(self, bot, delay,
                                       games.instant(self.row.game, seat.kind[4:]), seat.seat)
        self.task = asyncio.get_running_loop().create_task(self._play(seats))
        self.task.add_done_callback(self._ended)
        self.hub.launch_programs(self)

    async def _play(self, seats: dict[str, Any]) -> None:
        result = await play_match_async(self.state, seats, (TableListener(self),))
        await self.finish(result)

    def _ended(self, task: asyncio.Task[Any]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None and not isinstance(error, MatchAbandoned):
            log.error("table %s stopped: %s", self.id, error, exc_info=error)

    async def stop(self) -> None:
        self.stop_timer()
        for task in [*self.background, *([self.task] if self.task is not None else [])]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # --- storing before telling -------------------------------------------------------------

    async def commit(self, seat: str, action: Any, text: str, keep_trying: bool) -> bool:
        """Store ``action`` (notation ``text``) as the next ply, before the match loop applies
        it and anyone is told. True when stored, or when the game refuses the action (nothing
        to store: the loop refuses it as ever); False when the database did not take it and
        ``keep_trying`` is off (else it is tried again until it does)."""
        try:
            self.state.clone().apply(action)
        except IllegalAction:
            return True
        ply, store = self.ply + 1, self.hub.store
        self.storing = True
        try:
            if keep_trying:
                await self.keep_trying(f"move {ply}",
                                       lambda: store.add_move(self.id, ply, seat, text))
            else:
                await self.hub.in_store_thread(lambda: store.add_move(self.id, ply, seat, text))
        except StoreUnavailable as error:
            log.warning("table %s: move %d by %s refused, not stored: %s", self.id, ply, seat,
                        error)
            return False
        finally:
            self.storing = False
        self.pending_text = text
        return True

    async def keep_trying(self, what: str, call: Callable[[], T]) -> T:
        """``call()`` (a store call) on a worker thread, so that the event loop serves every
        other table meanwhile, tried again while the database is away (``hub.retry``)."""

        def retrying(error: BaseException, delay: float) -> None:
            log.warning("table %s: %s not stored (%s); trying again in %.1f s", self.id, what,
                        error, delay)

        async def attempt() -> T:
            return await self.hub.in_store_thread(call)

        return await retry_async(attempt, self.hub.retry,
                                 lambda error: isinstance(error, StoreUnavailable),
                                 on_retry=retrying)

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        task.add_done_callback(self._ended)

    # --- the end of the game ------------------------------------------------------------------

    async def finish(self, result: Result) -> None:
        """Store the result (tried again until it is), rate the game, then tell everyone."""
        stored = serialize.result_json(result) or {}
        await self.keep_trying("result", lambda: self.hub.store.finish(self.id, stored))
        try:
            await self.hub.in_store_thread(lambda: self.hub.rate(self, result))
        except Exception as error:  # a game is over whether or not it could be rated
            log.error("table %s: not rated: %s", self.id, error)
        self.announce_end(stored)

    def finish_now(self, result: Result) -> None:
        """:meth:`finish` without waiting when the database answers at once (a game over before
        its first move), else in the background."""
        stored = serialize.result_json(result) or {}
        try:
            self.hub.store.finish(self.id, stored)
        except StoreUnavailable:
            self.spawn(self.finish(result))
            return
        try:
            self.hub.rate(self, result)
        except Exception as error:
            log.error("table %s: not rated: %s", self.id, error)
        self.announce_end(stored)

    def announce_end(self, stored: Json) -> None:
        """The game is over and its result ``stored`` is in the database: tell everyone."""
        self.row.status = "finished"
        self.row.finished = time.time()
        self.row.result = stored
        self.broadcast()
        self.broadcast_table()
        asyncio.get_running_loop().call_later(FORGET_AFTER, self.hub.forget, self.id)

    def submit(self, seat: str, text: str) -> str | None:
        """A person's move in notation; the refusal message, or None when it was handed to the
        match loop (which may still refuse it: the seat is then told by an error frame)."""
        if self.result is not None:
            return "The game is over."
        if self.task is None:
            return "The game has not started: waiting for players."
        if self.state.to_move != seat:
            return "It is not your turn."
        human = self.humans.get(seat)
        busy = "A move is already being played."
        if human is None or human.early is not None or self.storing or (
                human.waiter is not None and human.waiter.done()):
            return busy
        try:
            action = self.state.parse_action(text)
        except GameError as error:
            return error.message
        except (ValueError, TypeError, IndexError, KeyError):
            return f"Invalid move '{text[:40]}'."
        if human.waiter is None:
            human.early = (action, self.state.action_text(action))
            return None
        human.waiter.set_result((action, self.state.action_text(action), False))
        return None

    # --- turn timer ---------------------------------------------------------------------------

    def start_timer(self, human: HumanSeat) -> None:
        seconds = self.row.turn_seconds
        if not seconds:
            return
        self.deadline = time.time() + seconds
        self.timer = asyncio.get_running_loop().call_later(seconds, self._time_up, human)
        self.broadcast()

    def stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer = None
        self.deadline = None

    def _time_up(self, human: HumanSeat) -> None:
        """The turn timer ran out: the server plays a legal move chosen at random (from a
        generator seeded by the table's seed and the ply, so resumes stay reproducible). It is
        stored however long the database takes. While the person's own move is being stored
        there is nothing to do: it is played, or, not stored, they get a new turn."""
        if human.waiter is None or human.waiter.done():
            return
        legal = self.state.legal_actions()
        chooser = random.Random(f"{self.row.seed}:timer:{self.ply}")
        action = legal[chooser.randrange(len(legal))]
        human.waiter.set_result((action, self.state.action_text(action), True))
        self.send_to_seat(human.seat, error_frame("Time is up: a move was played for you."))

    # --- frames -------------------------------------------------------------------------------

    def state_frame(self, seat: str | None, public: Json | None = None) -> Json:
        state = self.state
        to_move = None if self.result is not None else state.to_move  # (over by a forfeit)
        if seat is None:
            observation = public if public is not None else serialize.public_view(
                self.row.game, state)
        else:
            observation = serialize.seat_view(self.row.game, state, seat)
        legal: list[str] = []
        if seat is not None and to_move == seat and self.task is not None:
            legal = [state.action_text(action) for action in state.legal_actions()]
        return {"type": "state", "table": self.id, "seat": seat, "observation": observation,
                "legal": legal, "to_move": to_move,
                "result": serialize.result_json(self.result), "ply": self.ply,
                "status": self.row.status, "deadline": self.deadline}

    def table_frame(self) -> Json:
        return {"type": "table", **self.summary()}

    def summary(self) -> Json:
        connected = {connection.seat for connection in self.connections if connection.seat}
        return {
            "table": self.id,
            "game": self.row.game,
            "params": self.row.params,
            "status": self.row.status,
            "private": self.row.private,
            "created": self.row.created,
            "seats": [{"seat": seat.seat, "kind": seat.kind, "name": seat.name,
                       "taken": seat.kind != "human" or seat.token_hash is not None,
                       "connected": seat.seat in connected} for seat in self.seats],
            "free_seats": self.free_seats,
            "spectators": {"allowed": self.row.spectators,
                           "count": sum(1 for c in self.connections if c.seat is None)},
            "turn_seconds": self.row.turn_seconds,
            "to_move": None if self.result is not None else self.state.to_move,
            "ply": self.ply,
            "result": serialize.result_json(self.result),
            "rematch": self.row.rematch,
            "rematch_of": self.row.rematch_of,
        }

    def broadcast(self) -> None:
        public: Json | None = None
        for connection in list(self.connections):
            if connection.seat is None:
                if public is None:
                    public = serialize.public_view(self.row.game, self.state)
                connection.send(self.state_frame(None, public))
            else:
                connection.send(self.state_frame(connection.seat))

    def broadcast_table(self) -> None:
        frame = self.table_frame()
        for connection in list(self.connections):
            connection.send(frame)

    def send_to_seat(self, seat: str, frame: Json) -> None:
        for connection in list(self.connections):
            if connection.seat == seat:
                connection.send(frame)

    def send_all(self, frame: Json) -> None:
        for connection in list(self.connections):
            connection.send(frame)


class TableListener(MatchListener):
    """Tells every connection of each move as it is applied (each seat stored it first)."""

    def __init__(self, live: LiveTable) -> None:
        self.live = live

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        live = self.live
        text = live.pending_text
        live.pending_text = None
        if text is None:  # pragma: no cover - every seat writes its move's text first
            text = live.state.action_text(action)
        live.ply += 1
        live.last_move = time.time()
        if state.result is None:  # (the last move is told with the result, once stored)
            live.broadcast()

    def on_rejected(self, state: GameState[Any, Any], seat: str, error: IllegalAction) -> None:
        self.live.pending_text = None

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        """(The table's task stores the result and tells everyone: ``LiveTable.finish``.)"""
        live = self.live
        if result.reason == FORFEIT and live.state.result is None:
            live.forfeit = result
        live.stop_timer()


class Flood:
    """More than ``limit`` messages within one second is a flood."""

    def __init__(self, limit: int = 20, window: float = 1.0) -> None:
        self.limit = limit
        self.window = window
        self.times: deque[float] = deque()

    def hit(self, now: float) -> bool:
        times = self.times
        times.append(now)
        while times and times[0] <= now - self.window:
            times.popleft()
        return len(times) > self.limit
