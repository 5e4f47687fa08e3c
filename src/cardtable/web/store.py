"""Storage: every table, seat, move and chat line is written as it happens.

SQLite (a file in the user's data directory by default) or PostgreSQL, through SQLAlchemy 2.
The schema is created and upgraded by the Alembic migrations shipped in
``cardtable/web/migrations`` when the store opens. A call that meets the database away for a
moment is tried again briefly, then raises :class:`StoreUnavailable`.

Several servers may share one PostgreSQL database: each unfinished table is driven by one of
them, its owner (``tables.owner``, with ``tables.epoch`` counting the changes of owner). A
move or a result is stored only by the owner whose lease (``(server id, epoch)``) the table
still holds, checked in the transaction that stores it (:class:`LeaseLost` otherwise). Every
write that changes what a table shows tells the other servers in its own transaction, through
``Store.cluster`` (``cardtable.web.cluster``): "stored, then told" is one commit.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
)
from sqlalchemy.exc import SQLAlchemyError as SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import StaticPool

from cardtable.web import schema
from cardtable.web.backoff import Backoff, retry_call

if TYPE_CHECKING:
    from cardtable.web.cluster import Cluster, Event

log = logging.getLogger("cardtable.web")

P = ParamSpec("P")
T = TypeVar("T")

STORE_RETRY = Backoff(first=0.05, cap=0.2, attempts=4)
"""Each call's own short retry (about a third of a second in all): enough for a lock held a
moment or a connection dropped by a restarted server, short enough for a request to wait."""
ONE_TRY = Backoff(first=0.0, cap=0.0, attempts=1)
SQLITE_BUSY_MS = 5000
"""How long SQLite itself waits for another writer's lock before it reports it locked."""
CONNECT_TIMEOUT = 5
"""Seconds to wait for PostgreSQL to accept a connection (a host that does not answer)."""


class StoreError(Exception):
    """The database cannot be opened or used; the message is one line for the user."""


class LeaseLost(StoreError):
    """The table is driven by another server now (its owner or epoch changed): this server
    may not store its moves or its result. Not transient: trying again changes nothing."""


Lease = tuple[str, int]
"""A table's lease: the id of the server driving it and the epoch it took it at."""


class StoreUnavailable(StoreError):
    """The database did not answer, even after a short retry: the call changed nothing and may
    be made again later (``Store.answering`` is False until a call succeeds)."""


def transient(error: BaseException) -> bool:
    """Whether ``error`` is the database being away for a moment rather than a wrong query: a
    lost or refused connection, a server starting or stopping, SQLite's lock held by another
    writer, a pool with no connection free."""
    if isinstance(error, StoreUnavailable | PoolTimeout):
        return True
    if not isinstance(error, DBAPIError):
        return False
    if error.connection_invalidated:
        return True
    if not isinstance(error, OperationalError):
        return False
    if isinstance(error.orig, sqlite3.OperationalError):
        # SQLite's other operational errors (no such table, a read-only file) stay errors.
        reason = str(error.orig).lower()
        return "locked" in reason or "busy" in reason
    return True


def _first_line(error: BaseException) -> str:
    lines = str(getattr(error, "orig", None) or error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def default_url() -> str:
    """``sqlite:///DATA/cardtable/web.sqlite3`` with DATA = $XDG_DATA_HOME or ~/.local/share."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return f"sqlite:///{Path(base) / 'cardtable' / 'web.sqlite3'}"


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` URLs use psycopg 3 (the ``web`` extra)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class TableRow:
    id: str
    game: str
    params: dict[str, Any]
    seed: int
    status: str
    private: bool
    spectators: bool
    turn_seconds: int | None
    created: float
    finished: float | None
    result: dict[str, Any] | None
    rematch_of: str | None
    rematch: str | None
    # --- tables (presence, quick match, bot pace) ---
    bot_delay: float | None = None
    """Seconds before each bot move at this table (None: the server's ``--bot-delay``)."""
    quick: bool = False
    """Made by a quick match."""
    activity: float | None = None
    """The last move, join or start (the lobby's order; moves are written in batches)."""
    # --- ownership (several servers) ---
    owner: str | None = None
    """The id of the server driving the table (None: nobody yet, or its server stopped)."""
    epoch: int = 0
    """How many times the table changed owner (its lease is ``(owner, epoch)``)."""


@dataclass
class SeatRow:
    seat: str
    position: int
    kind: str
    token_hash: str | None
    player_id: str | None
    name: str | None


@dataclass
class TableParts:
    """What :meth:`Store.table_parts` read of a table: each part not asked is None."""

    row: TableRow | None
    seats: list[SeatRow] | None
    moves: list[tuple[int, str, str]] | None
    """``(ply, seat, move)`` of the moves after the ply asked, in order."""


def _table_row(row: Any) -> TableRow:
    return TableRow(row.id, row.game, json.loads(row.params), int(row.seed), row.status,
                    bool(row.private), bool(row.spectators), row.turn_seconds, row.created,
                    row.finished, None if row.result is None else json.loads(row.result),
                    row.rematch_of, row.rematch, row.bot_delay, bool(row.quick), row.activity,
                    row.owner, int(row.epoch or 0))


_inside = threading.local()
"""Set on a thread while one of its calls runs, so that a call made by another is not retried
on its own as well (the outer call's retry covers it)."""


def _retried(method: Callable[Concatenate[Store, P], T]) -> Callable[Concatenate[Store, P], T]:
    """``method`` tried again by the store's policy while its error is transient; then
    :class:`StoreUnavailable`. Every call records whether the database answered."""

    @functools.wraps(method)
    def call(store: Store, /, *args: P.args, **kwargs: P.kwargs) -> T:
        if getattr(_inside, "call", False):
            return method(store, *args, **kwargs)

        def retrying(error: BaseException, delay: float) -> None:
            store.troubles += 1
            log.info("database call %s failed (%s); trying again in %.2f s", method.__name__,
                     _first_line(error), delay)

        _inside.call = True
        try:
            # Known to be away: one try, so that no request waits for what will not come (the
            # tables' own retries go on; the first call that works makes it known back).
            policy = store.retry if store.answering else ONE_TRY
            result = retry_call(lambda: method(store, *args, **kwargs), policy, transient,
                                store.sleep, retrying)
        except StoreUnavailable:
            store.answering = False
            store.troubles += 1
            raise
        except Exception as error:
            if not transient(error):
                raise
            store.answering = False
            store.troubles += 1
            raise StoreUnavailable(f"The database is not answering: {_first_line(error)}.") \
                from error
        finally:
            _inside.call = False
        store.answering = True
        return result

    return call


NOT_RETRIED = frozenset({"close", "ping"})


def _every_call_retried(cls: type[Store]) -> type[Store]:
    """Wrap each public method of ``cls`` (each one short transaction) in :func:`_retried`, the
    ones added later included."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and name not in NOT_RETRIED and inspect.isfunction(member):
            setattr(cls, name, _retried(member))
    return cls


@_every_call_retried
class Store:
    """Synchronous access to the database; each call is one short transaction.

    A call that meets the database away for a moment (see :func:`transient`) is tried again
    by ``retry``; when it still fails it raises :class:`StoreUnavailable`, having changed
    nothing, and the caller decides: refuse with a message, or try again later."""

    def __init__(self, url: str, retry: Backoff = STORE_RETRY,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.url = normalize_url(url)
        self.retry = retry
        self.sleep = sleep
        self.answering = True
        """False after a call the database did not answer, True again after one it did."""
        self.troubles = 0
        """How many times a call met the database away (and was tried again, or gave up): a
        write whose answer was lost then may have been done all the same."""
        from cardtable.web.cluster import LocalCluster

        self.cluster: Cluster = LocalCluster()
        """How the writes tell the other servers (the app sets the server's own)."""
        self.engine = _open_engine(self.url)
        migrate(self.engine)
        # Built once: a move is stored on every turn of every table.
        self._insert_move = insert(schema.moves)

    def close(self) -> None:
        self.engine.dispose()

    # --- tables -------------------------------------------------------------------------------

    def add_table(self, table: TableRow, seat_rows: Sequence[SeatRow]) -> None:
        """Store a new table and its seats; this server owns it (epoch 1), and ``table``'s
        ``owner`` and ``epoch`` say so."""
        table.owner, table.epoch = self.cluster.server_id, 1
        try:
            self._insert_table(table, seat_rows)
        except IntegrityError:
            stored = self.table(table.id)
            if stored is None or (stored.seed, stored.created) != (table.seed, table.created):
                raise
            # (an earlier try of this call stored it, and its answer was lost)

    def _insert_table(self, table: TableRow, seat_rows: Sequence[SeatRow]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(schema.tables).values(
                id=table.id, game=table.game, params=json.dumps(table.params), seed=table.seed,
                status=table.status, private=table.private, spectators=table.spectators,
                turn_seconds=table.turn_seconds, created=table.created, finished=None,
                result=None, rematch_of=table.rematch_of, rematch=None,
                bot_delay=table.bot_delay, quick=table.quick,
                activity=table.created if table.activity is None else table.activity,
                owner=table.owner, epoch=table.epoch))
            conn.execute(insert(schema.seats), [
                {"table_id": table.id, "seat": seat.seat, "position": seat.position,
                 "kind": seat.kind, "token_hash": seat.token_hash, "player_id": seat.player_id,
                 "name": seat.name}
                for seat in seat_rows
            ])

    def table(self, table_id: str) -> TableRow | None:
        return self.table_parts(table_id, seats=False).row

    def table_parts(self, table_id: str, *, row: bool = True, seats: bool = True,
                    moves_after: int | None = None) -> TableParts:
        """The table's row, its seats and the moves stored after ``moves_after`` (each when
        asked), read on one connection. The row is read first: a result stored is read with
        every move before it."""
        tables, moves = schema.tables, schema.moves
        read = TableParts(None, None, None)
        with self.engine.connect() as conn:
            if row:
                found = conn.execute(select(tables).where(tables.c.id == table_id)).first()
                read.row = None if found is None else _table_row(found)
            if seats:
                read.seats = _seat_rows(conn, table_id)
            if moves_after is not None:
                rows = conn.execute(select(moves.c.ply, moves.c.seat, moves.c.move)
                                    .where(moves.c.table_id == table_id,
                                           moves.c.ply > moves_after)
                                    .order_by(moves.c.ply)).all()
                read.moves = [(int(move.ply), move.seat, move.move) for move in rows]
        return read

    def unfinished_tables(self) -> list[TableRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.tables)
                                .where(schema.tables.c.status != "finished")
                                .order_by(schema.tables.c.created)).all()
        return [_table_row(row) for row in rows]

    def set_status(self, table_id: str, status: str) -> None:
        """The table's status, unless it is finished (a late write never reopens a table)."""
        with self.engine.begin() as conn:
            done = conn.execute(update(schema.tables).where(schema.tables.c.id == table_id,
                                                            schema.tables.c.status != "finished")
                                .values(status=status))
            if done.rowcount:
                self.tell_in(conn, {"e": "table", "t": table_id})

    def finish(self, table_id: str, result: dict[str, Any], lease: Lease | None = None) -> None:
        """Store the table's result. With ``lease``, only while the table still holds it
        (:class:`LeaseLost` otherwise)."""
        with self.engine.begin() as conn:
            if lease is not None:
                _check_lease(conn, table_id, lease)
            conn.execute(update(schema.tables).where(schema.tables.c.id == table_id)
                         .values(status="finished", finished=time.time(),
                                 result=json.dumps(result)))
            self.tell_in(conn, {"e": "end", "t": table_id})

    def set_rematch(self, table_id: str, rematch: str) -> bool:
        """Link ``rematch`` as the rematch of ``table_id``; False when another one is linked
        already."""
        tables = schema.tables
        with self.engine.begin() as conn:
            done = conn.execute(update(tables)
                                .where(tables.c.id == table_id, tables.c.rematch.is_(None))
                                .values(rematch=rematch))
            if done.rowcount:
                self.tell_in(conn, {"e": "table", "t": table_id})
                return True
            linked = conn.execute(select(tables.c.rematch)
                                  .where(tables.c.id == table_id)).scalar()
        return linked == rematch  # (an earlier try linked it, and its answer was lost)

    # --- owners (several servers on one database) --------------------------------------------

    def claim_orphans(self, server_id: str, alive_since: float,
                      limit: int | None) -> list[tuple[str, int]]:
        """Make ``server_id`` the owner of the unfinished tables nobody drives (no owner, or
        one whose heartbeat is older than ``alive_since``), the most recently active first, at
        most ``limit`` (None: all); each table's epoch goes up by one. Returns ``(table id,
        epoch)`` of each table claimed. Servers claiming at once each get other tables."""
        tables = schema.tables
        candidates = (select(tables.c.id)
                      .where(tables.c.status != "finished", _orphaned(alive_since))
                      .order_by(func.coalesce(tables.c.activity, tables.c.created).desc(),
                                tables.c.id))
        if limit is not None:
            candidates = candidates.limit(limit)
        if self.engine.dialect.name == "postgresql":
            candidates = candidates.with_for_update(skip_locked=True)
        with self.engine.begin() as conn:
            rows = conn.execute(update(tables).where(tables.c.id.in_(candidates))
                                .values(owner=server_id, epoch=tables.c.epoch + 1)
                                .returning(tables.c.id, tables.c.epoch)).all()
        return [(str(row.id), int(row.epoch)) for row in rows]

    def claim_table(self, table_id: str, server_id: str, alive_since: float) -> int | None:
        """Make ``server_id`` the owner of the unfinished table ``table_id`` if nobody drives
        it (see :meth:`claim_orphans`), or if it is its own already (a try whose answer was
        lost claimed it); its new epoch, or None when it has another live owner or is
        finished."""
        tables = schema.tables
        with self.engine.begin() as conn:
            row = conn.execute(update(tables)
                               .where(tables.c.id == table_id, tables.c.status != "finished",
                                      or_(_orphaned(alive_since), tables.c.owner == server_id))
                               .values(owner=server_id, epoch=tables.c.epoch + 1)
                               .returning(tables.c.epoch)).first()
        return None if row is None else int(row.epoch)

    def owned(self, server_id: str) -> list[tuple[str, int]]:
        """``(table id, epoch)`` of each unfinished table ``server_id`` owns."""
        tables = schema.tables
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables.c.id, tables.c.epoch)
                                .where(tables.c.owner == server_id,
                                       tables.c.status != "finished")).all()
        return [(str(row.id), int(row.epoch)) for row in rows]

    def release(self, server_id: str, table_ids: Sequence[str] | None = None) -> int:
        """Hand over the unfinished tables ``server_id`` owns (only ``table_ids`` when given):
        their owner becomes None, so that any server claims them at once. Returns how many."""
        tables = schema.tables
        statement = update(tables).where(tables.c.owner == server_id,
                                         tables.c.status != "finished")
        if table_ids is not None:
            statement = statement.where(tables.c.id.in_(list(table_ids)))
        with self.engine.begin() as conn:
            done = conn.execute(statement.values(owner=None))
        return int(done.rowcount)

    def servers(self, alive_since: float) -> list[tuple[str, str, int]]:
        """``(id, host, pid)`` of every server whose heartbeat is at least ``alive_since``."""
        servers = schema.servers
        with self.engine.connect() as conn:
            rows = conn.execute(select(servers.c.id, servers.c.host, servers.c.pid)
                                .where(servers.c.heartbeat >= alive_since)).all()
        return [(str(row.id), str(row.host), int(row.pid)) for row in rows]

    def forget_server(self, server_id: str) -> None:
        """Delete the row of a server known to be gone (its tables are then nobody's)."""
        with self.engine.begin() as conn:
            conn.execute(schema.servers.delete().where(schema.servers.c.id == server_id))

    def tell_in(self, conn: Connection, event: Event) -> None:
        """Tell every server of ``event`` when ``conn``'s transaction commits."""
        self.cluster.publish_in(conn, event)

    # --- seats --------------------------------------------------------------------------------

    def seats(self, table_id: str) -> list[SeatRow]:
        with self.engine.connect() as conn:
            return _seat_rows(conn, table_id)

    def claim_seat(self, table_id: str, seat: str, hashed: str, player_id: str | None,
                   name: str | None) -> bool:
        """Give a free human seat its token; False when someone took it first (True when
        it holds this token already: an earlier try took it, and its answer was lost)."""
        seats = schema.seats
        with self.engine.begin() as conn:
            done = conn.execute(update(seats)
                                .where(seats.c.table_id == table_id, seats.c.seat == seat,
                                       seats.c.kind == "human", seats.c.token_hash.is_(None))
                                .values(token_hash=hashed, player_id=player_id, name=name))
            if done.rowcount:
                self.tell_in(conn, {"e": "seats", "t": table_id})
                return True
            held = conn.execute(select(seats.c.token_hash).where(
                seats.c.table_id == table_id, seats.c.seat == seat)).scalar()
        return held == hashed

    # --- moves and chat -----------------------------------------------------------------------

    def add_move(self, table_id: str, ply: int, seat: str, move: str,
                 lease: Lease | None = None, deadline: float | None = None) -> None:
        """Store the move of ``ply``. A ply already stored is overwritten: it was written by a
        try whose answer was lost (the same move again), or by one its mover was told had
        failed, which nobody was shown; the live table is the truth of what was shown.

        With ``lease``, only while the table still holds it (:class:`LeaseLost` otherwise).
        The other servers are told that ``ply`` is stored, and ``deadline``: when the turn
        timer of the next turn runs out (None: no timer)."""
        values = {"table_id": table_id, "ply": ply, "seat": seat, "move": move,
                  "at": time.time()}
        told: Event = {"e": "move", "t": table_id, "p": ply, "deadline": deadline}
        if len(move) <= MOVE_TOLD_MAX:  # (the other servers need not read it)
            told["m"], told["w"] = move, seat
        if lease is not None and self.engine.dialect.name == "postgresql":
            self._add_move_fenced(values, lease, told)
            return
        if lease is not None:
            with self.engine.begin() as conn:
                _check_lease(conn, table_id, lease)
                try:
                    with conn.begin_nested():
                        conn.execute(self._insert_move, values)
                except IntegrityError:
                    if not _overwrite_move(conn, values):
                        raise
                self.tell_in(conn, told)
            return
        try:
            with self.engine.begin() as conn:
                conn.execute(self._insert_move, values)
                self.tell_in(conn, told)
        except IntegrityError:
            with self.engine.begin() as conn:
                overwritten = _overwrite_move(conn, values)
                if overwritten:
                    self.tell_in(conn, told)
            if not overwritten:
                raise

    def _add_move_fenced(self, values: dict[str, Any], lease: Lease, told: Event) -> None:
        """(PostgreSQL) :meth:`add_move` with ``lease``, in one statement: the table's row
        locked and its lease checked, the move written (or its ply's overwritten) and the
        other servers told, committed together."""
        from cardtable.web.cluster import table_channel

        with self.engine.connect() as conn:
            stored = conn.execution_options(isolation_level="AUTOCOMMIT").execute(
                FENCED_MOVE, {**values, "owner": lease[0], "epoch": lease[1],
                              "channel": table_channel(values["table_id"]),
                              "payload": self.cluster.message(told)}
            ).first()
        if stored is None:
            raise LeaseLost(f"Table {values['table_id']} is driven by another server now.")

    def moves_after(self, table_id: str, ply: int) -> list[tuple[int, str, str]]:
        """``(ply, seat, move)`` of every move stored after ``ply``, in order."""
        moves = self.table_parts(table_id, row=False, seats=False, moves_after=ply).moves
        assert moves is not None
        return moves

    def moves(self, table_id: str) -> list[tuple[str, str]]:
        return [(seat, move) for _ply, seat, move in self.moves_after(table_id, 0)]

    def add_chat(self, table_id: str, seat: str | None, name: str | None, text: str,
                 at: float) -> None:
        """Store a chat line, once: a line of the same seat, text and moment is one an
        earlier try stored (its answer lost)."""
        chat = schema.chat
        with self.engine.begin() as conn:
            stored = conn.execute(select(chat.c.id).where(
                chat.c.table_id == table_id, chat.c.at == at, chat.c.text == text,
                chat.c.seat.is_(None) if seat is None else chat.c.seat == seat)).first()
            if stored is not None:
                return
            conn.execute(insert(chat).values(table_id=table_id, seat=seat, name=name,
                                             text=text, at=at))
            self.tell_in(conn, {"e": "chat", "t": table_id,
                              "line": {"seat": seat, "name": name, "text": text, "at": at}})

    def chat(self, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.chat).where(schema.chat.c.table_id == table_id)
                                .order_by(schema.chat.c.id.desc()).limit(limit)).all()
        return [{"seat": row.seat, "name": row.name, "text": row.text, "at": row.at}
                for row in reversed(rows)]

    # --- players and ratings ------------------------------------------------------------------

    def add_player(self, player_id: str, name: str) -> bool:
        """False when the name is taken (by another player: one an earlier try of this call
        stored, its answer lost, is this player's)."""
        players = schema.players
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(players).values(id=player_id, name=name,
                                                    created=time.time()))
        except IntegrityError:
            with self.engine.connect() as conn:
                found = conn.execute(select(players.c.name)
                                     .where(players.c.id == player_id)).scalar()
            return found == name
        return True

    def player_name(self, player_id: str) -> str | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(schema.players.c.name)
                               .where(schema.players.c.id == player_id)).first()
        return None if row is None else str(row.name)

    def name_taken(self, name: str) -> bool:
        with self.engine.connect() as conn:
            row = conn.execute(select(schema.players.c.id)
                               .where(func.lower(schema.players.c.name) == name.lower())).first()
        return row is not None

    def ratings(self, game: str, player_ids: Sequence[str]) -> dict[str, tuple[float, float, int]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.ratings)
                                .where(schema.ratings.c.game == game,
                                       schema.ratings.c.player_id.in_(list(player_ids)))).all()
        return {row.player_id: (row.mu, row.sigma, row.games) for row in rows}

    def ping(self) -> None:
        """One try (no retry): raises :class:`StoreUnavailable` when the database does not
        answer now; records the answer in ``answering``."""
        try:
            with self.engine.connect() as conn:
                conn.execute(select(1))
        except SQLAlchemyError as error:
            self.answering = False
            raise StoreUnavailable(f"The database is not answering: {_first_line(error)}.") \
                from error
        self.answering = True

    # --- tables' activity (presence, quick match, bot pace) ---

    def touch(self, activity: Mapping[str, float]) -> None:
        """Set the last activity of each table of ``activity`` (id → time), in one
        transaction."""
        statement = (update(schema.tables).where(schema.tables.c.id == bindparam("table_id"))
                     .values(activity=bindparam("at")))
        with self.engine.begin() as conn:
            conn.execute(statement, [{"table_id": table_id, "at": at}
                                     for table_id, at in activity.items()])


def _seat_rows(conn: Connection, table_id: str) -> list[SeatRow]:
    rows = conn.execute(select(schema.seats).where(schema.seats.c.table_id == table_id)
                        .order_by(schema.seats.c.position)).all()
    return [SeatRow(row.seat, row.position, row.kind, row.token_hash, row.player_id, row.name)
            for row in rows]


def _orphaned(alive_since: float) -> Any:
    """The condition of a table nobody drives: no owner, or one whose heartbeat is older than
    ``alive_since``."""
    tables, servers = schema.tables, schema.servers
    alive = select(servers.c.id).where(servers.c.heartbeat >= alive_since)
    return or_(tables.c.owner.is_(None), tables.c.owner.not_in(alive))


MOVE_TOLD_MAX = 1000
"""Characters of a move the other servers are told with its event (a longer one they read)."""
FENCED_MOVE = text(
    "WITH lease AS (SELECT id FROM tables WHERE id = :table_id AND owner = :owner "
    "AND epoch = :epoch FOR UPDATE), "
    "stored AS (INSERT INTO moves (table_id, ply, seat, move, at) "
    "SELECT id, :ply, :seat, :move, :at FROM lease ON CONFLICT (table_id, ply) DO UPDATE "
    "SET seat = excluded.seat, move = excluded.move, at = excluded.at RETURNING ply) "
    "SELECT pg_notify(:channel, :payload) FROM stored")
"""A move stored while its table holds the lease, and told, in one statement (PostgreSQL)."""


def _overwrite_move(conn: Connection, values: dict[str, Any]) -> bool:
    """Overwrite a stored ply's move; False when the ply is not stored (the insert broke
    another constraint: no such table)."""
    done = conn.execute(update(schema.moves)
                        .where(schema.moves.c.table_id == values["table_id"],
                               schema.moves.c.ply == values["ply"])
                        .values(seat=values["seat"], move=values["move"], at=values["at"]))
    return bool(done.rowcount)


def _check_lease(conn: Connection, table_id: str, lease: Lease) -> None:
    """Lock the table's row until ``conn``'s transaction ends (a claim by another server
    waits for it, or this waits for the claim) and raise :class:`LeaseLost` unless the table
    still holds ``lease``."""
    tables = schema.tables
    row = conn.execute(select(tables.c.owner, tables.c.epoch).where(tables.c.id == table_id)
                       .with_for_update()).first()
    if row is None or (row.owner, int(row.epoch)) != lease:
        raise LeaseLost(f"Table {table_id} is driven by another server now.")


def _open_engine(url: str) -> Engine:
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StoreError(f"Invalid database URL '{url}'.") from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise StoreError(f"Unsupported database '{backend}' (use sqlite:///FILE or "
                         "postgresql://USER@HOST/NAME).")
    try:
        if backend == "sqlite":
            database = parsed.database or ""
            if database and database != ":memory:":
                Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            if database in ("", ":memory:"):
                engine = create_engine(url, poolclass=StaticPool,
                                       connect_args={"check_same_thread": False})
            else:
                engine = create_engine(url, connect_args={"check_same_thread": False})
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            # No ping before each use (a round trip every time): a connection the database
            # dropped (a restart) fails its statement as a lost connection, which replaces
            # every pooled connection of before that moment, and the call is tried again
            # (``transient``).
            engine = create_engine(url, connect_args={"connect_timeout": CONNECT_TIMEOUT})
        with engine.connect() as conn:
            conn.execute(select(1))
    except (NoSuchModuleError, SQLAlchemyError, OSError) as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()
        raise StoreError(f"Cannot open database '{parsed.render_as_string(hide_password=True)}'"
                         f": {reason[0] if reason else type(error).__name__}.") from None
    return engine


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={int(SQLITE_BUSY_MS)}")
    cursor.close()


def migrate(engine: Engine) -> None:
    """Apply every migration the database does not have yet."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    try:
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
    except SQLAlchemyError as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()
        raise StoreError(f"Cannot migrate the database: {reason[0] if reason else error}.") \
            from None
