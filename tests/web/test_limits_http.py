"""Rate limits per client on the running app, with a clock the test moves: new tables, seats
taken, chat lines and WebSockets open at once. Over a limit: a 429 with a ``Retry-After``
header, or an error frame (and a close for a connection over the cap), and nothing else
changes."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

from limiting import Clock, new_table, open_socket, refused_over_the_cap
from sqlalchemy import func, select
from webplay import Server

from cardtable.web import schema
from cardtable.web.limits import Limits, Rate


@contextlib.contextmanager
def limited(url: str, limits: Limits) -> Iterator[tuple[Server, Clock]]:
    clock = Clock()
    with Server(url, limits=limits) as server:
        server.app.state.web.limiters.clock = clock
        yield server, clock


def stored_tables(server: Server) -> int:
    with server.store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(schema.tables)).scalar_one())


def test_new_tables_over_the_limit_are_429_and_make_nothing(sqlite_url: str) -> None:
    with limited(sqlite_url, Limits(create=Rate(3, 60))) as (server, clock):
        assert [new_table(server).status_code for _ in range(3)] == [201] * 3
        # A table the server refuses to make spends nothing.
        assert new_table(server, seats=["human"]).status_code == 400
        before, live = stored_tables(server), len(server.hub.tables)
        over = new_table(server)
        assert over.status_code == 429
        assert over.json() == {"error": "Too many new tables: try again in 20 s."}
        assert over.headers["retry-after"] == "20"
        assert (stored_tables(server), len(server.hub.tables)) == (before, live)
        clock.now += 19
        assert new_table(server).headers["retry-after"] == "1"
        clock.now += 1
        assert new_table(server).status_code == 201
        assert new_table(server).status_code == 429


def test_a_known_player_is_a_client_of_its_own_and_a_made_up_cookie_is_not(
        sqlite_url: str) -> None:
    with limited(sqlite_url, Limits(create=Rate(1, 60))) as (server, _clock):
        client = server.client
        assert new_table(server).status_code == 201
        assert new_table(server).status_code == 429
        client.cookies.set("cardtable_player", "made-up")
        assert new_table(server).status_code == 429
        client.cookies.clear()
        assert client.post("/api/players", json={"name": "Ann"}).status_code == 201
        assert new_table(server).status_code == 201
        assert new_table(server).status_code == 429


def test_seats_taken_over_the_limit_are_429_and_the_seat_stays_free(sqlite_url: str) -> None:
    with limited(sqlite_url, Limits(join=Rate(2, 60))) as (server, clock):
        client = server.client
        tables = [new_table(server).json()["table"] for _ in range(3)]
        for table in tables[:2]:
            assert client.post(f"/api/tables/{table}/join", json={}).status_code == 200
        over = client.post(f"/api/tables/{tables[2]}/join", json={"name": "Bob"})
        assert over.status_code == 429 and over.headers["retry-after"] == "30"
        assert over.json() == {"error": "Too many seats taken: try again in 30 s."}
        assert client.get(f"/api/tables/{tables[2]}").json()["free_seats"] == ["DEF"]
        before = stored_tables(server)
        quick = client.post("/api/quick", json={"game": "caravan"})
        assert quick.status_code == 429 and stored_tables(server) == before
        assert client.get(f"/api/tables/{tables[2]}").json()["free_seats"] == ["DEF"]
        clock.now += 30
        assert client.post(f"/api/tables/{tables[2]}/join", json={}).status_code == 200


def until(socket: Any, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = socket.receive_json()
        if frame["type"] == kind:
            return frame


def test_websockets_over_the_cap_get_an_error_frame_and_a_close(sqlite_url: str) -> None:
    with limited(sqlite_url, Limits(sockets=3)) as (server, _clock):
        one = new_table(server).json()["table"]
        two = new_table(server).json()["table"]
        with contextlib.ExitStack() as stack:
            first = open_socket(server, stack, one)
            open_socket(server, stack, one)
            open_socket(server, stack, two)
            for table in (one, two):
                refused_over_the_cap(server, table, 3)
            # The connections already open go on.
            first.send_json({"type": "ping"})
            assert until(first, "pong") == {"type": "pong"}
            assert server.client.get(f"/api/tables/{one}").json()["spectators"]["count"] == 2
        # Once closed, they count no more.
        with contextlib.ExitStack() as stack:
            for _ in range(3):
                open_socket(server, stack, two)


def test_nineteen_chat_lines_at_once_store_and_send_five(sqlite_url: str) -> None:
    with limited(sqlite_url, Limits(chat=Rate(5, 5))) as (server, clock):
        created = new_table(server).json()
        table, token = created["table"], created["tokens"]["ABC"]
        other = new_table(server).json()
        with contextlib.ExitStack() as stack:
            seat = open_socket(server, stack, table, token)
            watcher = open_socket(server, stack, table)
            elsewhere = open_socket(server, stack, other["table"], other["tokens"]["ABC"])
            for index in range(19):
                seat.send_json({"type": "chat", "text": f"line {index}"})
            seat.send_json({"type": "ping"})
            frames: list[dict[str, Any]] = []
            while not frames or frames[-1]["type"] != "pong":
                frames.append(seat.receive_json())
            lines = [frame["text"] for frame in frames if frame["type"] == "chat"]
            errors = [frame["message"] for frame in frames if frame["type"] == "error"]
            assert lines == [f"line {index}" for index in range(5)]
            assert errors == ["Too many chat lines: try again in 1 s."] * 14
            assert [line["text"] for line in server.store.chat(table)] == lines
            # The limit is the person's, at every table.
            elsewhere.send_json({"type": "chat", "text": "hello"})
            assert until(elsewhere, "error")["message"] == (
                "Too many chat lines: try again in 1 s.")
            assert server.store.chat(other["table"]) == []
            clock.now += 1
            seat.send_json({"type": "chat", "text": "later"})
            assert until(seat, "chat")["text"] == "later"
            watched = [until(watcher, "chat")["text"] for _ in range(6)]
            assert watched == [*lines, "later"]
            watcher.send_json({"type": "ping"})
            assert until(watcher, "pong") == {"type": "pong"}  # and no other chat line


def test_the_default_limits_are_on_in_the_app(sqlite_url: str) -> None:
    from cardtable.web.app import create_app
    from cardtable.web.store import Store

    store = Store(sqlite_url)
    try:
        assert create_app(store).state.web.settings.limits == Limits()
        assert create_app(store, limits=Limits.off()).state.web.limiters.create.rate is None
    finally:
        store.close()


def test_serve_refuses_a_bad_limit_spec_in_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "serve", "--port", "0",
                           "--rate-limits", "create=lots"], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert done.stderr == ("cardtable serve: --rate-limits: create: a rate is N/SECONDS, e.g. "
                           "10/60 or 5/5s (got 'lots')\n")


def test_new_guest_names_are_counted_by_address_whatever_the_cookies(sqlite_url: str) -> None:
    with limited(sqlite_url, Limits(names=Rate(2, 60))) as (server, clock):
        for index in range(2):
            server.client.cookies.clear()
            answer = server.client.post("/api/players", json={"name": f"Guest{index}"})
            assert answer.status_code == 201, answer.text
        server.client.cookies.clear()
        over = server.client.post("/api/players", json={"name": "Guest2"})
        assert over.status_code == 429
        assert over.json() == {"error": "Too many new names: try again in 30 s."}
        assert server.client.get("/api/players/me").json()["name"] is None
        assert not server.store.name_taken("Guest2")
        clock.now += 30
        assert server.client.post("/api/players", json={"name": "Guest2"}).status_code == 201
