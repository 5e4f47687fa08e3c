"""What several servers on one PostgreSQL database share besides the tables themselves: who is
here (a row per open table WebSocket, ``presence``; the seats taken whose page is on its way,
``presence_waits``; when each table's people were last here, ``presence_tables``), the rate
limits' token buckets (``rate_buckets``) and the locks that let one quick match or rematch
happen at a time.

A server counts only the rows of live servers: those whose heartbeat (``servers.heartbeat``)
is at least ``alive_since`` (the cluster's ``alive_since()``), so the sockets of a server that
died stop counting once its lease is over. Every function is one short transaction; one that
meets the database away for a moment is tried again as the store's calls are, then raises
:class:`~cardtable.web.store.StoreUnavailable`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
from collections.abc import Callable, Iterable, Iterator
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from sqlalchemy import Connection, Select, and_, delete, exists, func, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.exc import SQLAlchemyError

from cardtable.web import schema
from cardtable.web.backoff import retry_call
from cardtable.web.store import Store, StoreUnavailable, transient

log = logging.getLogger("cardtable.web")

P = ParamSpec("P")
T = TypeVar("T")

MAX_CLIENT_KEY = 100
"""A client key longer than this (an odd forwarded address) is kept as its SHA-256."""
LOCK_TIMEOUT_MS = 5000
"""How long a quick match or rematch waits for another server's (then: the database is
busy, try again)."""


class SharedCluster(Protocol):
    """What presence and limits ask of the server's cluster (``cardtable.web.cluster``)."""

    @property
    def server_id(self) -> str: ...

    @property
    def shared(self) -> bool: ...

    def alive_since(self) -> float: ...


def shared_cluster(store: Store) -> SharedCluster | None:
    """The store's cluster when other servers may share its database (PostgreSQL), else None
    (one server: presence and limits stay in its memory)."""
    cluster = getattr(store, "cluster", None)
    if cluster is None or not getattr(cluster, "shared", False):
        return None
    found: SharedCluster = cluster
    return found


def client_column(client: str) -> str:
    """``client`` as stored: itself, or its SHA-256 when it is too long for the column."""
    if len(client) <= MAX_CLIENT_KEY:
        return client
    return "sha256:" + hashlib.sha256(client.encode("utf-8", "surrogatepass")).hexdigest()


def _database_call(function: Callable[Concatenate[Store, P], T]
                   ) -> Callable[Concatenate[Store, P], T]:
    """``function`` tried again by the store's policy while its error is transient, then
    :class:`StoreUnavailable`; the store's ``answering`` kept as its own calls keep it."""

    @functools.wraps(function)
    def call(store: Store, /, *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            result = retry_call(lambda: function(store, *args, **kwargs), store.retry,
                                transient, store.sleep)
        except StoreUnavailable:
            store.answering = False
            raise
        except SQLAlchemyError as error:
            if not transient(error):
                raise
            store.answering = False
            raise StoreUnavailable("The database is not answering: "
                                   f"{str(getattr(error, 'orig', None) or error).strip()[:200]}."
                                   ) from error
        store.answering = True
        return result

    return call


def _live_servers(alive_since: float) -> Select[tuple[str]]:
    """The ids of the servers alive since ``alive_since`` (heartbeat at least then)."""
    return select(schema.servers.c.id).where(schema.servers.c.heartbeat >= alive_since)


# --- sockets -----------------------------------------------------------------------------------


@_database_call
def open_socket(store: Store, row_id: str, server_id: str, table_id: str, client: str,
                opened: float, limit: int | None, alive_since: float) -> bool:
    """Count a WebSocket of ``client`` opened on ``table_id``: a presence row, unless the
    client already holds ``limit`` sockets on live servers (False, nothing written)."""
    key = client_column(client)
    presence = schema.presence
    with store.engine.begin() as conn:
        if limit is not None:
            # One client's sockets are counted one at a time: two opened at once on two
            # servers cannot both take the last place.
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                         {"key": "sockets:" + key})
            count = conn.execute(
                select(func.count()).select_from(presence)
                .where(presence.c.client == key,
                       presence.c.server_id.in_(_live_servers(alive_since)))).scalar_one()
            if count >= limit:
                return False
        conn.execute(presence.insert().values(
            id=row_id, server_id=server_id, table_id=table_id[:32], seat=None, player_id=None,
            client=key, opened=opened))
    return True


@_database_call
def close_sockets(store: Store, row_ids: Iterable[str]) -> None:
    """The WebSockets' rows go (they closed)."""
    ids = list(row_ids)
    if ids:
        with store.engine.begin() as conn:
            conn.execute(delete(schema.presence).where(schema.presence.c.id.in_(ids)))


@_database_call
def seat_arrived(store: Store, row_id: str | None, table_id: str, seat: str,
                 player_id: str | None, now: float) -> None:
    """The WebSocket ``row_id`` is ``seat``'s now: its person is here (no longer on their way),
    and the table's people were here at ``now``."""
    with store.engine.begin() as conn:
        if row_id is not None:
            conn.execute(update(schema.presence).where(schema.presence.c.id == row_id)
                         .values(seat=seat, player_id=player_id))
        conn.execute(delete(schema.presence_waits)
                     .where(schema.presence_waits.c.table_id == table_id,
                            schema.presence_waits.c.seat == seat))
        _were_here(conn, table_id, now)


@_database_call
def seats_taken(store: Store, table_id: str, seats: list[str], now: float) -> None:
    """``seats`` of ``table_id`` were just taken: their people are on their way (and the
    table's people were here at ``now``)."""
    with store.engine.begin() as conn:
        for seat in seats:
            statement = pg_insert(schema.presence_waits).values(
                table_id=table_id, seat=seat, since=now)
            conn.execute(statement.on_conflict_do_update(
                index_elements=["table_id", "seat"], set_={"since": statement.excluded.since}))
        _were_here(conn, table_id, now)


@_database_call
def were_here(store: Store, table_id: str, now: float) -> None:
    """The table's people were here at ``now`` (one just left)."""
    with store.engine.begin() as conn:
        _were_here(conn, table_id, now)


def _were_here(conn: Connection, table_id: str, now: float) -> None:
    statement = pg_insert(schema.presence_tables).values(table_id=table_id, last_here=now)
    conn.execute(statement.on_conflict_do_update(
        index_elements=["table_id"],
        set_={"last_here": func.greatest(schema.presence_tables.c.last_here,
                                         statement.excluded.last_here)}))


@_database_call
def here_by_server(store: Store, table_id: str, alive_since: float, but: str | None = None
                   ) -> dict[str, tuple[frozenset[str], int]]:
    """Per live server (but ``but``): the seats of ``table_id`` with a WebSocket open there,
    and how many spectators' WebSockets are."""
    presence = schema.presence
    query = (select(presence.c.server_id, presence.c.seat, func.count())
             .where(presence.c.table_id == table_id,
                    presence.c.server_id.in_(_live_servers(alive_since)))
             .group_by(presence.c.server_id, presence.c.seat))
    if but is not None:
        query = query.where(presence.c.server_id != but)
    with store.engine.connect() as conn:
        rows = conn.execute(query).all()
    found: dict[str, tuple[frozenset[str], int]] = {}
    for row in rows:
        server, seat, count = str(row[0]), row[1], int(row[2])
        seats, spectators = found.get(server, (frozenset(), 0))
        found[server] = (seats | {seat}, spectators) if seat is not None else (
            seats, spectators + count)
    return found


def here(store: Store, table_id: str, alive_since: float) -> tuple[set[str], int]:
    """The seats of ``table_id`` with a WebSocket open on a live server, and how many
    spectators' WebSockets are open there."""
    found = here_by_server(store, table_id, alive_since).values()
    return set().union(*(seats for seats, _ in found)), sum(count for _, count in found)


@_database_call
def last_here(store: Store, table_id: str) -> float | None:
    """When a person of ``table_id`` was last known to be here, by any server."""
    with store.engine.connect() as conn:
        found = conn.execute(select(schema.presence_tables.c.last_here)
                             .where(schema.presence_tables.c.table_id == table_id)).first()
    return None if found is None else float(found[0])


@_database_call
def pairable_tables(store: Store, game: str, player_id: str | None, now: float, wait: float,
                    alive_since: float, limit: int = 20) -> list[str]:
    """The tables a quick match may seat a person at, the longest waiting first: public, of
    ``game``, open, not a rematch, a person's seat free, not one where ``player_id`` sits,
    someone took a seat, and every seat taken is here (a WebSocket on a live server) or was
    taken less than ``wait`` seconds ago by someone whose page has not connected yet."""
    tables, seats = schema.tables, schema.seats
    presence, waits = schema.presence, schema.presence_waits
    taken = seats.alias("taken")
    absent = (
        select(taken.c.seat)
        .where(taken.c.table_id == tables.c.id, taken.c.kind == "human",
               taken.c.token_hash.is_not(None),
               ~exists().where(presence.c.table_id == tables.c.id,
                               presence.c.seat == taken.c.seat,
                               presence.c.server_id.in_(_live_servers(alive_since))),
               ~exists().where(waits.c.table_id == tables.c.id, waits.c.seat == taken.c.seat,
                               waits.c.since >= now - wait)))
    conditions = [
        tables.c.game == game, tables.c.status == "open", tables.c.private.is_(False),
        tables.c.rematch_of.is_(None),
        exists().where(seats.c.table_id == tables.c.id, seats.c.kind == "human",
                       seats.c.token_hash.is_(None)),
        exists().where(taken.c.table_id == tables.c.id, taken.c.kind == "human",
                       taken.c.token_hash.is_not(None)),
        ~exists(absent),
    ]
    if player_id is not None:
        conditions.append(~exists().where(seats.c.table_id == tables.c.id,
                                          seats.c.player_id == player_id))
    with store.engine.connect() as conn:
        rows = conn.execute(select(tables.c.id).where(and_(*conditions))
                            .order_by(tables.c.created).limit(limit)).all()
    return [row[0] for row in rows]


@_database_call
def sweep_presence(store: Store) -> int:
    """What presence keeps and nobody will ask again goes: the rows of servers gone for good
    (their ``servers`` row was deleted) and what is kept about finished tables. Returns how
    many sockets' rows went."""
    tables = schema.tables
    finished = select(tables.c.id).where(tables.c.status == "finished")
    with store.engine.begin() as conn:
        done = conn.execute(delete(schema.presence).where(
            schema.presence.c.server_id.not_in(select(schema.servers.c.id))))
        for kept in (schema.presence_waits, schema.presence_tables):
            conn.execute(delete(kept).where(kept.c.table_id.in_(finished)))
    return int(done.rowcount or 0)


# --- rate limits -------------------------------------------------------------------------------

_NOW = "CAST(EXTRACT(EPOCH FROM statement_timestamp()) AS float8)"
"""The database's clock: one clock for every server (a process's own may differ)."""
_REFILLED = ("LEAST(CAST(:count AS float8), "
             "b.tokens + GREATEST(0.0, {now} - b.at) * CAST(:count AS float8) / :seconds)")
_TAKE = f"""
INSERT INTO rate_buckets AS b (name, client, tokens, at, spent)
VALUES (:name, :client, CAST(:count AS float8) - 1.0, {{now}}, true)
ON CONFLICT (name, client) DO UPDATE SET
    tokens = CASE WHEN {_REFILLED} >= 1.0 THEN {_REFILLED} - 1.0 ELSE {_REFILLED} END,
    at = {{now}},
    spent = {_REFILLED} >= 1.0
RETURNING tokens, spent
"""


def _timed(statement: str, now: float | None) -> str:
    """``statement`` at the time ``:now``, or at the database's when ``now`` is None."""
    return statement.replace("{now}", _NOW if now is None else ":now")


@_database_call
def take_token(store: Store, name: str, client: str, count: int, seconds: float,
               now: float | None = None) -> float:
    """Spend one action of ``client`` under the limit ``name`` (``count`` within ``seconds``)
    in one statement: 0.0 when allowed, else the seconds until it will be (nothing spent).
    ``now`` None is the database's clock."""
    params: dict[str, object] = {"name": name, "client": client_column(client),
                                 "count": count, "seconds": seconds}
    if now is not None:
        params["now"] = now
    with store.engine.begin() as conn:
        row = conn.execute(text(_timed(_TAKE, now)), params).one()
    return 0.0 if row.spent else (1.0 - float(row.tokens)) * seconds / count


@_database_call
def token_wait(store: Store, name: str, client: str, count: int, seconds: float,
               now: float | None = None) -> float:
    """The seconds until ``client`` may act under the limit ``name`` (0.0: now), spending
    nothing."""
    params: dict[str, object] = {"name": name, "client": client_column(client),
                                 "count": count, "seconds": seconds}
    if now is not None:
        params["now"] = now
    query = _timed(f"SELECT {_REFILLED} FROM rate_buckets AS b "
                   "WHERE b.name = :name AND b.client = :client", now)
    with store.engine.connect() as conn:
        found = conn.execute(text(query), params).first()
    tokens = float(count) if found is None else float(found[0])
    return 0.0 if tokens >= 1.0 else (1.0 - tokens) * seconds / count


@_database_call
def reset_tokens(store: Store, name: str, client: str) -> None:
    """A full bucket again for ``client`` under the limit ``name``."""
    with store.engine.begin() as conn:
        conn.execute(delete(schema.rate_buckets)
                     .where(schema.rate_buckets.c.name == name,
                            schema.rate_buckets.c.client == client_column(client)))


@_database_call
def sweep_tokens(store: Store, name: str, seconds: float, now: float | None = None) -> None:
    """The buckets of ``name`` full again (counted more than ``seconds`` ago) hold nothing
    worth keeping: they go."""
    params: dict[str, object] = {"name": name, "seconds": seconds}
    if now is not None:
        params["now"] = now
    with store.engine.begin() as conn:
        conn.execute(text(_timed("DELETE FROM rate_buckets WHERE name = :name "
                                 "AND at < {now} - :seconds", now)), params)


# --- one at a time over every server ----------------------------------------------------------


class Busy(StoreUnavailable):
    """Another server held the lock for longer than :data:`LOCK_TIMEOUT_MS`."""


@contextlib.contextmanager
def exclusive(store: Store, key: str) -> Iterator[None]:
    """Run the block while holding the database lock named ``key``: a server doing the same
    waits (at most :data:`LOCK_TIMEOUT_MS`, then :class:`Busy`). The lock goes with the block,
    or with the connection of a server that dies holding it."""
    conn: Connection | None = None
    try:
        conn = store.engine.connect()
        transaction = conn.begin()
        conn.execute(text(f"SET LOCAL lock_timeout = {int(LOCK_TIMEOUT_MS)}"))
        conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": key})
    except SQLAlchemyError as error:
        if conn is not None:
            with contextlib.suppress(SQLAlchemyError):
                conn.close()
        if transient(error):
            store.answering = False
            raise Busy("The database is not answering: "
                       f"{str(getattr(error, 'orig', None) or error).strip()[:200]}.") \
                from error
        raise
    try:
        yield
    finally:
        with contextlib.suppress(SQLAlchemyError):
            transaction.commit()
        conn.close()

