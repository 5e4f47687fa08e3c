"""Rate limits counted in one place: two servers on one PostgreSQL database share each
client's buckets (the second server refuses what the first counted, with the same message and
Retry-After) and its WebSockets open at once (spectators' too); a bucket spent by many threads
at once gives exactly its count."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from limiting import Clock, new_table, open_socket, refused_over_the_cap
from racing import at_once
from webplay import Server

from cardtable.web import schema, shared_store
from cardtable.web.limits import Limits, Rate
from cardtable.web.store import Store
from waiting import wait_until


@pytest.fixture
def pg_url(pg_cluster: Any) -> str:
    url: str = pg_cluster.new_database()
    return url


@contextlib.contextmanager
def two_servers(url: str, limits: Limits) -> Iterator[tuple[Server, Server, Clock]]:
    """Two servers on one database, their shared buckets at the test's clock."""
    clock = Clock()
    with Server(url, limits=limits) as first, Server(url, limits=limits) as second:
        for server in (first, second):
            assert server.app.state.cluster.shared
            server.app.state.web.limiters.shared_clock = clock
        yield first, second, clock


def test_the_second_server_refuses_what_the_first_counted(pg_url: str) -> None:
    with two_servers(pg_url, Limits(create=Rate(3, 60))) as (first, second, clock):
        assert [new_table(first).status_code for _ in range(2)] == [201, 201]
        assert new_table(second).status_code == 201
        refused = new_table(second)
        assert refused.status_code == 429
        assert refused.json() == {"error": "Too many new tables: try again in 20 s."}
        assert refused.headers["Retry-After"] == "20"
        again = new_table(first)
        assert again.status_code == 429 and again.headers["Retry-After"] == "20"
        clock.now += 20  # one more, on either server
        assert new_table(first).status_code == 201
        assert new_table(second).status_code == 429


def test_sign_in_attempts_per_name_are_counted_over_both_servers(pg_url: str) -> None:
    with two_servers(pg_url, Limits.off()) as (first, second, _clock):
        for server in (first, second):
            server.app.state.web.accounts.name_limit.shared_now = lambda: 5000.0
        servers = [first, second]
        answers = [servers[attempt % 2].client.post(
            "/api/session", json={"name": "Nobody", "password": "wrong password"}).status_code
            for attempt in range(11)]
        assert answers == [401] * 10 + [429]


def test_websockets_are_counted_over_both_servers(pg_url: str) -> None:
    with two_servers(pg_url, Limits(sockets=3)) as (first, second, _clock):
        table = new_table(first).json()["table"]
        with contextlib.ExitStack() as stack:
            one = open_socket(first, stack, table)
            open_socket(second, stack, table)
            open_socket(second, stack, table)
            for server in (first, second):
                refused_over_the_cap(server, table, 3)
            one.close()
            # Closed on the first server: a place for one more on the second.
            wait_until(lambda: open_count(first.store) == 2, "the closed socket's row to go")
            open_socket(second, stack, table)
        wait_until(lambda: open_count(first.store) == 0, "every socket's row to go")


def open_count(store: Store) -> int:
    with store.engine.connect() as conn:
        return len(conn.execute(schema.presence.select()).all())


def test_the_sockets_of_a_server_that_died_count_no_more(pg_url: str) -> None:
    """Two sockets of the client on a server whose heartbeat stopped long ago (its rows were
    left behind) do not count; once its row is swept, its rows go too."""
    with two_servers(pg_url, Limits(sockets=2)) as (first, second, _clock):
        table = new_table(first).json()["table"]
        with first.store.engine.begin() as conn:
            conn.execute(schema.servers.insert().values(id="dead", host="gone", pid=1,
                                                        started=0.0, heartbeat=1.0))
            conn.execute(schema.presence.insert(), [
                {"id": f"dead{number}", "server_id": "dead", "table_id": table, "seat": None,
                 "player_id": None, "client": "address:testclient", "opened": 1.0}
                for number in range(2)])
        with contextlib.ExitStack() as stack:
            open_socket(first, stack, table)
            open_socket(second, stack, table)
            with first.client.websocket_connect(f"/api/tables/{table}/ws") as over:
                assert over.receive_json()["type"] == "error"
        with first.store.engine.begin() as conn:
            conn.execute(schema.servers.delete().where(schema.servers.c.id == "dead"))
        assert shared_store.sweep_presence(first.store) == 2
        # (a closed socket's row is deleted after it closes, on a thread of its own)
        wait_until(lambda: open_count(first.store) == 0, "the closed sockets' rows to go")



def test_a_bucket_spent_by_many_threads_at_once_gives_its_count(pg_url: str) -> None:
    """Refilled and spent in one statement: 40 threads on two stores spend from a bucket of
    10 at the same moment, and exactly 10 are let through, round after round."""
    stores = [Store(pg_url), Store(pg_url)]
    try:
        for round_number in range(5):
            def spend(index: int, client: str = f"client {round_number}") -> float:
                return shared_store.take_token(stores[index % 2], "create", client, 10, 60.0,
                                               now=1000.0)

            waits = at_once(40, spend)
            assert sorted(waits)[:11] == [0.0] * 10 + [pytest.approx(6.0)]
            assert waits.count(0.0) == 10
    finally:
        for store in stores:
            store.close()
