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

Several servers may share one PostgreSQL database. A table is then driven by one of them, its
owner (``owner`` True here, holding the lease ``lease``: every move and result it stores is
checked against it). Every other server holding connections of the table keeps a mirror: the
same table without a match loop, brought up to date from the moves stored after its ply when
it hears of them (``moved``, ``refresh``), one ply at a time, each told to its connections
once, from its own copy of the state. A person's move at a mirror is handed to the owner
(``hand_over``). An owner that loses its lease, or cannot reach the database, stops driving
(``step_down``) and becomes a mirror; a server taking a table over (``promote``) catches up
and starts its match loop from the stored moves, as a restart does.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import itertools
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
from cardtable.web import games, serialize, shared_store
from cardtable.web.backoff import Backoff, retry_async
from cardtable.web.hand_over import SAVE_FAILED, HandOver
from cardtable.web.program_seats import is_program
from cardtable.web.store import (
    Lease,
    LeaseLost,
    SeatRow,
    StoreUnavailable,
    TableParts,
    TableRow,
    token_hash,
)

if TYPE_CHECKING:
    from cardtable.web.hub import Hub

log = logging.getLogger("cardtable.web")

Json = dict[str, Any]
FORGET_AFTER = 600.0
"""Seconds a finished table stays in memory (then it is read back from the database when
asked for: its page, record or replay)."""
OUTBOX_LIMIT = 200
"""Frames queued for one connection; a client that falls this far behind is dropped."""
MOVED_AWAY = "the table is driven by another server now"
"""Why a table stopped driving its match (the cause of the ``MatchAbandoned`` that ends it)."""


HERE_STAMPS = itertools.count(1)
"""Stamps of what a server learnt of the connections at other servers, in the order it
learnt it (``LiveTable.there``)."""
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
    presence: str | None = None
    """The key its client's count of WebSockets gave it (``ConnectionCap.enter``): its
    presence row's id when several servers share presence (``presence``)."""


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
        live = self.live
        refused = live.handed.get(self.seat)
        if refused is not None and not refused.done():  # (the server it came through says so)
            refused.set_result(error.message)
            live.send_to_seat(self.seat, error_frame(error.message), everywhere=False)
            return
        live.send_to_seat(self.seat, error_frame(error.message))


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


CHAT_HISTORY = 50
"""Chat lines a WebSocket is given when it opens (the table's last ones)."""


def chat_frame(line: Json) -> Json:
    """The frame of a stored chat line (``seat``, ``name``, ``text``, ``at``)."""
    return {"type": "chat", "seat": line["seat"], "name": line["name"], "text": line["text"],
            "html": html.escape(line["text"]), "at": line["at"]}


def _chat_key(frame: Json) -> tuple[Any, ...]:
    return frame["at"], frame["seat"], frame["text"]


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
    # --- owner and mirrors (several servers) ---
    owner: bool = True
    """This server drives the table (always, with a single server); else it is a mirror."""
    lease: Lease | None = None
    """The owner's lease, checked by every move and result it stores (None: one server, no
    check)."""
    planned: tuple[int, float] | None = None
    """(Owner) the turn timer's deadline of a ply, told to the other servers with its move."""
    told_deadline: tuple[int, float] | None = None
    """(Mirror) the latest deadline the owner told, and the ply it is for."""
    wanted: set[str] = field(default_factory=set)
    """What to read again from the database: ``moves`` (a mirror's), ``row``, ``seats``,
    ``here``."""
    handed: dict[str, asyncio.Future[str | None]] = field(default_factory=dict)
    """(Owner) the seats whose move on its way was handed over by another server (which tells
    the person if it cannot be stored, or if the game refuses it): each settled with the
    game's refusal, or None once played (or the table is driven here no more, or its game
    ended)."""
    ply_waiters: list[asyncio.Future[None]] = field(default_factory=list)
    """Those waiting for the table to advance (:meth:`until`): moves handed over by another
    server, waiting for the owner's copy to reach the ply they were made at; a view waiting
    for the result to be told."""
    there: dict[str, tuple[frozenset[str], int, int]] = field(default_factory=dict)
    """(Several servers) per other server: the seats with a WebSocket of the table open there,
    how many spectators' WebSockets are, and the stamp (:data:`HERE_STAMPS`) of when this
    server learnt it: from that server's ``here`` events, or from the presence rows a
    catch-up read (``here``)."""
    here_known: bool = False
    """``there`` is complete: the table was made here, or the presence rows were read since
    it was brought into memory (the events keep it so from then on)."""
    syncing: asyncio.Task[None] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the table catches up with the database (one catch-up at a time)."""
    legal_made: tuple[tuple[int, Any], list[str]] | None = None
    """(Ply, player to move) and their legal moves' notation, once made (``legal_texts``)."""
    hand_over: HandOver = field(init=False, repr=False)
    """(Mirror) the moves of the people connected here, on their way to the owner."""
    said: deque[Json] = field(default_factory=lambda: deque(maxlen=CHAT_HISTORY))
    """The chat lines told to this table's connections since it came into memory (the
    last ones): a history read from the database meanwhile is completed with them."""

    def __post_init__(self) -> None:
        self.hand_over = HandOver(self)

    @property
    def result(self) -> Result | None:
        """The game's result, or the forfeit that ended it; None while it goes on."""
        result: Result | None = self.state.result
        return result if result is not None else self.forfeit

    @property
    def shown_result(self) -> Result | None:
        """The result as frames and views show it: once it is stored (store, then tell)."""
        return self.result if self.row.status == "finished" else None

    @property
    def result_pending(self) -> bool:
        """The game is over and its result not told yet (it is being stored): no state frame
        shows the end before the one that tells the result, sent to every connection (a
        game's own view of its last position may name its result)."""
        return self.result is not None and self.row.status != "finished"

    @property
    def elsewhere(self) -> tuple[frozenset[str], int]:
        """(Several servers) the seats with a WebSocket open on another server, and how many
        spectators' WebSockets are open there (the table's summary counts them)."""
        entries = self.there.values()
        return frozenset().union(*(entry[0] for entry in entries)), sum(
            entry[1] for entry in entries)

    def heard_here(self, server: str, seats: frozenset[str], spectators: int) -> None:
        """``server`` told what of the table is open there now (a ``here`` event)."""
        before = self.elsewhere
        self.there[server] = (seats, spectators, next(HERE_STAMPS))
        if self.elsewhere != before:
            self.broadcast_table()

    def forget_servers(self, alive: set[str]) -> None:
        """The servers not in ``alive`` stopped: their connections count no more."""
        if any(server not in alive for server in self.there):
            before = self.elsewhere
            self.there = {server: entry for server, entry in self.there.items()
                          if server in alive}
            if self.elsewhere != before:
                self.broadcast_table()

    def take_here(self, read: dict[str, tuple[frozenset[str], int]], since: int) -> None:
        """The presence rows read from the stamp ``since`` on: they replace what this server
        knew then; what a server told after ``since`` is newer, and stays."""
        before = self.elsewhere
        kept = {server: entry for server, entry in self.there.items() if entry[2] > since}
        for server, (seats, spectators) in read.items():
            kept.setdefault(server, (seats, spectators, since))
        self.there = kept
        self.here_known = True
        if self.elsewhere != before:
            self.broadcast_table()

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
    def running(self) -> bool:
        """The match is under way: the owner's match loop runs, or (a mirror) the table says
        it is playing."""
        if self.owner:
            return self.task is not None
        return self.row.status == "playing" and not self.free_seats

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
        """Run the match loop (from wherever the state is) once every seat is taken (a mirror
        leaves that to the owner)."""
        if not self.owner or self.task is not None or self.free_seats or self.result is not None:
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
        ply, store, lease = self.ply + 1, self.hub.store, self.lease
        timed: int | None = None
        if self.row.turn_seconds or text not in self.legal_texts(known_only=True):
            # (a move of the legal list the frames showed needs no trial, unless the next
            # turn's timer depends on the state after it)
            try:
                after = self.state.clone()
                after.apply(action)
            except IllegalAction:
                return True
            timed = self._timed(after) if lease is not None else None
        planned: list[tuple[int, float]] = []

        def write() -> None:
            if lease is None:
                store.add_move(self.id, ply, seat, text)
                return
            # The next turn's timer starts when the move is stored: the other servers learn
            # its deadline with the move.
            deadline = None if timed is None else time.time() + timed
            store.add_move(self.id, ply, seat, text, lease=lease, deadline=deadline)
            if deadline is not None:
                planned.append((ply, deadline))

        self.storing = True
        try:
            if keep_trying:
                await self.keep_trying(f"move {ply}", write)
            else:
                await self.hub.in_store_thread(write)
        except StoreUnavailable as error:
            log.warning("table %s: move %d by %s refused, not stored: %s", self.id, ply, seat,
                        error)
            return False
        except LeaseLost as error:
            log.warning("table %s: move %d by %s not stored: %s", self.id, ply, seat, error)
            made_here = not keep_trying and seat not in self.handed
            self.step_down()
            if made_here:  # (a person's move made through this server: on to the new owner)
                self.spawn(self._hand_on(seat, text))
            raise MatchAbandoned(seat, MOVED_AWAY) from error
        finally:
            self.storing = False
        self.pending_text = text
        self.planned = planned[-1] if planned else None
        return True

    async def _hand_on(self, seat: str, text: str) -> None:
        """A person's move made through this server, not stored because another server took
        the table meanwhile: handed to that one, as a mirror hands on its people's moves (the
        person is told only when it is refused, or cannot be handed on)."""
        refusal: str | None = SAVE_FAILED
        try:
            refusal = await self.hand_over.forward(seat, text)
        finally:
            if refusal is not None:
                self.send_to_seat(seat, error_frame(refusal), everywhere=True)

    def _timed(self, after: Any) -> int | None:
        """The turn timer's seconds for the turn that follows in the state ``after`` (None:
        the game is over, the table has no timer, or a bot or program moves next)."""
        seconds = self.row.turn_seconds
        if not seconds or after.result is not None or after.to_move not in self.humans:
            return None
        return seconds

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
        try:
            await self.keep_trying("result", lambda: self.store_result(stored))
        except LeaseLost as error:  # the new owner stores it
            log.warning("table %s: result not stored: %s", self.id, error)
            self.step_down()
            return
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
            self.store_result(stored)
        except StoreUnavailable:
            self.spawn(self.finish(result))
            return
        except LeaseLost as error:
            log.warning("table %s: result not stored: %s", self.id, error)
            self.step_down()
            return
        try:
            self.hub.rate(self, result)
        except Exception as error:
            log.error("table %s: not rated: %s", self.id, error)
        self.announce_end(stored)

    def store_result(self, stored: Json) -> None:
        """Store the game's result (as long as this server holds the table's lease)."""
        if self.lease is None:
            self.hub.store.finish(self.id, stored)
        else:
            self.hub.store.finish(self.id, stored, self.lease)

    def announce_end(self, stored: Json) -> None:
        """The game is over and its result ``stored`` is in the database: tell everyone."""
        self.row.status = "finished"
        self.row.finished = time.time()
        self.row.result = stored
        self.broadcast()
        self.broadcast_table()
        self.advanced()
        asyncio.get_running_loop().call_later(FORGET_AFTER, self.hub.forget, self.id)

    def parse_turn(self, seat: str, text: str) -> tuple[Any, str | None]:
        """``(action, None)`` for the move ``text`` of ``seat`` as far as this copy of the
        table can tell (the owner's, or a mirror's before the move is handed over), else
        ``(None, refusal)``: the game is over or has not started, it is not the seat's turn,
        or the text is not a move in the game's notation."""
        if self.result is not None:
            return None, "The game is over."
        if not self.running:
            return None, "The game has not started: waiting for players."
        if self.state.to_move != seat:
            return None, "It is not your turn."
        try:
            return self.state.parse_action(text), None
        except GameError as error:
            return None, error.message
        except (ValueError, TypeError, IndexError, KeyError):
            return None, f"Invalid move '{text[:40]}'."

    def submit(self, seat: str, text: str) -> str | None:
        """(Owner) a person's move in notation; the refusal message, or None when it was
        handed to the match loop (which may still refuse it: the seat is then told by an
        error frame)."""
        action, refusal = self.parse_turn(seat, text)
        if refusal is not None:
            return refusal
        human = self.humans.get(seat)
        if human is None or human.early is not None or self.storing or (
                human.waiter is not None and human.waiter.done()):
            return "A move is already being played."
        if human.waiter is None:
            human.early = (action, self.state.action_text(action))
            return None
        human.waiter.set_result((action, self.state.action_text(action), False))
        return None

    # --- owner and mirrors ---------------------------------------------------------------------

    async def reach(self, ply: int, timeout: float) -> None:
        """(Owner) wait, at most ``timeout`` seconds, until this copy of the table is at
        ``ply``: a move made at another server's copy may arrive between the moment this
        server stored (and told) the move before it and the moment it applies it here."""
        await self.until(lambda: self.ply >= ply or not self.owner or self.result is not None,
                         timeout)

    async def until(self, condition: Callable[[], bool], timeout: float) -> bool:
        """Wait, at most ``timeout`` seconds, until ``condition()`` holds (looked at again
        each time the table advances: a ply, its game's end, its result told); whether it
        does."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition():
            waiter: asyncio.Future[None] = loop.create_future()
            self.ply_waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, max(0.0, deadline - loop.time()))
            except TimeoutError:
                return condition()
        return True

    def settle_handed(self, seat: str | None = None) -> None:
        """(Owner) the move handed over for ``seat`` (every seat's when None) is played, or
        can be no more."""
        for handed_seat, outcome in self.handed.items():
            if (seat is None or handed_seat == seat) and not outcome.done():
                outcome.set_result(None)

    def advanced(self) -> None:
        """The table's ply went up, its game ended, or its result was told: :meth:`until`
        and the moves handed to the owner look again."""
        waiters, self.ply_waiters = self.ply_waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)
        self.hand_over.advanced()

    def new_owner(self, owner: str, epoch: int) -> None:
        """Another server drives the table from ``epoch`` on (it told so): this one stops
        driving it if it did, and moves handed over go to that one."""
        if epoch <= self.row.epoch:
            return
        self.row.owner, self.row.epoch = owner, epoch
        self.step_down()
        self.hand_over.owner_changed()

    async def reload_seats(self) -> None:
        """Read the seats again (one may have been taken at another server a moment ago)."""
        store = self.hub.store
        seats = await self.hub.in_store_thread(lambda: store.seats(self.id))
        if self._take_seats(seats):
            self._seats_taken()

    def _seats_taken(self) -> None:
        """Seats were taken at another server: the owner starts the match once every seat
        is; everyone is told."""
        self.start()
        self.broadcast_table()
        if self.owner and self.task is not None:
            self.broadcast()

    def moved(self, ply: int, deadline: float | None,
              move: tuple[str, str] | None = None) -> None:
        """(Mirror) the owner stored the moves up to ``ply``; ``deadline`` is when the turn
        timer of the turn after it runs out; ``move`` (seat, move), when told, is the move
        of ``ply``: played at once when it is the next one, else the moves are read."""
        if deadline is not None:
            self.told_deadline = (ply, deadline)
        if ply == self.ply + 1 and move is not None and self.result is None:
            # (a catch-up reading meanwhile skips it: it plays only the plies after its own)
            self._apply_moves([(ply, *move)])
            if self.ply == ply:
                return
        if ply > self.ply:
            self.refresh("moves")
        elif ply == self.ply and deadline is not None and deadline != self.deadline \
                and self.result is None:
            self.deadline = deadline  # (a timer started after its move: the game's first)
            self.broadcast()

    def seat_frame(self, seat: str, frame: Json) -> None:
        """The owner's frame for ``seat`` only: sent to its connections here (a state frame
        made from this server's copy)."""
        if frame.get("type") == "state":
            if self.result_pending:
                return
            frame = self.state_frame(seat)
        self.send_to_seat(seat, frame, everywhere=False)

    def refresh(self, *parts: str) -> None:
        """Read ``parts`` again from the database (``moves``: a mirror's moves after its ply;
        ``row``: the table's summary; ``seats``; ``here``: the connections on the other
        servers) and tell the connections what changed, in the background: one catch-up at a
        time, as many as asked for."""
        self.wanted.update(parts)
        if self.syncing is None or self.syncing.done():
            self.syncing = asyncio.get_running_loop().create_task(self._sync())
            self.background.add(self.syncing)
            self.syncing.add_done_callback(self.background.discard)
            self.syncing.add_done_callback(self._ended)

    async def _sync(self) -> None:
        while self.wanted:
            parts, self.wanted = self.wanted, set()
            async with self.lock:
                await self._catch_up(parts)

    async def _catch_up(self, parts: set[str]) -> None:
        store, table_id, ply = self.hub.store, self.id, self.ply
        mirror = not self.owner
        cluster = self.hub.cluster

        since = next(HERE_STAMPS)

        def read_parts() -> tuple[TableParts, dict[str, tuple[frozenset[str], int]] | None]:
            read = TableParts(None, None, None)
            if parts & {"row", "seats"} or ("moves" in parts and mirror):
                read = store.table_parts(table_id, row="row" in parts, seats="seats" in parts,
                                         moves_after=ply if "moves" in parts and mirror
                                         else None)
            here = None
            if "here" in parts and cluster.shared:
                here = shared_store.here_by_server(store, table_id, cluster.alive_since(),
                                                   but=cluster.server_id)
            return read, here

        read, here = await self.keep_trying("catch-up", read_parts)
        row, seats, moves = read.row, read.seats, read.moves or []
        if here is not None:
            self.take_here(here, since)
        if self.owner != (not mirror):  # (taken over or stepped down meanwhile: again)
            self.wanted.update(parts - {"here"})
            return
        seats_changed = seats is not None and self._take_seats(seats)
        if self.owner:
            rematch = None if row is None else self._take_rematch(row)
            if seats_changed:
                self._seats_taken()
            elif rematch:
                self.broadcast_table()
            return
        self._apply_moves(moves)
        if row is None:
            if seats_changed:
                self.broadcast_table()
            return
        was = self.row.status
        rematch = self._take_rematch(row)
        self._take_row(row)
        if row.status == "finished" and was != "finished":
            self._ended_elsewhere()
        elif row.status != was or seats_changed or rematch:
            self.broadcast_table()
            if row.status != was:
                self.broadcast()

    def _apply_moves(self, moves: list[tuple[int, str, str]]) -> None:
        """(Mirror) play the stored moves after the table's ply, in order, each told once."""
        state = self.state
        for ply, seat, text in moves:
            if ply <= self.ply:
                continue
            if ply != self.ply + 1:  # (never stored so: read again from the ply after)
                log.error("table %s: ply %d stored without ply %d", self.id, ply, self.ply + 1)
                return
            try:
                state.apply(state.parse_action(text))
            except (GameError, ValueError, TypeError, IndexError, KeyError) as error:
                log.error("table %s: stored move %d (%s by %s) cannot be played: %s", self.id,
                          ply, text[:40], seat, error)
                return
            self.ply = ply
            self.last_move = time.time()
            told = self.told_deadline
            self.deadline = told[1] if told is not None and told[0] == ply else None
            self.broadcast()  # (the last move is told with the result: not yet)
            self.advanced()

    def _take_seats(self, seats: list[SeatRow]) -> bool:
        if [vars(seat) for seat in seats] == [vars(seat) for seat in self.seats]:
            return False
        self.seats = seats
        return True

    def _take_rematch(self, row: TableRow) -> bool:
        """Link the rematch another server made; True when it is new (its frame is sent)."""
        if row.rematch is None or row.rematch == self.row.rematch:
            return False
        self.row.rematch = row.rematch
        self.send_all({"type": "rematch", "table": row.rematch})
        return True

    def _take_row(self, row: TableRow) -> None:
        mine = self.row
        for name in ("status", "finished", "result", "rematch", "owner", "epoch", "activity"):
            setattr(mine, name, getattr(row, name))

    def _ended_elsewhere(self) -> None:
        """(Mirror) the owner stored the result: tell everyone, as the owner does."""
        stored = self.row.result or {}
        if self.state.result is None and stored.get("reason") is not None:
            self.forfeit = Result(tuple(stored.get("winners", ())), str(stored["reason"]),
                                  dict(stored.get("details", {})))
        self.deadline = None
        self.broadcast()
        self.broadcast_table()
        self.advanced()
        asyncio.get_running_loop().call_later(FORGET_AFTER, self.hub.forget, self.id)

    def step_down(self) -> None:
        """Stop driving the table (another server drives it now, or this one cannot reach the
        database): its match loop, timer and programs end, nothing is shown, and it goes on as
        a mirror that catches up from the database."""
        if not self.owner:
            return
        log.warning("table %s: no longer driven by this server", self.id)
        self.owner = False
        self.lease = None
        self.stop_timer()
        self.planned = None
        task, self.task = self.task, None
        for running in [*self.background, *([task] if task is not None else [])]:
            running.cancel()  # (the current one, if it is one, ends as soon as it returns)
        self.syncing = None
        self.humans.clear()
        self.storing = False
        self.pending_text = None
        self.hub.program_seats.pop(self.id, None)
        self.advanced()  # (moves handed over and waiting here are answered)
        self.settle_handed()
        self.refresh("moves", "row", "seats")

    async def promote(self, epoch: int) -> bool:
        """Drive the table from now on with the lease ``epoch`` this server claimed: catch up
        with the database (each move not shown yet told once), then go on as after a restart
        (bots, the person's turn timer afresh, programs from their seat's view). False when
        there is nothing to drive (the table is finished, or gone)."""
        store, table_id = self.hub.store, self.id
        async with self.lock:
            ply = self.ply

            read = await self.keep_trying("take-over", lambda: store.table_parts(
                table_id, moves_after=None if self.owner else ply))
            row, seats = read.row, read.seats
            if row is None or seats is None:
                return False
            self._take_seats(seats)
            if not self.owner:
                self._apply_moves(read.moves or [])
                self._take_rematch(row)
                self._take_row(row)
            self.row.owner, self.row.epoch = self.hub.cluster.server_id, epoch
            self.owner, self.lease = True, (self.hub.cluster.server_id, epoch)
            self.hand_over.owner_changed()
            self.told_deadline = None
            self.deadline = None
            if row.status == "finished":
                return False
            if self.state.result is not None:  # (stopped between its last move and result)
                self.finish_now(self.state.result)
                return True
            self.start()
            self.hub.launch_programs(self, anyway=True)
            return True

    # --- turn timer ---------------------------------------------------------------------------

    def start_timer(self, human: HumanSeat) -> None:
        seconds = self.row.turn_seconds
        if not seconds:
            return
        planned, self.planned = self.planned, None
        now = time.time()
        if planned is not None and planned[0] == self.ply:  # (told with the move)
            self.deadline = planned[1]
        else:
            self.deadline = now + seconds
            if self.hub.cluster.shared:
                self.hub.tell({"e": "move", "t": self.id, "p": self.ply,
                               "deadline": self.deadline})
        self.timer = asyncio.get_running_loop().call_later(max(0.0, self.deadline - now),
                                                           self._time_up, human)
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
        if seat is not None and to_move == seat and self.running:
            legal = self.legal_texts()
        return {"type": "state", "table": self.id, "seat": seat, "observation": observation,
                "legal": legal, "to_move": to_move,
                "result": serialize.result_json(self.shown_result), "ply": self.ply,
                "status": self.row.status, "deadline": self.deadline}

    def legal_texts(self, known_only: bool = False) -> list[str]:
        """The legal moves of the player to move, in notation: made once a ply (a state frame
        shows them, and a move among them is known legal). ``known_only``: as made already,
        or none."""
        state = self.state
        key = (self.ply, state.to_move)
        if self.legal_made is not None and self.legal_made[0] == key:
            return self.legal_made[1]
        if known_only:
            return []
        legal = [state.action_text(action) for action in state.legal_actions()]
        self.legal_made = (key, legal)
        return legal

    def table_frame(self) -> Json:
        return {"type": "table", **self.summary()}

    def seats_here(self) -> set[str]:
        """The seats with a WebSocket of the table open at this server."""
        return {connection.seat for connection in self.connections
                if connection.seat is not None and not connection.closed}

    def spectators_here(self) -> int:
        """How many spectators' WebSockets of the table are open at this server."""
        return sum(1 for connection in self.connections
                   if connection.seat is None and not connection.closed)

    def summary(self) -> Json:
        seats_elsewhere, spectators_elsewhere = self.elsewhere
        connected = self.seats_here() | seats_elsewhere
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
                           "count": spectators_elsewhere + self.spectators_here()},
            "turn_seconds": self.row.turn_seconds,
            "to_move": None if self.result is not None else self.state.to_move,
            "ply": self.ply,
            "result": serialize.result_json(self.shown_result),
            "rematch": self.row.rematch,
            "rematch_of": self.row.rematch_of,
        }

    def broadcast(self) -> None:
        """Send every connection the table's state (nothing while its result is pending)."""
        if self.result_pending:
            return
        public: Json | None = None
        for connection in list(self.connections):
            if connection.seat is None:
                if public is None:
                    public = serialize.public_view(self.row.game, self.state)
                connection.send(self.state_frame(None, public))
            else:
                connection.send(self.state_frame(connection.seat))

    def send_state(self, connection: Connection) -> None:
        """Send ``connection`` the table's state (its first frame, say); nothing while the
        result is pending: the frame that tells it comes to every connection."""
        if not self.result_pending:
            connection.send(self.state_frame(connection.seat))

    def broadcast_table(self) -> None:
        frame = self.table_frame()
        for connection in list(self.connections):
            connection.send(frame)

    def send_to_seat(self, seat: str, frame: Json, everywhere: bool | None = None) -> None:
        """Send ``frame`` to ``seat``'s connections; ``everywhere`` (by default: when this
        server drives the table) to those at the other servers too (a state frame is then
        made by each server from its own copy)."""
        for connection in list(self.connections):
            if connection.seat == seat:
                connection.send(frame)
        if (self.owner if everywhere is None else everywhere) and self.hub.cluster.shared:
            told = {"type": "state"} if frame.get("type") == "state" else frame
            self.hub.tell({"e": "seat", "t": self.id, "seat": seat, "frame": told})

    def tell_chat(self, line: Json) -> None:
        """A chat line stored (here or at another server): every connection is told."""
        frame = chat_frame(line)
        self.said.append(frame)
        self.send_all(frame)

    def chat_history(self, stored: list[Json]) -> list[Json]:
        """The frames of the table's last chat lines: ``stored`` (read from the database) with
        the lines told here since, a line said during that read included, each once."""
        frames = [chat_frame(line) for line in stored]
        known = {_chat_key(frame) for frame in frames}
        frames += [frame for frame in self.said if _chat_key(frame) not in known]
        frames.sort(key=lambda frame: frame["at"])
        return frames[-CHAT_HISTORY:]

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
        live.advanced()
        live.settle_handed(seat)
        live.broadcast()  # (the last move is told with the result, once stored: not yet)

    def on_rejected(self, state: GameState[Any, Any], seat: str, error: IllegalAction) -> None:
        self.live.pending_text = None

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        """(The table's task stores the result and tells everyone: ``LiveTable.finish``.)"""
        live = self.live
        if result.reason == FORFEIT and live.state.result is None:
            live.forfeit = result
        live.stop_timer()
        live.advanced()
        live.settle_handed()


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
