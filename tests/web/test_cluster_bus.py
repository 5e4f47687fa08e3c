"""The servers' bus on a real PostgreSQL (``PostgresCluster``) and in one process
(``LocalCluster``): events reach every other server that follows their table in order and
once, and no server that does not, "stored, then told" (an event published in a transaction
arrives after its commit, never after a rollback), requests and their time limit, the payload
limit, a heartbeat row per server, and a bus that survives a PostgreSQL restart, listens to
its tables again and says ``resync``; one process per SQLite file."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from functools import partial
from typing import Any

import pytest
from sqlalchemy import insert, select

from cardtable.web import cluster as cluster_module
from cardtable.web import schema
from cardtable.web.backoff import Backoff
from cardtable.web.cluster import (
    MAX_PAYLOAD,
    AnotherServer,
    Cluster,
    Event,
    LocalCluster,
    PostgresCluster,
    Unreachable,
)
from cardtable.web.store import Store
from waiting import until_true

TIMEOUT = 60.0


class Heard:
    """Every event one server heard, in order."""

    def __init__(self, cluster: Cluster) -> None:
        self.events: list[Event] = []
        cluster.subscribe(self.events.append)

    def of(self, kind: str) -> list[Event]:
        return [event for event in self.events if event.get("e") == kind]

    def has(self, kind: str, count: int = 1) -> bool:
        return len(self.of(kind)) >= count


def add_table(store: Store, table_id: str, status: str = "playing",
              owner: str | None = None) -> None:
    with store.engine.begin() as conn:
        conn.execute(insert(schema.tables).values(
            id=table_id, game="caravan", params="{}", seed=1, status=status, private=False,
            spectators=True, created=time.time(), owner=owner, epoch=1))


@contextlib.asynccontextmanager
async def running(*clusters: Cluster) -> AsyncIterator[None]:
    """The clusters started one after the other for the block, then stopped in the same order
    however it ends."""
    for cluster in clusters:
        await cluster.start()
    try:
        yield
    finally:
        for cluster in clusters:
            await cluster.stop()


def run_then_close(main: Coroutine[Any, Any, None], *stores: Store) -> None:
    """Run ``main`` to its end, then close ``stores`` however it ended."""
    try:
        asyncio.run(main)
    finally:
        for store in stores:
            store.close()


Scenario = Callable[[PostgresCluster, PostgresCluster, Heard, list[Store]],
                    Coroutine[Any, Any, None]]


def two_servers_hearing(pg_url: str, scenario: Scenario) -> None:
    """``scenario(one, two, heard, stores)`` with two servers' buses (lease 5 s) on ``pg_url``
    running, each on a store of its own; ``heard``: what the first one hears. The stores
    are closed however it ends."""
    stores = [Store(pg_url), Store(pg_url)]

    async def main() -> None:
        one, two = (PostgresCluster(store, lease=5) for store in stores)
        heard = Heard(one)
        async with running(one, two):
            await scenario(one, two, heard, stores)

    run_then_close(main(), *stores)


@pytest.fixture
def pg_url(pg_cluster: Any) -> str:
    url: str = pg_cluster.new_database()
    return url


def test_events_reach_every_server_in_order_and_once(pg_url: str) -> None:
    stores = [Store(pg_url), Store(pg_url)]

    async def main() -> None:
        one, two = (PostgresCluster(store, lease=5) for store in stores)
        heard = [Heard(one), Heard(two)]
        async with running(one, two):
            add_table(stores[0], "t1")
            await one.follow("t1")
            await two.follow("t1")
            assert one.follows("t1") and not one.follows("t2")
            for ply in range(1, 41):
                # Half of them inside a store transaction, half outside one; from both servers.
                cluster, store = (one, stores[0]) if ply % 4 < 2 else (two, stores[1])
                if ply % 2:
                    with store.engine.begin() as conn:
                        cluster.publish_in(conn, {"e": "move", "t": "t1", "p": ply})
                else:
                    cluster.publish({"e": "move", "t": "t1", "p": ply})
            for listener in heard:
                await until_true(partial(listener.has, "move", 20),
                                 "every event at the other server")
            # A last event, committed after all the others were sent: once it is heard,
            # nothing of before is still on its way (each was heard once).
            for cluster, store in ((one, stores[0]), (two, stores[1])):
                await asyncio.wait_for(cluster.outbox.join(), TIMEOUT)  # (all sent)
                with store.engine.begin() as conn:
                    cluster.publish_in(conn, {"e": "end", "t": "t1"})
            for listener in heard:
                await until_true(partial(listener.has, "end"), "the last events")
            for listener, me, origin in ((heard[0], one, two), (heard[1], two, one)):
                # The other server's events, each once; never its own (it told its own
                # connections already).
                moves = listener.of("move")
                assert len(moves) == 20 and len(listener.of("end")) == 1
                assert {e["s"] for e in listener.events} == {origin.server_id} != {me.server_id}
                assert sorted(e["p"] for e in moves) == [
                    ply for ply in range(1, 41) if (ply % 4 < 2) == (origin is one)]
                # In the order it published them: those of its transactions in their commit
                # order, the others in their own order.
                for way in (0, 1):
                    own = [e["p"] for e in moves if e["p"] % 2 == way]
                    assert own == sorted(own) and len(own) == 10

    run_then_close(main(), *stores)


def test_a_server_hears_only_the_tables_it_follows(pg_url: str) -> None:
    async def scenario(one: PostgresCluster, two: PostgresCluster, heard: Heard,
                       stores: list[Store]) -> None:
        await one.follow("t1")
        for table in ("t2", "t1"):  # (one event after the other, in one round trip)
            two.publish({"e": "table", "t": table})
        await until_true(partial(heard.has, "table"), "t1's event")
        await asyncio.wait_for(two.outbox.join(), TIMEOUT)
        await one.follow("t2")  # (while the bus listens: it listens to one more)
        one.unfollow("t1")
        assert not one.follows("t1")
        for table in ("t1", "t2"):
            two.publish({"e": "table", "t": table})
        await until_true(partial(heard.has, "table", 2), "t2's event")
        await asyncio.wait_for(two.outbox.join(), TIMEOUT)
        with stores[1].engine.begin() as conn:  # (and one published in a transaction)
            two.publish_in(conn, {"e": "end", "t": "t2"})
        await until_true(partial(heard.has, "end"), "t2's last event")
        # t2 before one followed it, and t1 after it stopped, were never heard.
        assert [e["t"] for e in heard.events] == ["t1", "t2", "t2"]
        with pytest.raises(ValueError, match="No table"):
            await one.follow("x" * 33)

    two_servers_hearing(pg_url, scenario)


def test_a_table_followed_again_at_once_is_heard(pg_url: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A table dropped and followed again before the bus has stopped listening to it (a
    mirror dropped from memory as a WebSocket of it opens): its channel is never left, and
    the second follow returns at once."""
    monkeypatch.setattr(cluster_module, "FOLLOW_LIMIT", TIMEOUT)

    async def scenario(one: PostgresCluster, two: PostgresCluster, heard: Heard,
                       stores: list[Store]) -> None:
        await one.follow("t1")
        one.unfollow("t1")
        again = asyncio.ensure_future(one.follow("t1"))  # (before the bus looks)
        await asyncio.wait_for(again, 10)
        assert one.follows("t1")
        two.publish({"e": "table", "t": "t1"})
        await until_true(partial(heard.has, "table"), "t1's event")

    two_servers_hearing(pg_url, scenario)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_event_comes_after_its_commit_and_never_after_a_rollback(
        backend: str, request: pytest.FixtureRequest, sqlite_url: str) -> None:
    url = sqlite_url if backend == "sqlite" else request.getfixturevalue("pg_url")
    store = Store(url)
    add_table(store, "t1")

    async def main() -> None:
        cluster: Cluster = (LocalCluster(store) if backend == "sqlite"
                            else PostgresCluster(store, lease=5))
        # (on PostgreSQL, another server hears it: a server drops its own events)
        hearer = cluster if backend == "sqlite" else PostgresCluster(store, lease=5)
        seen: list[tuple[int, int]] = []

        def stored_moves(event: Event) -> None:
            # What a server reads when told: the move must be there already.
            with store.engine.connect() as conn:
                count = len(conn.execute(select(schema.moves.c.ply)).all())
            seen.append((event.get("p", 0), count))

        hearer.subscribe(stored_moves)
        async with running(*dict.fromkeys((cluster, hearer))):
            await hearer.follow("t1")

            def store_move(ply: int, fail: bool) -> None:
                with store.engine.begin() as conn:
                    conn.execute(insert(schema.moves).values(
                        table_id="t1", ply=ply, seat="ABC", move="x", at=time.time()))
                    cluster.publish_in(conn, {"e": "move", "t": "t1", "p": ply})
                    if fail:
                        raise RuntimeError("the transaction rolls back")

            await asyncio.to_thread(store_move, 1, False)
            with pytest.raises(RuntimeError):
                await asyncio.to_thread(store_move, 2, True)
            await asyncio.to_thread(store_move, 2, False)
            await until_true(lambda: len(seen) >= 2, "the two stored moves' events")
            # A last event: heard after anything still on its way.
            cluster.publish({"e": "table", "t": "t1"})
            await until_true(lambda: seen[-1][0] == 0, "the last event")
            assert seen == [(1, 1), (2, 2), (0, 2)]

    run_then_close(main(), store)


def test_requests_are_answered_in_time_or_unreachable(pg_url: str) -> None:
    stores = [Store(pg_url), Store(pg_url)]

    async def main() -> None:
        asker, owner = (PostgresCluster(store, lease=5) for store in stores)
        never = asyncio.Event()

        async def answer(body: dict[str, Any]) -> dict[str, Any]:
            if body.get("op") == "hang":
                await never.wait()
            if body.get("op") == "fail":
                raise RuntimeError("no such table")
            return {"refusal": None, "text": body.get("text"), "by": owner.server_id}

        owner.on_request(answer)
        async with running(asker, owner):
            try:
                got = await asker.request(owner.server_id, {"op": "move", "text": "P1 6h"})
                assert got == {"refusal": None, "text": "P1 6h", "by": owner.server_id}
                # Several at once: each gets its own answer.
                texts = [f"move {n}" for n in range(10)]
                answers = await asyncio.gather(*(asker.request(owner.server_id,
                                                               {"op": "move", "text": text})
                                                 for text in texts))
                assert [a["text"] for a in answers] == texts
                # Its own id: answered by itself.
                assert (await owner.request(owner.server_id, {"op": "move", "text": "x"}))["by"] \
                    == owner.server_id
                with pytest.raises(Unreachable):
                    await asker.request(owner.server_id, {"op": "hang"}, timeout=0.5)
                with pytest.raises(Unreachable, match="no such table"):
                    await asker.request(owner.server_id, {"op": "fail"})
                # A server that is not running: refused at once, not after the time limit.
                started = time.monotonic()
                with pytest.raises(Unreachable, match="No server"):
                    await asker.request("0" * 32, {"op": "move"}, timeout=30)
                assert time.monotonic() - started < 15
                with pytest.raises(ValueError, match="bytes"):
                    await asker.request(owner.server_id, {"text": "x" * MAX_PAYLOAD})
                await owner.stop()
                with pytest.raises(Unreachable):  # (stopped: its row is gone)
                    await asker.request(owner.server_id, {"op": "move"}, timeout=30)
            finally:
                never.set()

    run_then_close(main(), *stores)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_event_over_the_payload_limit_is_refused(backend: str,
                                                    request: pytest.FixtureRequest,
                                                    sqlite_url: str) -> None:
    url = sqlite_url if backend == "sqlite" else request.getfixturevalue("pg_url")
    store = Store(url)

    async def main() -> None:
        cluster: Cluster = (LocalCluster(store) if backend == "sqlite"
                            else PostgresCluster(store, lease=5))
        hearer = cluster if backend == "sqlite" else PostgresCluster(store, lease=5)
        heard = Heard(hearer)
        async with running(*dict.fromkeys((cluster, hearer))):
            await hearer.follow("t1")

            def chat(size: int) -> Event:
                return {"e": "chat", "t": "t1", "line": {"text": "é" * size}}

            # The limit counts bytes (UTF-8) of the event as sent, origin included.
            too_long = chat(MAX_PAYLOAD // 2)
            with pytest.raises(ValueError, match=f"over the {MAX_PAYLOAD} bytes"):
                cluster.publish(too_long)
            with store.engine.begin() as conn, pytest.raises(ValueError):
                cluster.publish_in(conn, too_long)
            fits = chat((MAX_PAYLOAD - 100) // 2)
            cluster.publish(fits)
            await until_true(lambda: heard.of("chat"), "the event that fits")
            assert heard.of("chat")[0]["line"] == fits["line"]

    run_then_close(main(), store)


def test_every_server_has_a_heartbeat_row_and_hands_its_tables_over(pg_url: str) -> None:
    store = Store(pg_url)

    def rows() -> dict[str, Any]:
        with store.engine.connect() as conn:
            return {row.id: row for row in conn.execute(select(schema.servers)).all()}

    async def main() -> None:
        one, two = PostgresCluster(store, lease=1), PostgresCluster(store, lease=1)
        async with running(one, two):
            first = rows()
            assert set(first) == {one.server_id, two.server_id}
            assert {row.pid for row in first.values()} == {one.pid}
            add_table(store, "mine", owner=one.server_id)
            add_table(store, "done", status="finished", owner=one.server_id)
            add_table(store, "theirs", owner=two.server_id)
            await until_true(lambda: all(rows()[c.server_id].heartbeat
                                    > first[c.server_id].heartbeat for c in (one, two)),
                        "both heartbeats to be written again")
            assert one.healthy and two.healthy
            assert one.alive_since() <= min(r.heartbeat for r in rows().values())
            await one.stop()
            assert set(rows()) == {two.server_id}
            with store.engine.connect() as conn:
                owners: dict[str, str | None] = dict(conn.execute(select(schema.tables.c.id,
                                                  schema.tables.c.owner)).all())
            # A clean stop hands its unfinished tables over at once.
            assert owners == {"mine": None, "done": one.server_id, "theirs": two.server_id}

    run_then_close(main(), store)


def test_the_bus_survives_a_postgresql_restart_and_says_resync(pg_own_cluster: Any) -> None:
    url = pg_own_cluster.new_database()
    stores = [Store(url), Store(url)]

    async def main() -> None:
        one, two = PostgresCluster(stores[0], lease=2), PostgresCluster(stores[1], lease=2)
        heard = [Heard(one), Heard(two)]
        async with running(one, two):
            for cluster in (one, two):
                await cluster.follow("before")
                await cluster.follow("after")
            one.publish({"e": "table", "t": "before"})
            await until_true(partial(heard[1].has, "table"), "the first event")
            await asyncio.to_thread(pg_own_cluster.halt)
            # Without its heartbeat a server soon knows it must not drive tables.
            await until_true(lambda: not one.healthy and not two.healthy,
                        "the servers to see their heartbeat fail")
            assert not any(listener.of("resync") for listener in heard)
            await asyncio.to_thread(pg_own_cluster.start)
            for listener in heard:
                await until_true(partial(listener.has, "resync"),
                            "resync after the bus connected again")
            await until_true(lambda: one.healthy and two.healthy, "the heartbeats again")
            resync = heard[0].of("resync")[0]
            assert resync["s"] == one.server_id and "t" not in resync

            def delivered() -> bool:
                # (an event published while the connection was being made again may be lost:
                # that is what resync is for; publish again until one arrives at the tables
                # each server listened to again)
                if any(e.get("t") == "after" for e in heard[0].of("table")):
                    return True
                two.publish({"e": "table", "t": "after"})
                return False

            await until_true(delivered, "events after the restart", interval=0.1)
            assert sum(len(listener.of("resync")) for listener in heard) == 2

    run_then_close(main(), *stores)


def test_a_table_followed_while_the_bus_is_lost_is_told_at_once(
        pg_own_cluster: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the listening connection is lost, following a table does not wait out its time
    limit nor the reconnection's pause: the connection is tried again at once, and the
    follow fails when that try does (the database away) or succeeds with it (back)."""
    monkeypatch.setattr(cluster_module, "FOLLOW_LIMIT", TIMEOUT)
    monkeypatch.setattr(cluster_module, "RECONNECT", Backoff(first=3600.0, cap=3600.0))
    url = pg_own_cluster.new_database()
    store = Store(url)

    async def main() -> None:
        one = PostgresCluster(store, lease=2)
        async with running(one):
            await asyncio.to_thread(pg_own_cluster.halt)
            await until_true(lambda: not one.listening, "the bus to see its connection lost")
            with pytest.raises(Unreachable, match="does not answer"):
                await one.follow("away")
            assert not one.follows("away")
            await asyncio.to_thread(pg_own_cluster.start)
            # (a try may still fail while PostgreSQL finishes starting: follow again then)
            await until_true(partial(followed, one, "back"), "a table followed once it is back")
            assert one.listening and one.follows("away")

    run_then_close(main(), store)


async def followed(cluster: PostgresCluster, table_id: str) -> bool:
    try:
        await cluster.follow(table_id)
    except Unreachable:
        return False
    return True


def test_one_process_per_sqlite_file(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    sleeper = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                               stdin=subprocess.PIPE)

    def other(server_id: str, host: str, pid: int, heartbeat: float) -> None:
        with store.engine.begin() as conn:
            conn.execute(schema.servers.delete())
            conn.execute(insert(schema.servers).values(id=server_id, host=host, pid=pid,
                                                       started=0, heartbeat=heartbeat))

    def registers() -> bool:
        cluster = LocalCluster(store, lease=5)
        try:
            cluster.register()
        except AnotherServer as error:
            assert "several server processes need PostgreSQL" in str(error)
            return False
        with store.engine.connect() as conn:
            rows: list[str] = list(conn.execute(select(schema.servers.c.id)).scalars())
        assert rows == [cluster.server_id]  # (the other's row is gone)
        cluster.unregister()
        return True

    try:
        me = LocalCluster(store).host
        other("a" * 32, me, sleeper.pid, time.time())
        assert not registers()  # a process of this machine, running, beating
        other("a" * 32, "elsewhere", 1, time.time())
        assert not registers()  # another machine's, beating
        other("a" * 32, "elsewhere", 1, time.time() - 6)
        assert registers()  # silent longer than the lease
        other("a" * 32, me, sleeper.pid, time.time())
        assert sleeper.stdin is not None
        sleeper.stdin.close()
        sleeper.wait(TIMEOUT)
        assert registers()  # its process died, even with a recent heartbeat
    finally:
        sleeper.kill()
        sleeper.wait(TIMEOUT)
        store.close()
