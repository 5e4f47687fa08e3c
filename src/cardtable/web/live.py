"""Live tables: each one a game state driven by the engine's async match loop.

The server owns every state and random source. People's seats wait for a move from their
WebSocket; bots think on a worker thread. Every move is stored before anyone is told of it;
a table is rebuilt after a restart from its rules, seed and stored moves (replayed with full
validation), and its match loop goes on from there.

A seat may be a program the operator offers (``bot:exec:NAME``, docs/web.md): it is started
with the match and answers on a worker thread like any bot, from its seat's observation only.
When it forfeits (or cannot start), the game ends with the result ``forfeit``; its process is
ended with the match, the table's task or the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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
from cardtable.web.store import SeatRow, Store, TableRow, token_hash

log = logging.getLogger("cardtable.web")

Json = dict[str, Any]
FORGET_AFTER = 600.0
"""Seconds a finished table stays in memory (then it is read back from the database when
asked for: its page, record or replay)."""
OUTBOX_LIMIT = 200
"""Frames queued for one connection; a client that falls this far behind is dropped."""


@dataclass
class Connection:
    """One WebSocket: a seat (``seat`` set) or a spectator; frames go through ``outbox``."""

    seat: str | None
    name: str | None
    send: Callable[[Json], None]
    closed: bool = False


class HumanSeat:
    """A person's seat: ``choose`` waits until a move arrives from their WebSocket."""

    def __init__(self, live: LiveTable, seat: str) -> None:
        self.live = live
        self.seat = seat
        self.waiter: asyncio.Future[Any] | None = None
        self.early: tuple[Any, str] | None = None
        """A move that arrived before the match loop asked for it (the frame announcing the
        turn can reach the player before the loop gets there)."""

    async def choose(self, observation: Any) -> Any:
        if self.early is not None:
            action, self.live.pending_text = self.early
            self.early = None
            return action
        self.waiter = asyncio.get_running_loop().create_future()
        self.live.start_timer(self)
        try:
            return await self.waiter
        finally:
            self.waiter = None
            self.live.stop_timer()

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
        self.live.pending_text = self.live.state.action_text(action)
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
    """The result of a game a program forfeited (the game's own state is not over)."""

    @property
    def result(self) -> Result | None:
        """The game's result, or the forfeit that ended it; None while it goes on."""
        result: Result | None = self.state.result
        return result if result is not None else self.forfeit

    @property
    def forfeited(self) -> tuple[str, str] | None:
        """``(seat, why)`` when a program's forfeit ended the game (the table's record ends
        with it), else None."""
        if self.forfeit is None:
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
            self.hub.store.set_status(self.id, "playing")
        seats: dict[str, Any] = {}
        loaded = games.load(self.row.game, self.row.params)
        for seat in self.seats:
            if seat.kind == "human":
                self.humans[seat.seat] = HumanSeat(self, seat.seat)
                seats[seat.seat] = self.humans[seat.seat]
                continue
            try:
                bot = games.make_bot(loaded, seat.kind[4:], seat.seat, self.row.seed,
                                     self.hub.programs)
            except GameError as error:  # a program that cannot start forfeits at once
                for other in seats.values():
                    if isinstance(other, BotSeat):  # the programs already started end
                        other.match_over(self.state.observation(other.seat), None)
                forfeit = Forfeit(seat.seat, error.message.rstrip("."))
                TableListener(self).on_end(self.state, forfeit_result(self.state, forfeit))
                return
            seats[seat.seat] = BotSeat(self, bot, self.hub.bot_delay,
                                       games.instant(self.row.game, seat.kind[4:]), seat.seat)
        self.task = asyncio.get_running_loop().create_task(
            play_match_async(self.state, seats, (TableListener(self),)))
        self.task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[Any]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None and not isinstance(error, MatchAbandoned):
            log.error("table %s stopped: %s", self.id, error, exc_info=error)

    async def stop(self) -> None:
        self.stop_timer()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

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
        if human is None or human.early is not None or (
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
        self.pending_text = self.state.action_text(action)
        human.waiter.set_result(action)
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
        generator seeded by the table's seed and the ply, so resumes stay reproducible)."""
        if human.waiter is None or human.waiter.done():
            return
        legal = self.state.legal_actions()
        chooser = random.Random(f"{self.row.seed}:timer:{self.ply}")
        action = legal[chooser.randrange(len(legal))]
        self.pending_text = self.state.action_text(action)
        human.waiter.set_result(action)
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
    """Stores each move as it is applied, tells every connection, and closes the table."""

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
        live.hub.store.add_move(live.id, live.ply, seat, text)
        if state.result is None:
            live.broadcast()

    def on_rejected(self, state: GameState[Any, Any], seat: str, error: IllegalAction) -> None:
        self.live.pending_text = None

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        live = self.live
        if result.reason == FORFEIT and live.state.result is None:
            live.forfeit = result
        live.stop_timer()
        live.row.status = "finished"
        stored = serialize.result_json(result) or {}
        live.hub.store.finish(live.id, stored)
        live.row.finished = time.time()
        live.row.result = stored
        with contextlib.suppress(Exception):
            live.hub.rate(live, result)
        live.broadcast()
        live.broadcast_table()
        asyncio.get_running_loop().call_later(FORGET_AFTER, live.hub.forget, live.id)


class Hub:
    """Every live table of the server, by id."""

    def __init__(self, store: Store, bot_delay: float = 0.0,
                 programs: games.Programs | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.programs: games.Programs = dict(programs or {})
        """The programs the operator offers (``--allow-exec NAME=COMMAND``), by name."""
        self.tables: dict[str, LiveTable] = {}

    def rebuild(self, row: TableRow) -> LiveTable:
        """A table from its stored rules, seed and moves (each replayed with full checks)."""
        seat_rows = self.store.seats(row.id)
        state = games.new_state(row.game, row.params, row.seed, [s.kind for s in seat_rows])
        live = LiveTable(row, seat_rows, state, self)
        for _seat, text in self.store.moves(row.id):
            state.apply(state.parse_action(text))
            live.ply += 1
        stored = row.result
        if state.result is None and stored is not None and stored.get("reason") == FORFEIT:
            live.forfeit = Result(tuple(stored.get("winners", ())), FORFEIT,
                                  dict(stored.get("details", {})))
        return live

    def resume(self) -> int:
        """Bring back every unfinished table; returns how many."""
        count = 0
        for row in self.store.unfinished_tables():
            try:
                live = self.rebuild(row)
            except (GameError, games.TableError, ValueError) as error:
                log.error("table %s cannot be resumed: %s", row.id, error)
                continue
            self.tables[row.id] = live
            if live.state.result is not None:
                # Stopped between its last move and writing the result.
                stored = serialize.result_json(live.state.result) or {}
                self.store.finish(row.id, stored)
                row.status, row.result = "finished", stored
                continue
            live.start()
            count += 1
        return count

    def get(self, table_id: str) -> LiveTable | None:
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if len(table_id) > 32:
            return None
        row = self.store.table(table_id)
        if row is None:
            return None
        try:
            live = self.rebuild(row)
        except (GameError, games.TableError, ValueError):
            return None
        self.tables[table_id] = live
        if row.status != "finished":
            live.start()
        return live

    def create(self, game: str, params: dict[str, Any], kinds: list[str], *,
               claim: list[str] | None, player: tuple[str, str] | None, private: bool,
               spectators: bool, turn_seconds: int | None,
               rematch_of: str | None = None, seed: int | None = None,
               names: dict[str, str] | None = None) -> tuple[LiveTable, dict[str, str]]:
        """A new table; returns it and the tokens of the seats claimed now."""
        table_id = secrets.token_urlsafe(9)
        seed = secrets.randbelow(2**53) if seed is None else seed
        state = games.new_state(game, params, seed, kinds)
        seat_names = list(state.seats)
        claimed = seat_names if claim is None else claim
        tokens: dict[str, str] = {}
        rows: list[SeatRow] = []
        first_claimed = True
        for position, (seat, kind) in enumerate(zip(seat_names, kinds, strict=True)):
            hashed = player_id = name = None
            if kind == "human" and seat in claimed:
                tokens[seat] = secrets.token_urlsafe(24)
                hashed = token_hash(tokens[seat])
                if names and seat in names:
                    name = names[seat]
                if player is not None and claim is not None and first_claimed:
                    player_id, name = player
                    first_claimed = False
            rows.append(SeatRow(seat, position, kind, hashed, player_id, name))
        free = any(row.kind == "human" and row.token_hash is None for row in rows)
        row = TableRow(table_id, game, params, seed, "open" if free else "playing", private,
                       spectators, turn_seconds, time.time(), None, None, rematch_of, None)
        self.store.add_table(row, rows)
        live = LiveTable(row, rows, state, self)
        self.tables[table_id] = live
        live.start()
        return live, tokens

    def join(self, live: LiveTable, seat: str | None, player: tuple[str, str] | None,
             name: str | None) -> tuple[str, str] | str:
        """(seat, token) for a free seat, or the refusal message."""
        free = live.free_seats
        if live.result is not None:
            return "The game is over."
        if seat is None:
            if not free:
                return "No seat is free at this table."
            seat = free[0]
        elif seat not in [s.seat for s in live.seats]:
            return f"No seat '{seat[:20]}' at this table."
        elif seat not in free:
            return f"The seat {seat} is not free."
        token = secrets.token_urlsafe(24)
        player_id, shown = (player if player is not None else (None, name))
        if not self.store.claim_seat(live.id, seat, token_hash(token), player_id, shown):
            return f"The seat {seat} is not free."
        for row in live.seats:
            if row.seat == seat:
                row.token_hash, row.player_id, row.name = token_hash(token), player_id, shown
        live.start()
        live.broadcast_table()
        if live.task is not None:
            live.broadcast()
        return seat, token

    def forget(self, table_id: str) -> None:
        """Drop a finished table from memory, unless someone is still connected to it."""
        live = self.tables.get(table_id)
        if live is None or live.row.status != "finished":
            return
        if live.connections:
            asyncio.get_running_loop().call_later(FORGET_AFTER, self.forget, table_id)
            return
        del self.tables[table_id]

    def open_tables(self, game: str | None = None) -> list[LiveTable]:
        found = [live for live in self.tables.values()
                 if live.row.status != "finished" and not live.row.private
                 and (game is None or live.row.game == game)]
        found.sort(key=lambda live: live.row.created)
        return found

    def rate(self, live: LiveTable, result: Result) -> None:
        from cardtable.web.ratings import update_ratings

        update_ratings(self.store, live.row.game, live.seats, result)

    async def shutdown(self) -> None:
        for live in list(self.tables.values()):
            await live.stop()
        external = sys.modules.get("cardtable.agents.external")
        if external is not None:  # every program still running goes with the server
            await asyncio.to_thread(external.close_all)


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
