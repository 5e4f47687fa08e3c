"""The hub: every live table of one server, by id.

It makes tables (``create``), seats people (``join``), brings tables back from the database
after a restart (``resume``, ``get``), rates finished games, pairs quick matches among people
who are here (``presence``), starts the operator's programs when a table's people are here
(``program_seats``), and closes abandoned tables from a sweep every few seconds
(``table_policy``). Each table's own life (its match loop, storing before telling, frames) is
``live.LiveTable``. With several servers on one database, which of them drives each table, and
what they tell each other, is ``table_owners``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from cardtable.engine.errors import GameError
from cardtable.engine.match import FORFEIT, Forfeit, forfeit_result
from cardtable.engine.protocol import Result
from cardtable.engine.record import ABANDONED
from cardtable.web import games, serialize, shared_store
from cardtable.web.cluster import Unreachable, follows_id
from cardtable.web.live import (
    FORGET_AFTER,
    HERE_STAMPS,
    KEEP_TRYING,
    STORE_THREADS,
    BotSeat,
    Connection,
    LiveTable,
)
from cardtable.web.presence import Presence, has_people
from cardtable.web.program_seats import ProgramSeat, cap_refusal, is_program
from cardtable.web.store import (
    LeaseLost,
    SeatRow,
    Store,
    StoreUnavailable,
    TableParts,
    TableRow,
    token_hash,
)
from cardtable.web.table_owners import NOT_REBUILT, TableOwners
from cardtable.web.table_policy import TablePolicy

if TYPE_CHECKING:
    from cardtable.web.cluster import Cluster, Event

log = logging.getLogger("cardtable.web")

T = TypeVar("T")


def new_table_id() -> str:
    """A new table's id: 12 characters, random (its channel's name is made of it)."""
    return secrets.token_urlsafe(9)


class Hub:
    """Every live table of the server, by id."""

    def __init__(self, store: Store, bot_delay: float = 0.0,
                 programs: games.Programs | None = None,
                 policy: TablePolicy | None = None, cluster: Cluster | None = None) -> None:
        self.store = store
        self.cluster: Cluster = store.cluster if cluster is None else cluster
        """This server among the servers of its database (the store's when None)."""
        self.bot_delay = bot_delay
        self.programs: games.Programs = dict(programs or {})
        """The programs the operator offers (``--allow-exec NAME=COMMAND``), by name."""
        self.policy = policy or TablePolicy()
        """Abandoned tables, quick matches, program caps (``cardtable serve`` options)."""
        self.clock: Callable[[], float] = time.time
        """The time presence and abandonment go by (tests set it)."""
        self.presence = Presence(store)
        self.program_seats: dict[str, list[ProgramSeat]] = {}
        """The program seats of each table playing, started when its people are here."""
        self.program_clients: dict[str, str] = {}
        """Who made each table with a program (the per-client cap)."""
        self.activity_ply: dict[str, int] = {}
        """The ply of each table when its activity was last written."""
        self.sweeper: asyncio.Task[None] | None = None
        self.retry = KEEP_TRYING
        """How moves that cannot be refused, and results, wait for the database."""
        self.store_threads = ThreadPoolExecutor(STORE_THREADS, "cardtable-store")
        """Where moves and results are stored: threads of their own, so that a store never
        waits behind a thinking bot, and the event loop never waits for the database."""
        self.later = ThreadPoolExecutor(1, "cardtable-later")
        """(Several servers) where what the other servers should know of this one's
        WebSockets closing is written: one thread, in order, off the event loop
        (:meth:`write_later`)."""
        self.tables: dict[str, LiveTable] = {}
        self.owners = TableOwners(self)
        """Which server drives each table (several servers on one database)."""

    @property
    def shared(self) -> bool:
        """Other servers may drive some of the tables (they share the database)."""
        return self.cluster.shared

    def tell(self, event: Event) -> None:
        """Tell the other servers of ``event`` (what is in no store transaction)."""
        try:
            self.cluster.publish(event)
        except ValueError as error:  # (too long for the bus: never a move's, a chat line's)
            log.error("table %s: event %s not told: %s", event.get("t"), event.get("e"), error)

    def rebuild(self, row: TableRow, parts: TableParts | None = None) -> LiveTable:
        """A table from its stored rules, seed and moves (each replayed with full checks);
        its seats and moves are ``parts`` when read already (with every move)."""
        if parts is None:
            parts = self.store.table_parts(row.id, row=False, moves_after=0)
        seat_rows, moves = parts.seats, parts.moves
        assert seat_rows is not None and moves is not None
        state = games.new_state(row.game, row.params, row.seed, [s.kind for s in seat_rows])
        live = LiveTable(row, seat_rows, state, self)
        for _ply, _seat, text in moves:
            state.apply(state.parse_action(text))
            live.ply += 1
        stored = row.result
        if state.result is None and stored is not None and stored.get("reason") in (
                FORFEIT, ABANDONED):
            live.forfeit = Result(tuple(stored.get("winners", ())), stored["reason"],
                                  dict(stored.get("details", {})))
        return live

    def rebuild_stored(self, table_id: str) -> LiveTable | None:
        """:meth:`rebuild` of the table stored as ``table_id`` (None when there is none), read
        on one connection."""
        parts = self.store.table_parts(table_id, moves_after=0)
        return None if parts.row is None else self.rebuild(parts.row, parts)

    def stored_summaries(self, table_ids: list[str]) -> dict[str, dict[str, Any]]:
        """(On a store thread) the summaries of the tables ``table_ids``, as the database has
        them, without bringing any into memory: a list of tables shown must not make this
        server hold (and, with several servers, hear every move of) each table it lists. Each
        one is rebuilt apart, with the WebSockets its presence rows show on the live servers;
        one that cannot be rebuilt is left out."""
        found: dict[str, dict[str, Any]] = {}
        for table_id in table_ids:
            try:
                live = self.rebuild_stored(table_id)
            except NOT_REBUILT:  # (left out, as :meth:`get` leaves it)
                continue
            if live is None:
                continue
            if self.shared:
                live.take_here(shared_store.here_by_server(
                    self.store, table_id, self.cluster.alive_since()), next(HERE_STAMPS))
            found[table_id] = live.summary()
        return found

    def resume(self) -> int:
        """Bring back every unfinished table (several servers: each one nobody drives);
        returns how many."""
        if self.shared:
            return self.owners.resume()
        count = 0
        for row in self.store.unfinished_tables():
            try:
                live = self.rebuild(row)
            except (GameError, games.TableError, ValueError) as error:
                log.error("table %s cannot be resumed: %s", row.id, error)
                continue
            self.hold(live)
            if live.state.result is not None:
                # Stopped between its last move and writing the result (or rating the game).
                live.finish_now(live.state.result)
                continue
            live.start()
            count += 1
        return count

    async def load(self, table_id: str) -> LiveTable | None:
        """:meth:`get`, with a table that is not in memory read only once this server hears
        its events (so nothing published meanwhile needs a catch-up); StoreUnavailable when
        the database does not answer."""
        if table_id in self.tables or not follows_id(table_id):
            return self.get(table_id)
        return await self._read_heard(table_id, lambda: self.get(table_id))

    async def _read_heard(self, table_id: str, read: Callable[[], T | None]) -> T | None:
        """``read()`` once this server hears the events of ``table_id``; they are heard no
        more when it finds nothing or fails, unless another read brought the table into
        memory meanwhile (StoreUnavailable when the database does not answer). ``read`` runs
        on the event loop, in one go: an event heard during a read made elsewhere would find
        no table here, and be lost."""
        try:
            await self.cluster.follow(table_id)
        except Unreachable as error:
            self._unheard(table_id)
            raise StoreUnavailable(str(error)) from None
        try:
            found = read()
        except BaseException:
            self._unheard(table_id)
            raise
        if found is None:
            self._unheard(table_id)
        return found

    def _unheard(self, table_id: str) -> None:
        if table_id not in self.tables:
            self.cluster.unfollow(table_id)

    def hold(self, live: LiveTable) -> LiveTable:
        """Keep ``live`` in memory (or the table of its id kept already), hearing its events:
        one read before this server heard them catches up once it does."""
        held = self.tables.setdefault(live.id, live)
        if held is live and not self.cluster.follows(live.id):
            catching_up = asyncio.get_running_loop().create_task(self._follow(live))
            live.background.add(catching_up)
            catching_up.add_done_callback(live.background.discard)
        return held

    async def _follow(self, live: LiveTable) -> None:
        try:
            await self.cluster.follow(live.id)
        except Unreachable:
            # Not heard in time (the bus busy, or lost and connecting again): caught up once
            # it is, however late, since what was stored meanwhile was told to nobody here.
            await self.cluster.until_heard(live.id)
        if self.tables.get(live.id) is live and self.cluster.follows(live.id):
            live.refresh("moves", "row", "seats", "here")

    def drop(self, table_id: str) -> None:
        """Forget ``table_id`` here (read again if asked), and stop hearing its events."""
        self.tables.pop(table_id, None)
        self.cluster.unfollow(table_id)

    def get(self, table_id: str) -> LiveTable | None:
        """The table ``table_id``: the one in memory, or the one stored brought into memory,
        driven or mirrored (None when there is none, or it cannot be rebuilt)."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if len(table_id) > 32:
            return None
        try:
            live = self.rebuild_stored(table_id)
        except NOT_REBUILT:
            return None
        if live is None:
            return None
        if self.shared:
            self.owners.claim_on_sight(live)
        self.hold(live)
        if live.row.status != "finished" and live.owner:
            if live.state.result is not None:  # stopped between its last move and result
                live.finish_now(live.state.result)
            else:
                live.start()
        return live

    def create(self, game: str, params: dict[str, Any], kinds: list[str], *,
               claim: list[str] | None, player: tuple[str, str] | None, private: bool,
               spectators: bool, turn_seconds: int | None,
               rematch_of: str | None = None, seed: int | None = None,
               names: dict[str, str] | None = None, bot_delay: float | None = None,
               quick: bool = False, client: str | None = None, table_id: str | None = None
               ) -> tuple[LiveTable, dict[str, str]]:
        """A new table; returns it and the tokens of the seats claimed now. ``bot_delay``
        None is the server's pace; ``quick`` marks a table a quick match made; ``client``
        made it (it counts against that client's programs); ``table_id`` is new when None
        (see :meth:`create_heard`)."""
        table_id = new_table_id() if table_id is None else table_id
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
        now = self.clock()
        row = TableRow(table_id, game, params, seed, "open" if free else "playing", private,
                       spectators, turn_seconds, time.time(), None, None, rematch_of, None,
                       bot_delay, quick)
        self.store.add_table(row, rows)
        live = LiveTable(row, rows, state, self,
                         lease=(row.owner, row.epoch) if self.shared and row.owner else None)
        live.here_known = True  # (nobody can have opened it anywhere yet)
        self.hold(live)
        self.presence.taken(table_id, list(tokens), now)
        self.activity_ply[table_id] = 0
        if client is not None and any(is_program(kind) for kind in kinds):
            self.program_clients[table_id] = client
        live.start()
        return live, tokens

    async def create_heard(self, game: str, params: dict[str, Any], kinds: list[str],
                           **options: Any) -> tuple[LiveTable, dict[str, str]]:
        """:meth:`create`, with the new table's events heard before it is stored (so nothing
        said of it at another server needs a catch-up); StoreUnavailable when the database
        does not answer."""
        table_id = new_table_id()
        made = await self._read_heard(
            table_id, lambda: self.create(game, params, kinds, table_id=table_id, **options))
        assert made is not None  # (create makes one or raises)
        return made

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
        self.presence.taken(live.id, [seat], self.clock())
        self.write_activity({live.id: time.time()})
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
        self.drop(table_id)

    def open_tables(self, game: str | None = None) -> list[LiveTable]:
        found = [live for live in self.tables.values()
                 if live.row.status != "finished" and not live.row.private
                 and (game is None or live.row.game == game)]
        found.sort(key=lambda live: live.row.created)
        return found

    def rate(self, live: LiveTable, result: Result) -> None:
        from cardtable.web.ratings import update_ratings

        update_ratings(self.store, live.row.game, live.seats, result, live.id)

    async def in_store_thread(self, call: Callable[[], T]) -> T:
        """``call()`` (a store call) on one of the store's threads."""
        return await asyncio.get_running_loop().run_in_executor(self.store_threads, call)

    def write_later(self, what: str, write: Callable[[], None]) -> None:
        """``write()`` on the thread of :attr:`later`, after the writes asked before it: a
        write the other servers should know of, which nobody waits for (a failure is
        logged; the write itself says what a database away loses)."""

        def done() -> None:
            try:
                write()
            except Exception as error:
                log.error("%s not written: %s", what, error, exc_info=error)

        # (Once the server is stopping, nothing more is written: its rows count no more.)
        with contextlib.suppress(RuntimeError):
            self.later.submit(done)

    async def shutdown(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
        await self.owners.stop()
        for live in list(self.tables.values()):
            await live.stop()
        external = sys.modules.get("cardtable.agents.external")
        if external is not None:  # every program still running goes with the server
            await asyncio.to_thread(external.close_all)
        self.store_threads.shutdown(wait=False)
        self.later.shutdown(wait=False)

    # --- presence, quick match, abandoned tables, programs --------------------------------------

    def arrived(self, live: LiveTable, connection: Connection, now: float | None = None,
                written: bool = False) -> None:
        """A WebSocket of ``live`` opened, or said its seat (a seat's: its person is here; at
        ``now``, the database told already when ``written``)."""
        self.tell_here(live)
        if connection.seat is None:
            return
        self.presence.connected(live, connection, self.clock() if now is None else now,
                                written)
        self.launch_programs(live)

    def left(self, live: LiveTable, connection: Connection) -> None:
        """A WebSocket of ``live`` closed."""
        self.tell_here(live)
        if connection.seat is not None:
            self.presence.left(live.id, self.clock(), self.write_later)

    def tell_here(self, live: LiveTable) -> None:
        """(Several servers) tell the others what of ``live`` is open here now: its seats'
        WebSockets and how many spectators' (each server's summary counts them)."""
        if self.shared:
            self.tell({"e": "here", "t": live.id, "h": sorted(live.seats_here()),
                       "n": live.spectators_here()})

    def pairable_tables(self, game: str, player: tuple[str, str] | None) -> list[LiveTable]:
        """The tables a quick match may seat a person at, the longest waiting first: public,
        not a rematch, a seat free, not already the person's own, and every person there here
        now or on their way (:meth:`Presence.pairable`)."""
        now, wait = self.clock(), self.policy.quick_wait
        shared = self.presence.pairable_ids(game, None if player is None else player[0], now,
                                            wait)
        if shared is not None:  # (several servers: every one's tables, from the database)
            return [live for live in map(self.get, shared) if live is not None]
        found = [live for live in self.tables.values()
                 if live.row.game == game and live.row.status == "open"
                 and not live.row.private and live.row.rematch_of is None
                 and live.free_seats and live.result is None
                 and not (player is not None
                          and any(seat.player_id == player[0] for seat in live.seats))
                 and self.presence.pairable(live, now, wait)]
        found.sort(key=lambda live: live.row.created)
        return found

    def program_refusal(self, kinds: list[str], client: str) -> str | None:
        """Why a new table with seats ``kinds`` made by ``client`` would go over a cap on
        programs; None when it would not."""
        unfinished = [(live.kinds, self.program_clients.get(live.id))
                      for live in self.tables.values() if live.result is None]
        return cap_refusal(self.policy, kinds, client, unfinished)

    def program_seat(self, live: LiveTable, loaded: Any, seat: str,
                     delay: float) -> ProgramSeat:
        """The seat of ``live``'s program at ``seat``, not started yet."""
        spec = next(row.kind for row in live.seats if row.seat == seat)[len("bot:"):]
        made = ProgramSeat(
            live, seat,
            lambda: games.make_bot(loaded, spec, seat, live.row.seed, self.programs),
            lambda bot: BotSeat(live, bot, delay, False, seat))
        self.program_seats.setdefault(live.id, []).append(made)
        return made

    def launch_programs(self, live: LiveTable, anyway: bool = False) -> None:
        """Start the programs of ``live`` once its match runs and one of its people is here
        (at once at a table of bots only, or ``anyway``: a table taken over from another
        server, where they ran)."""
        waiting = self.program_seats.get(live.id)
        if not waiting or live.task is None or live.result is not None:
            return
        if not anyway and has_people(live) and not live.seats_here():
            return
        for seat in waiting:
            seat.launch()

    def forfeit_now(self, live: LiveTable, forfeit: Forfeit) -> None:
        """End the game of ``live`` at once with ``forfeit`` (a program that could not start),
        whichever seat is to move."""
        if live.result is not None:
            return
        if live.storing:  # a move is being stored: it is played first
            asyncio.get_running_loop().call_later(0.05, self.forfeit_now, live, forfeit)
            return
        live.forfeit = forfeit_result(live.state, forfeit)
        if live.task is not None:  # every other program ends with the match
            live.task.cancel()
        live.finish_now(live.forfeit)

    async def abandon(self, live: LiveTable, gone: float) -> bool:
        """Close ``live`` as abandoned (result ``abandoned``, stored, never rated): its people
        have been gone for ``gone`` seconds. False when it could not be done now (the next
        sweep tries again)."""
        if live.result is not None or live.storing or not live.owner:
            return False
        minutes = max(1, round(gone / 60))
        result = Result((), ABANDONED, {
            "why": f"nobody was at the table for {minutes} minute{'s' * (minutes != 1)}"})
        stored = serialize.result_json(result) or {}
        try:  # (on a worker thread: the store's retries must not hold up the other tables)
            await asyncio.to_thread(live.store_result, stored)
        except StoreUnavailable as error:
            log.warning("table %s: not closed as abandoned yet: %s", live.id, error)
            return False
        except LeaseLost as error:  # (another server drives it now: its own sweep decides)
            log.warning("table %s: not closed as abandoned: %s", live.id, error)
            live.step_down()
            return False
        if live.result is not None:  # its game ended meanwhile: that result is written next
            return False
        live.forfeit = result
        live.stop_timer()
        if live.task is not None:  # its programs end with the match
            live.task.cancel()
        live.announce_end(stored)
        log.info("table %s closed as abandoned", live.id)
        return True

    async def sweep(self, now: float | None = None) -> list[str]:
        """Close every table whose people have all been gone too long (``policy``), write the
        activity of the tables where moves were played since the last sweep, and forget what
        is kept about finished tables. Returns the ids of the tables closed."""
        now = self.clock() if now is None else now
        closed: list[str] = []
        for live in list(self.tables.values()):
            if live.result is not None or not live.owner:
                continue
            gone = self.presence.gone_for(live, now)
            if gone is None or gone < self.policy.abandon_limit(live.ply):
                continue
            if await self.abandon(live, gone):
                closed.append(live.id)
            elif not self.store.answering:
                break  # the database is away: the next sweep tries again
        moved: dict[str, float] = {}
        plies: dict[str, int] = {}
        for table_id, live in list(self.tables.items()):
            if live.result is None and not live.owner and not live.connections:
                self.drop(table_id)  # (a mirror nobody here watches: read again if asked)
                continue
            if live.result is not None or not live.owner:
                continue
            written = self.activity_ply.setdefault(table_id, live.ply)
            if live.ply != written:
                moved[table_id], plies[table_id] = live.last_move, live.ply
        if moved:
            written_now: bool = await asyncio.to_thread(self.write_activity, moved)
            if written_now:
                self.activity_ply.update(plies)
        for kept in (self.program_seats, self.program_clients, self.activity_ply,
                     self.presence.tables):
            for table_id in [key for key in kept if key not in self.tables
                             or self.tables[key].result is not None]:
                del kept[table_id]
        return closed

    def write_activity(self, activity: dict[str, float]) -> bool:
        """Write the tables' last activity (id → time); False when the database did not
        take it (it is written at a later sweep)."""
        if not activity:
            return True
        try:
            self.store.touch(activity)
        except StoreUnavailable as error:
            log.info("tables' activity not written yet: %s", error)
            return False
        return True

    def start_sweeper(self) -> None:
        """Sweep every ``policy.sweep_every`` seconds while the server runs."""
        if self.sweeper is None:
            self.sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        self.owners.start()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.policy.sweep_every)
            try:
                await self.sweep()
            except Exception as error:  # the next sweep tries again
                log.error("the sweep of the tables failed: %s", error, exc_info=error)
