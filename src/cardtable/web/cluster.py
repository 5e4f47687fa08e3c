"""The servers of one database: each server's identity and heartbeat, and the bus on which they
tell each other what changed.

Every server has a random id and a row in ``servers`` whose ``heartbeat`` it writes every
``lease / 4`` seconds; a server whose heartbeat is older than ``lease`` seconds is gone, and
the others take over its tables. Events are tiny JSON objects ("table T has ply 17 stored"),
never a state, a hand or a token: a server that hears one reads what changed from the
database.

- :class:`LocalCluster`: one server (SQLite, or a test of one process). Events are delivered
  in the process, after the transaction that published them commits. On a store, it keeps its
  own ``servers`` row, so that a second process on the same SQLite file is refused.
- :class:`PostgresCluster`: any number of servers on one PostgreSQL. Events travel by
  ``LISTEN``/``NOTIFY`` on the channel of their table, ``cardtable_t_<table id>``, which a
  server listens to only while it holds that table (published inside a store transaction, an
  event is delivered when it commits: "stored, then told" is one transaction); requests to
  one server travel on its own channel ``cardtable_<id>``. A lost connection is made again,
  and the server is then told ``{"e": "resync"}`` so that it catches up from the database on
  what it may have missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, cast

from sqlalchemy import Connection, Engine, delete, event, insert, select, text, update

from cardtable.web import schema
from cardtable.web.backoff import Backoff

if TYPE_CHECKING:
    import psycopg

    from cardtable.web.store import Store

log = logging.getLogger("cardtable.web")

Json = dict[str, Any]
LEASE = 5.0
"""Seconds without a heartbeat before a server counts as gone (``cardtable serve --lease``)."""
CHANNEL = "cardtable"
"""The start of every channel: a table's events go to ``cardtable_t_<table id>``, requests to
one server to ``cardtable_<its id>``."""
MAX_PAYLOAD = 7000
"""Bytes of one event, request or answer (PostgreSQL carries at most 8,000)."""
FORGET_DEAD_AFTER = 3600.0
"""Seconds after its last heartbeat when a gone server's row is deleted."""
HEALTHY_SHARE = 0.75
"""A server whose heartbeat could not be written for this share of ``lease`` stops driving
its tables (others may take them once the whole lease has passed). Every write is fenced by
the lease anyway: this only spares work that could not be stored, so the margin is wide
enough for a heartbeat written late on a loaded machine (beats are ``lease / 4`` apart)."""
PROBE_WAIT = 30.0
"""Seconds at least that a quiet listening connection may take to answer ``SELECT 1`` before it
is made again (a busy server answers late; a dead peer is found by TCP keepalives sooner)."""
RECONNECT = Backoff(first=0.1, cap=5.0)
"""Waits between tries to make the bus's connection again."""
SEND_RETRY = Backoff(first=0.05, cap=1.0, attempts=5)
"""Tries of an event published outside a transaction, while the database is away a moment."""
STOP_WAIT = 3.0
"""Seconds a stopping server waits for its last events to be sent."""
START_LIMIT = 30.0
"""Seconds a starting server waits for the database to take its row (a busy machine)."""
FOLLOW_LIMIT = 10.0
"""Seconds :meth:`Cluster.follow` waits for the listening connection before it gives up (the
database away)."""

Subscriber = Callable[["Event"], None]
RequestHandler = Callable[[Json], Awaitable[Json | None]]
"""Answers a request of another server (None: no answer is sent; the asker learns otherwise,
or gives up)."""


class Event(TypedDict, total=False):
    """What changed at a table (docs/web.md, "Running several servers")."""

    e: str
    """The kind: move, end, seats, table, chat, seat, owner, here (a WebSocket of the table
    opened, said its seat or closed at the server that publishes it); resync is never
    published."""
    t: str
    """The table's id."""
    s: str
    """The id of the server that published it."""
    p: int
    """move: the moves up to this ply are stored."""
    deadline: float | None
    """move: when the turn timer of the next mover ends (time.time()), if it has one."""
    m: str
    """move: the move of ply ``p`` (absent when long: the servers read it from the
    database)."""
    w: str
    """move: the seat that played it."""
    line: dict[str, Any]
    """chat: the line stored."""
    seat: str
    """seat: the seat the frame is for."""
    frame: dict[str, Any]
    """seat: the frame for that seat only."""
    o: str
    """owner: the server that now drives the table."""
    epoch: int
    """owner: its epoch."""
    h: list[str]
    """here: the seats of the table with a WebSocket open at the server that publishes it."""
    n: int
    """here: how many spectators' WebSockets of the table are open there."""


class Unreachable(Exception):
    """A request got no answer: the server is gone, or it did not answer in time."""


class AnotherServer(Exception):
    """Another server process uses the same SQLite file (one line for the user)."""


class Cluster(Protocol):
    """This server among the servers of its database (see the module's docstring)."""

    @property
    def server_id(self) -> str:
        """This server's id (32 hex digits, made at its start)."""

    @property
    def lease(self) -> float:
        """Seconds without a heartbeat before a server is gone."""

    @property
    def shared(self) -> bool:
        """Whether other servers may share the database (PostgreSQL)."""

    @property
    def healthy(self) -> bool:
        """False while this server's heartbeat could not be written for
        :data:`HEALTHY_SHARE` of ``lease``: others may soon take its tables, so it must not
        drive them."""

    async def start(self) -> None:
        """Write this server's row, listen, and start the heartbeat."""

    async def stop(self) -> None:
        """Hand this server's unfinished tables over (owner None), delete its row, stop
        listening."""

    def subscribe(self, handler: Subscriber) -> None:
        """Call ``handler`` on the event loop with every event of the tables this server
        follows, published by the other servers (one server alone: by itself,
        ``e["s"] == server_id``), and with ``resync``."""

    def on_request(self, handler: RequestHandler) -> None:
        """Answer the requests other servers send to this one with ``handler``."""

    async def request(self, server_id: str, body: Json, timeout: float = 10.0) -> Json:
        """``server_id``'s answer to ``body``; raises :class:`Unreachable` when that server
        is not running or does not answer within ``timeout`` seconds."""

    def message(self, event: Event) -> str:
        """``event`` as this server publishes it on its table's channel (stamped with its id,
        encoded; ValueError as ``publish_in``)."""

    def publish_in(self, conn: Connection, event: Event) -> None:
        """Publish ``event`` when the transaction of ``conn`` commits (nothing if it rolls
        back); raises ValueError for one over ``MAX_PAYLOAD`` bytes."""

    def publish(self, event: Event) -> None:
        """Publish ``event`` now, outside any transaction (ValueError as ``publish_in``)."""

    def alive_since(self) -> float:
        """The time (``time.time()``) a server's heartbeat must be at least to count as
        running."""

    async def follow(self, table_id: str) -> None:
        """Hear the events of ``table_id`` from now on (returns once they are heard); raises
        :class:`Unreachable` when the database does not answer in :data:`FOLLOW_LIMIT`
        seconds, or, the listening connection lost, as soon as a try to make it again fails
        (the table is then heard once the bus connects again, and the server is told
        ``resync``)."""

    async def until_heard(self, table_id: str) -> None:
        """Once the events of ``table_id`` are heard, however long it takes (after
        :meth:`follow` gave up waiting: a busy bus, or one lost and connecting again), or it
        is followed no more, or the server stops."""

    def follows(self, table_id: str) -> bool:
        """Whether the events of ``table_id`` are heard (:meth:`follow` has returned)."""

    def unfollow(self, table_id: str) -> None:
        """Stop hearing the events of ``table_id`` (no longer held here)."""


TABLE_CHANNEL = f"{CHANNEL}_t_"


def table_channel(table_id: str) -> str:
    """The channel of the events of ``table_id``."""
    return TABLE_CHANNEL + table_id


def follows_id(table_id: str) -> bool:
    """Whether ``table_id`` can be a table's id, and so have a channel (a name of at most 63
    bytes)."""
    return 0 < len(table_id) <= 32 and table_id.isascii() and table_id.isprintable()


def new_server_id() -> str:
    return secrets.token_hex(16)


def encode(message: Json) -> str:
    """``message`` as the JSON a notification carries; ValueError when it is too long."""
    payload = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    size = len(payload.encode())
    if size > MAX_PAYLOAD:
        raise ValueError(f"A message of {size} bytes is over the {MAX_PAYLOAD} bytes the "
                         "servers' bus carries.")
    return payload


class _Bus:
    """What both clusters share: the server's identity, its subscribers and request handler,
    and delivery on the event loop."""

    shared = False

    def __init__(self, lease: float) -> None:
        self.server_id = new_server_id()
        self.lease = lease
        self.host = socket.gethostname()[:255]
        self.pid = os.getpid()
        self.started = time.time()
        self.subscribers: list[Subscriber] = []
        self.handler: RequestHandler | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: set[asyncio.Task[Any]] = set()

    def subscribe(self, handler: Subscriber) -> None:
        self.subscribers.append(handler)
        self._see_loop()

    def on_request(self, handler: RequestHandler) -> None:
        self.handler = handler

    def alive_since(self) -> float:
        return time.time() - self.lease

    async def follow(self, table_id: str) -> None:
        """(One server: every event is heard.)"""

    async def until_heard(self, table_id: str) -> None:
        """(One server: every event is heard.)"""

    def follows(self, table_id: str) -> bool:
        return True

    def unfollow(self, table_id: str) -> None:
        """(One server: every event is heard.)"""

    def stamped(self, event: Event) -> Event:
        """``event`` with this server as its origin."""
        stamped = cast(Event, dict(event))
        stamped["s"] = self.server_id
        return stamped

    def message(self, event: Event) -> str:
        return encode(cast(Json, self.stamped(event)))

    def _see_loop(self) -> None:
        if self.loop is None:
            with contextlib.suppress(RuntimeError):
                self.loop = asyncio.get_running_loop()

    def deliver(self, event: Event) -> None:
        """Give ``event`` to every subscriber (on the event loop); one that fails is logged
        and the others still get it."""
        for subscriber in list(self.subscribers):
            try:
                subscriber(event)
            except Exception:
                log.exception("a handler of the servers' event %s failed", event.get("e"))

    def deliver_soon(self, events: list[Event]) -> None:
        """Deliver ``events`` on the event loop, in order, from any thread."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return  # nobody listens yet (or any more)
        for item in events:
            try:
                loop.call_soon_threadsafe(self.deliver, item)
            except RuntimeError:  # the loop closed meanwhile
                return

    async def answer(self, body: Json) -> Json | None:
        """This server's own answer to ``body`` (None: none)."""
        if self.handler is None:
            raise Unreachable("The server takes no requests.")
        return await self.handler(body)

    def spawn(self, coroutine: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def cancel_tasks(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(BaseException):
                await task
        self.tasks.clear()


# --- one server -----------------------------------------------------------------------------

_PENDING = "cardtable_events"
"""Key, in a database connection's ``info``, of the events published in its transaction."""
_COMMITTED = "cardtable_committed"
"""Key of the events whose transaction committed, delivered when the connection is returned."""


class LocalCluster(_Bus):
    """One server: events are delivered in the process (after their transaction commits),
    requests go only to itself, and it is always healthy (nobody else may take its tables).

    On ``store``, it writes its ``servers`` row and heartbeat, and :meth:`register` refuses to
    start while another live process uses the same database (one process per SQLite file)."""

    def __init__(self, store: Store | None = None, lease: float = LEASE) -> None:
        super().__init__(lease)
        self.store = store
        self.registered = False
        self.beating: asyncio.Task[None] | None = None
        self._engines: weakref.WeakSet[Engine] = weakref.WeakSet()
        # Keys of this cluster's events in a connection's ``info`` (another cluster may
        # publish on the same database).
        self._pending = (_PENDING, self.server_id)
        self._committed = (_COMMITTED, self.server_id)

    @property
    def healthy(self) -> bool:
        return True

    def register(self) -> None:
        """Write this server's row; raises :class:`AnotherServer` while another live process
        has one (a row whose heartbeat is recent and whose process, on this machine, runs)."""
        if self.store is None or self.registered:
            return
        now = time.time()
        servers = schema.servers
        with self.store.engine.begin() as conn:
            # A write first: SQLite then holds its write lock to the end, so that two servers
            # starting at once cannot both find the file free.
            conn.execute(delete(servers).where(servers.c.heartbeat < now - FORGET_DEAD_AFTER))
            for row in conn.execute(select(servers)).all():
                if self._runs(row.host, row.pid, row.heartbeat, now):
                    raise AnotherServer(
                        f"Another cardtable server (process {row.pid} on {row.host}) uses this "
                        "database; several server processes need PostgreSQL.")
                conn.execute(delete(servers).where(servers.c.id == row.id))
            conn.execute(insert(servers).values(id=self.server_id, host=self.host,
                                                pid=self.pid, started=self.started,
                                                heartbeat=now))
        self.registered = True

    def unregister(self) -> None:
        """Delete this server's row (it will not serve after all)."""
        if self.store is not None and self.registered:
            self.registered = False
            with contextlib.suppress(Exception):
                _leave(self.store.engine, self.server_id)

    def _runs(self, host: str, pid: int, heartbeat: float, now: float) -> bool:
        if heartbeat < now - self.lease:
            return False
        if host != self.host:
            return True  # (a process on another machine: its heartbeat tells)
        if pid == self.pid:
            return False  # a server of this process stopped without a word
        return process_runs(pid)

    async def start(self) -> None:
        self._see_loop()
        if self.store is None:
            return
        await asyncio.to_thread(self.register)
        self.beating = asyncio.create_task(self._beat_forever())

    async def _beat_forever(self) -> None:
        assert self.store is not None
        engine = self.store.engine
        while True:
            await asyncio.sleep(self.lease / 4)
            try:
                await asyncio.to_thread(_beat, engine, self)
            except Exception as error:  # the file busy a moment: the next beat will do
                log.debug("heartbeat not written: %s", error)

    async def stop(self) -> None:
        if self.beating is not None:
            self.beating.cancel()
            with contextlib.suppress(BaseException):
                await self.beating
            self.beating = None
        await self.cancel_tasks()
        if self.store is not None and self.registered:
            self.registered = False
            try:
                await asyncio.to_thread(_leave, self.store.engine, self.server_id)
            except Exception as error:
                log.warning("could not delete this server's row: %s", error)

    async def request(self, server_id: str, body: Json, timeout: float = 10.0) -> Json:
        if server_id != self.server_id:
            raise Unreachable(f"No server {server_id[:32]} is running.")
        try:
            return await asyncio.wait_for(self.answer(body), timeout) or {}
        except TimeoutError:
            raise Unreachable("The server did not answer in time.") from None

    def publish(self, event: Event) -> None:
        stamped = self.stamped(event)
        encode(cast(Json, stamped))
        self._see_loop()
        self.deliver_soon([stamped])

    def publish_in(self, conn: Connection, event: Event) -> None:
        stamped = self.stamped(event)
        encode(cast(Json, stamped))
        self._watch(conn.engine)
        conn.info.setdefault(self._pending, []).append(stamped)

    def _watch(self, engine: Engine) -> None:
        """Deliver the events of ``engine``'s transactions once they commit: they wait in the
        connection's ``info`` until its commit (dropped at a rollback), then until the
        connection goes back to the pool, which is after the commit is done."""
        if engine in self._engines:
            return
        self._engines.add(engine)
        pending_key, committed_key = self._pending, self._committed

        def committed(conn: Connection) -> None:
            pending = conn.info.pop(pending_key, None)
            if pending:
                conn.info.setdefault(committed_key, []).extend(pending)

        def rolled_back(conn: Connection) -> None:
            conn.info.pop(pending_key, None)

        def returned(_dbapi: Any, record: Any) -> None:
            done = record.info.pop(committed_key, None)
            record.info.pop(pending_key, None)
            if done:
                self.deliver_soon(done)

        event.listen(engine, "commit", committed)
        event.listen(engine, "rollback", rolled_back)
        event.listen(engine.pool, "checkin", returned)


def _beat(engine: Engine, bus: _Bus) -> None:
    """Write ``bus``'s heartbeat (its row again if it was deleted meanwhile)."""
    now = time.time()
    servers = schema.servers
    with engine.begin() as conn:
        done = conn.execute(update(servers).where(servers.c.id == bus.server_id)
                            .values(heartbeat=now))
        if not done.rowcount:
            conn.execute(insert(servers).values(id=bus.server_id, host=bus.host, pid=bus.pid,
                                                started=bus.started, heartbeat=now))


def process_runs(pid: int) -> bool:
    """Whether process ``pid`` of this machine runs (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _leave(engine: Engine, server_id: str) -> None:
    """Hand ``server_id``'s unfinished tables over and delete its row."""
    tables, servers = schema.tables, schema.servers
    with engine.begin() as conn:
        conn.execute(update(tables).where(tables.c.owner == server_id,
                                          tables.c.status != "finished").values(owner=None))
        conn.execute(delete(servers).where(servers.c.id == server_id))


# --- several servers on PostgreSQL ----------------------------------------------------------

NOTIFY = text("SELECT pg_notify(:channel, :payload)")


class _Link:
    """One autocommit connection, made again on the next use after it failed; each use has a
    time limit (a database that hangs makes it fail, not wait)."""

    def __init__(self, conninfo: str, options: Json, limit: float) -> None:
        self.conninfo = conninfo
        self.options = options
        self.limit = limit
        self.conn: psycopg.AsyncConnection[Any] | None = None
        self.connecting = asyncio.Lock()

    async def connection(self) -> psycopg.AsyncConnection[Any]:
        async with self.connecting:
            if self.conn is None or self.conn.closed:
                import psycopg

                self.conn = await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True, **self.options)
            return self.conn

    async def run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of ``sql`` (none for a statement without rows)."""
        rows: list[tuple[Any, ...]] = await self._limited(self._run(sql, params), self.limit)
        return rows

    async def _run(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        conn = await self.connection()
        cursor = await conn.execute(sql.encode(), params)
        return await cursor.fetchall() if cursor.description is not None else []

    async def count(self, sql: str, params: tuple[Any, ...] = (),
                    limit: float | None = None) -> int:
        """The rows ``sql`` changed (within ``limit`` seconds, else the link's own)."""
        async def counted() -> int:
            conn = await self.connection()
            cursor = await conn.execute(sql.encode(), params)
            return cursor.rowcount

        changed: int = await self._limited(counted(), limit or self.limit)
        return changed

    async def _limited(self, call: Awaitable[Any], limit: float) -> Any:
        try:
            return await asyncio.wait_for(call, limit)
        except BaseException:
            await self.drop()
            raise

    async def drop(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()


SEND_BATCH = 500
"""Messages one round trip sends at most."""
SEND_MANY = (
    "SELECT x.i, pg_notify(x.c, x.p) FROM unnest(%s::int[], %s::text[], %s::text[], "
    "%s::text[]) AS x(i, c, p, s) WHERE x.s IS NULL OR EXISTS "
    "(SELECT 1 FROM servers WHERE servers.id = x.s AND servers.heartbeat >= %s)")
"""Sends a batch of messages in one statement, each in order, one to a server only while its
heartbeat is fresh; gives the positions of those sent."""


class _Outgoing:
    """A message waiting to be sent: an event, a request or an answer."""

    __slots__ = ("channel", "payload", "sent", "to")

    def __init__(self, channel: str, payload: str, to: str | None = None,
                 sent: asyncio.Future[bool] | None = None) -> None:
        self.channel = channel
        self.payload = payload
        self.to = to
        """For a request: the server that must be running to be sent it."""
        self.sent = sent
        """For a request: told whether it was sent (False: no such server runs); its
        exception when the database did not take it."""


def _listen_sql(listen: list[str], stop: Sequence[str] = ()) -> bytes:
    """One round trip that listens to the channels ``listen`` and no more to ``stop``."""
    def quoted(channel: str) -> str:
        return '"' + channel.replace('"', '""') + '"'

    return "; ".join([*(f"LISTEN {quoted(channel)}" for channel in listen),
                      *(f"UNLISTEN {quoted(channel)}" for channel in stop)]).encode()


def conninfo_of(engine: Engine) -> str:
    """The psycopg connection string of ``engine``'s database."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresCluster(_Bus):
    """Servers sharing one PostgreSQL database (see the module's docstring). Two connections of
    its own besides the store's: one listens; one sends every event, request and answer, as
    many as are waiting in one round trip (in order), so that a busy server sends more in each
    rather than queueing behind its own sends. The heartbeat is written on a thread of its own
    with the store's connections."""

    shared = True

    def __init__(self, store: Store, lease: float = LEASE) -> None:
        super().__init__(lease)
        self.store = store
        self.conninfo = conninfo_of(store.engine)
        keepalive = max(1, int(lease / 2))
        self.options: Json = {
            "connect_timeout": max(2, int(lease)),
            "application_name": f"cardtable {self.server_id[:8]}",
            "keepalives": 1, "keepalives_idle": keepalive, "keepalives_interval": 1,
            "keepalives_count": 2}
        self.link = _Link(self.conninfo, self.options, max(2.0, lease / 2))
        self.reply_channel = f"{CHANNEL}_{self.server_id}"
        self.beaten = time.monotonic()
        """When the heartbeat was last written (``time.monotonic()``)."""
        self.beating: threading.Thread | None = None
        self.beating_stopped = threading.Event()
        self.waiting: dict[str, asyncio.Future[Json]] = {}
        """Our requests waiting for their answers, by id."""
        self.outbox: asyncio.Queue[_Outgoing] = asyncio.Queue()
        """Events published outside a transaction, requests and answers: sent in order by one
        task, in batches."""
        self.listener: psycopg.AsyncConnection[Any] | None = None
        self.listening = False
        self.running = False
        self.followed: dict[str, asyncio.Future[None]] = {}
        """The tables whose events this server hears, each done once its channel is listened
        to."""
        self.listened: set[str] = set()
        """The tables listened to on the listening connection."""
        self.follows_changed = asyncio.Event()
        """Set when :attr:`followed` changed: the listening connection listens to the new
        tables and stops listening to those dropped."""
        self.own_tail = f',"s":"{self.server_id}"}}'
        """How every event this server publishes ends (heard back, it is dropped unread)."""
        self.reconnect_now = asyncio.Event()
        """Set by :meth:`follow` while the listening connection is lost: it is made again at
        once rather than after the rest of its wait."""
        self.reconnect_failed: asyncio.Future[None] | None = None
        """Done when the next try to make the listening connection again fails."""

    @property
    def healthy(self) -> bool:
        return time.monotonic() - self.beaten < self.lease * HEALTHY_SHARE

    async def start(self) -> None:
        self._see_loop()
        self.running = True
        self._end_frozen_transactions()
        now = time.time()
        await self.link.count("DELETE FROM servers WHERE heartbeat < %s",
                              (now - FORGET_DEAD_AFTER,), START_LIMIT)
        await self.link.count(
            "INSERT INTO servers (id, host, pid, started, heartbeat) VALUES (%s, %s, %s, %s, %s)",
            (self.server_id, self.host, self.pid, self.started, now), START_LIMIT)
        self.beaten = time.monotonic()
        # Listening before the server serves: no event after this point is missed.
        first = await self._listen_once()
        self.spawn(self._listen_forever(first))
        self.beating_stopped.clear()
        self.beating = threading.Thread(target=self._beat_forever, daemon=True,
                                        name=f"cardtable-heartbeat-{self.server_id[:8]}")
        self.beating.start()
        self.spawn(self._send_forever())

    def _end_frozen_transactions(self) -> None:
        """Have the database end a transaction of this server's that stays idle for ``lease``
        seconds: a server frozen in the middle of one (a stopped process, a machine that
        hangs) would otherwise keep its table's row locked, and no other server could take
        the table over when its lease runs out. Its own work is tried again when it wakes."""
        limit = f"SET idle_in_transaction_session_timeout = {int(self.lease * 1000)}"

        def limited(dbapi_connection: Any, _record: Any) -> None:
            with dbapi_connection.cursor() as cursor:
                cursor.execute(limit)
            dbapi_connection.commit()

        event.listen(self.store.engine, "connect", limited)
        self.store.engine.dispose()  # (the connections opened before are made again)

    async def stop(self) -> None:
        if not self.running:
            return
        self.running = False
        with contextlib.suppress(TimeoutError):  # (the last events sent first)
            await asyncio.wait_for(self.outbox.join(), STOP_WAIT)
        await self.cancel_tasks()
        self.beating_stopped.set()
        if self.beating is not None:
            await asyncio.to_thread(self.beating.join, STOP_WAIT)
        unanswered: list[asyncio.Future[Any]] = [*self.waiting.values(),
                                                 *self.followed.values()]
        for waiting in unanswered:
            if not waiting.done():
                waiting.set_exception(Unreachable("This server is stopping."))
                waiting.exception()  # (nobody may be waiting for it)
        self.waiting.clear()
        self.followed.clear()
        try:
            await self.link.count(
                "UPDATE tables SET owner = NULL WHERE owner = %s AND status <> 'finished'",
                (self.server_id,))
            await self.link.count("DELETE FROM servers WHERE id = %s", (self.server_id,))
        except Exception as error:
            log.warning("could not hand this server's tables over: %s", error)
        await self.link.drop()
        await self._close_listener()

    # --- which tables are heard ---

    async def follow(self, table_id: str) -> None:
        heard = self.followed.get(table_id)
        if heard is None:
            if not follows_id(table_id):
                raise ValueError(f"No table can have the id {table_id[:40]!r}.")
            heard = self.followed[table_id] = asyncio.get_running_loop().create_future()
            self.follows_changed.set()
        if heard.done():
            return heard.result()
        waits: list[asyncio.Future[Any]] = [asyncio.shield(heard)]
        if not self.listening:  # (the database away, or back and not yet listened to: try now)
            if self.reconnect_failed is None or self.reconnect_failed.done():
                self.reconnect_failed = asyncio.get_running_loop().create_future()
            waits.append(asyncio.shield(self.reconnect_failed))
            self.reconnect_now.set()
        done, _pending = await asyncio.wait(waits, timeout=FOLLOW_LIMIT,
                                            return_when=asyncio.FIRST_COMPLETED)
        for waiting in waits:
            waiting.cancel()
        if not heard.done():
            raise Unreachable("The database did not answer in time." if not done
                              else "The database does not answer.")
        return heard.result()

    async def until_heard(self, table_id: str) -> None:
        heard = self.followed.get(table_id)
        if heard is not None and not heard.done():
            with contextlib.suppress(Unreachable):  # (the server stops)
                await asyncio.shield(heard)

    def follows(self, table_id: str) -> bool:
        heard = self.followed.get(table_id)
        return (heard is not None and heard.done() and not heard.cancelled()
                and heard.exception() is None)

    def unfollow(self, table_id: str) -> None:
        heard = self.followed.pop(table_id, None)
        if heard is not None:
            if not heard.done():  # (whoever waits for it reads the table and finds it unheard)
                heard.set_result(None)
            self.follows_changed.set()

    def _heard_now(self, tables: set[str]) -> None:
        """``tables`` are listened to now: whoever waits for them goes on."""
        for table_id in tables:
            heard = self.followed.get(table_id)
            if heard is not None and not heard.done():
                heard.set_result(None)

    # --- listening ---

    async def _listen_once(self) -> psycopg.AsyncConnection[Any]:
        import psycopg

        conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True,
                                                     **self.options)
        conn.add_notify_handler(self._heard)
        tables = set(self.followed)
        self.follows_changed.clear()
        try:
            await conn.execute(_listen_sql([self.reply_channel,
                                            *map(table_channel, tables)]))
        except BaseException:
            await conn.close()
            raise
        self.listener = conn
        self.listening = True
        self.listened = tables
        self._heard_now(tables)
        return conn

    async def _close_listener(self) -> None:
        conn, self.listener = self.listener, None
        self.listening = False
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    async def _listen_forever(self, conn: psycopg.AsyncConnection[Any]) -> None:
        import psycopg

        while True:
            try:
                await self._hear(conn)
            except (psycopg.Error, OSError, TimeoutError) as error:
                log.warning("lost the servers' bus (%s); connecting again",
                            str(error).strip().splitlines()[0] if str(error).strip()
                            else type(error).__name__)
            await self._close_listener()
            for delay in RECONNECT.delays():
                with contextlib.suppress(TimeoutError):  # (or at once, when a table waits)
                    await asyncio.wait_for(self.reconnect_now.wait(), delay)
                self.reconnect_now.clear()
                try:
                    conn = await self._listen_once()
                    break
                except (psycopg.Error, OSError) as error:
                    log.info("servers' bus: cannot connect yet (%s)", error)
                    failed, self.reconnect_failed = self.reconnect_failed, None
                    if failed is not None and not failed.done():
                        failed.set_result(None)
            log.warning("servers' bus connected again; catching up from the database")
            # Listening again: whatever was published meanwhile is in the database.
            self.deliver({"e": "resync", "s": self.server_id})

    async def _hear(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Every notification of ``conn`` until it fails, listening to the tables followed
        as they come and go; a quiet connection is asked whether it still answers every
        ``lease / 2`` seconds."""
        while True:
            await self._listen_to_followed(conn)
            if not await self._hear_until_followed_change(conn):
                await asyncio.wait_for(conn.execute(b"SELECT 1"), max(PROBE_WAIT, self.lease))

    async def _listen_to_followed(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Listen to the tables followed since the last time, and no more to those
        dropped."""
        self.follows_changed.clear()
        wanted = set(self.followed)
        new, dropped = wanted - self.listened, self.listened - wanted
        if new or dropped:
            await asyncio.wait_for(conn.execute(
                _listen_sql(list(map(table_channel, new)), list(map(table_channel, dropped)))),
                max(PROBE_WAIT, self.lease))
            self.listened = (self.listened | new) - dropped
        # Every table followed is heard now: one dropped and followed again before this look
        # was never left, and is not new.
        self._heard_now(wanted & self.listened)

    async def _hear_until_followed_change(self, conn: psycopg.AsyncConnection[Any]) -> bool:
        """The notifications of ``conn`` for ``lease / 2`` seconds, or until the tables
        followed change (then True); raises the connection's error when it fails. They are
        read as they come, by a callback of the event loop on the connection's socket (no
        task wakes up for them); those that come while ``conn`` runs a statement are given
        by psycopg to :meth:`_heard`."""
        import psycopg

        changed = self.follows_changed
        if changed.is_set():
            return True
        loop = asyncio.get_running_loop()
        failed: asyncio.Future[None] = loop.create_future()
        pgconn, encoding = conn.pgconn, conn.info.encoding
        fileno = pgconn.socket

        def readable() -> None:
            try:
                pgconn.consume_input()
                while (notify := pgconn.notifies()) is not None:
                    self._received(notify.relname.decode(encoding),
                                   notify.extra.decode(encoding))
            except (psycopg.Error, OSError) as error:
                loop.remove_reader(fileno)
                if not failed.done():
                    failed.set_exception(error)

        loop.add_reader(fileno, readable)
        waking = asyncio.ensure_future(changed.wait())
        try:
            await asyncio.wait((failed, waking), timeout=self.lease / 2,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            loop.remove_reader(fileno)
            waking.cancel()
        if failed.done():
            failed.result()
        return changed.is_set()

    def _heard(self, notify: psycopg.Notify) -> None:
        self._received(notify.channel, notify.payload)

    def _received(self, channel: str, payload: str) -> None:
        if channel != self.reply_channel and (
                payload.endswith(self.own_tail)  # (its own: it told its own connections)
                or channel[len(TABLE_CHANNEL):] not in self.followed):  # (dropped meanwhile)
            return
        try:
            message = json.loads(payload)
        except ValueError:
            log.warning("a message on the servers' bus is no JSON: %.60r", payload)
            return
        if not isinstance(message, dict):
            return
        if channel != self.reply_channel:
            if isinstance(message.get("e"), str):
                self.deliver(cast(Event, message))
        elif "q" in message:
            self.spawn(self._serve(message))
        elif "a" in message:
            waiting = self.waiting.pop(str(message["a"]), None)
            if waiting is not None and not waiting.done():
                if "error" in message:
                    waiting.set_exception(Unreachable(str(message["error"])))
                else:
                    waiting.set_result(message.get("body") or {})

    # --- requests ---

    async def request(self, server_id: str, body: Json, timeout: float = 10.0) -> Json:
        if server_id == self.server_id:
            try:
                return await asyncio.wait_for(self.answer(body), timeout) or {}
            except TimeoutError:
                raise Unreachable("This server did not answer in time.") from None
        question = secrets.token_hex(8)
        payload = encode({"q": question, "from": self.server_id, "body": body})
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Json] = loop.create_future()
        sent: asyncio.Future[bool] = loop.create_future()
        self.waiting[question] = answer
        try:
            async with asyncio.timeout(timeout):
                self.outbox.put_nowait(_Outgoing(f"{CHANNEL}_{server_id}", payload, server_id,
                                                 sent))
                try:
                    if not await sent:
                        raise Unreachable(f"No server {server_id[:32]} is running.")
                except Unreachable:
                    raise
                except Exception as error:
                    raise Unreachable(f"The database did not take the request: {error}") \
                        from None
                return await answer
        except TimeoutError:
            raise Unreachable(f"Server {server_id[:32]} did not answer in time.") from None
        finally:
            self.waiting.pop(question, None)

    async def _serve(self, message: Json) -> None:
        """Answer a request of another server."""
        asker, question = message.get("from"), message.get("q")
        if not isinstance(asker, str) or not asker.isalnum() or len(asker) > 32:
            return
        body = message.get("body")
        try:
            answered = await self.answer(body if isinstance(body, dict) else {})
            if answered is None:
                return
            payload = encode({"a": question, "body": answered})
        except Exception as error:
            if not isinstance(error, Unreachable | ValueError):
                log.exception("a request of server %s failed", asker)
            payload = encode({"a": question, "error": str(error)[:500] or "failed"})
        self.outbox.put_nowait(_Outgoing(f"{CHANNEL}_{asker}", payload))

    # --- publishing ---

    def publish_in(self, conn: Connection, event: Event) -> None:
        payload = self.message(event)
        conn.execute(NOTIFY, {"channel": table_channel(event["t"]), "payload": payload})

    def publish(self, event: Event) -> None:
        outgoing = _Outgoing(table_channel(event["t"]), self.message(event))
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if self.loop is None or running is self.loop:
            self.outbox.put_nowait(outgoing)  # (sent once started)
        else:
            self.loop.call_soon_threadsafe(self.outbox.put_nowait, outgoing)

    async def _send_forever(self) -> None:
        while True:
            batch = [await self.outbox.get()]
            while len(batch) < SEND_BATCH and not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            try:
                await self._send(batch)
            finally:
                for _ in batch:
                    self.outbox.task_done()

    async def _send(self, batch: list[_Outgoing]) -> None:
        """Send ``batch`` in one round trip, tried again a few times while the database is
        away a moment; a request whose asker gave up meanwhile is not sent."""
        for delay in [*SEND_RETRY.delays(), None]:
            batch = [item for item in batch if item.sent is None or not item.sent.done()]
            if not batch:
                return
            try:
                rows = await self.link.run(SEND_MANY, (
                    list(range(len(batch))), [item.channel for item in batch],
                    [item.payload for item in batch], [item.to for item in batch],
                    self.alive_since()))
            except Exception as error:
                if delay is not None:
                    await asyncio.sleep(delay)
                    continue
                log.warning("%d messages of the servers' bus were not sent (%s)", len(batch),
                            error)
                for item in batch:
                    if item.sent is not None and not item.sent.done():
                        item.sent.set_exception(error)
                return
            sent = {int(row[0]) for row in rows}
            for position, item in enumerate(batch):
                if item.sent is not None and not item.sent.done():
                    item.sent.set_result(position in sent)
            return

    # --- the heartbeat ---

    def write_heartbeat(self) -> None:
        """Write this server's heartbeat (its row again if it was deleted meanwhile)."""
        _beat(self.store.engine, self)

    def _beat_forever(self) -> None:
        """The heartbeat, on a thread of its own with the store's connections: a server whose
        event loop is busy with its tables still beats, so that only a server that cannot reach
        the database (or has stopped) loses its tables."""
        swept = time.monotonic()
        while not self.beating_stopped.wait(self.lease / 4 if self.healthy else self.lease / 10):
            attempt = time.monotonic()
            try:
                self.write_heartbeat()
                self.beaten = attempt
                if attempt - swept > 60:
                    swept = attempt
                    with self.store.engine.begin() as conn:
                        conn.execute(delete(schema.servers).where(
                            schema.servers.c.heartbeat < time.time() - FORGET_DEAD_AFTER))
            except Exception as error:
                log.info("heartbeat not written: %s", error)


def cluster_for(store: Store, lease: float = LEASE) -> Cluster:
    """The cluster of ``store``'s database: shared on PostgreSQL, local on SQLite."""
    if store.engine.dialect.name == "postgresql":
        return PostgresCluster(store, lease)
    return LocalCluster(store, lease)
