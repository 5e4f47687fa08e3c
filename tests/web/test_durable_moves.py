"""Store first, then tell: a move, a result or a chat line the database did not take is shown to
nobody; a person's is refused with a message, a bot's, the turn timer's and a result wait for
the database; the API answers 503 and the health check ``degraded`` meanwhile.

The database's absence is made here (the store's calls fail as PostgreSQL's do when it is
stopped); test_outage_postgres.py stops a real PostgreSQL.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect
from webplay import LeakChecker, Server, Viewer, connect, play_through, random_chooser

from cardtable.web import store as store_module
from cardtable.web.backoff import Backoff
from cardtable.web.live import SAVE_FAILED
from cardtable.web.routes import tables as tables_routes
from cardtable.web.routes.refusals import DATABASE_AWAY
from cardtable.web.store import Store, StoreUnavailable
from waiting import wait_until

FAST = Backoff(first=0.01, cap=0.05)
"""The tables' retry in these tests: the same policy, shorter waits."""


class DatabaseAway:
    """While on, every connection the store asks for fails as a stopped PostgreSQL's does."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.on = False
        real_connect, real_begin = store.engine.connect, store.engine.begin

        def refuse() -> None:
            if self.on:
                raise OperationalError("SELECT 1", {}, OSError("connection refused"))

        def connect() -> Any:
            refuse()
            return real_connect()

        def begin() -> Any:
            refuse()
            return real_begin()

        monkeypatch.setattr(store.engine, "connect", connect)
        monkeypatch.setattr(store.engine, "begin", begin)


class Failing:
    """The store's ``method`` fails (the database away) for its next ``failures`` calls that
    match ``when``; ``calls`` counts them all."""

    def __init__(self, store: Store, method: str, monkeypatch: pytest.MonkeyPatch,
                 failures: int, when: Any = lambda *args: True) -> None:
        self.real = getattr(store, method)
        self.failures = failures
        self.when = when
        self.calls = 0
        monkeypatch.setattr(store, method, self)

    def __call__(self, *args: Any) -> Any:
        if self.when(*args):
            self.calls += 1
            if self.failures > 0:
                self.failures -= 1
                raise StoreUnavailable("The database is not answering: stopped.")
        return self.real(*args)


@pytest.fixture
def server(sqlite_url: str) -> Iterator[Server]:
    with Server(sqlite_url) as running:
        running.hub.retry = FAST
        yield running


def viewers_of(server: Server, table: str, tokens: dict[str, str],
               stack: contextlib.ExitStack) -> dict[str | None, Viewer]:
    return {seat: Viewer(stack.enter_context(connect(server.client, table, token)),
                         LeakChecker(server.store, table, seat, tokens))
            for seat, token in tokens.items()}


def states(viewer: Viewer) -> None:
    """Read frames until the first state frame (a connection's opening frames)."""
    viewer.until("state")


def test_a_move_the_database_does_not_take_is_refused_and_changes_nothing(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    table, tokens = server.create("caravan", ["human", "human"], {"rules": "nv"})
    away = DatabaseAway(server.store, monkeypatch)
    live = server.hub.tables[table]
    with contextlib.ExitStack() as stack:
        viewers = viewers_of(server, table, tokens, stack)
        for viewer in viewers.values():
            states(viewer)
        mover = viewers["ABC"]
        assert mover.last is not None
        before = (mover.last["ply"], mover.last["legal"], live.state.to_position())
        move = mover.last["legal"][0]
        away.on = True
        mover.socket.send_json({"type": "move", "move": move})
        assert mover.until("error")["message"] == SAVE_FAILED
        again = mover.until("state")  # the same turn, to try again
        assert (again["ply"], again["legal"], live.state.to_position()) == before
        assert live.ply == 0
        # Meanwhile: the health check says so, the API answers 503, chat is refused, and a
        # new connection is told and closed.
        health = server.client.get("/api/health").json()
        assert (health["status"], health["database"]) == ("degraded", "unavailable")
        refused = server.client.post("/api/tables", json={"game": "caravan",
                                                          "seats": ["human", "bot:random"]})
        assert (refused.status_code, refused.json()) == (503, {"error": DATABASE_AWAY})
        assert refused.headers["retry-after"] == "5"
        mover.socket.send_json({"type": "chat", "text": "hello?"})
        assert mover.until("error")["message"] == \
            "The server could not save your chat line; try again."
        with connect(server.client, table, None) as spectator:
            frames: list[dict[str, Any]] = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    frames.append(spectator.receive_json())
            assert frames[-1] == {"type": "error", "message": DATABASE_AWAY}
            assert closed.value.code == 1013
            assert all(frame["type"] != "state" for frame in frames)
        away.on = False
        assert server.client.get("/api/health").json()["status"] == "ok"
        mover.socket.send_json({"type": "move", "move": move})
        shown = {seat: viewer.until_state(lambda frame: frame["ply"] == 1)
                 for seat, viewer in viewers.items()}
        assert all(frame["to_move"] == "DEF" for frame in shown.values())
        # What the other seat was shown: the first ply, never a move nobody stored.
        assert viewers["DEF"].errors == [] and viewers["DEF"].chat == []
    assert [text for _seat, text in server.store.moves(table)] == [move]


def test_a_refused_move_gives_the_person_a_whole_turn_again(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fault was the server's: the turn timer starts again in full, for everyone to see."""
    table, tokens = server.create("caravan", ["human", "human"], {"rules": "nv"},
                                  turn_seconds=3600)
    away = DatabaseAway(server.store, monkeypatch)
    with contextlib.ExitStack() as stack:
        viewers = viewers_of(server, table, tokens, stack)
        for viewer in viewers.values():
            viewer.until_state(lambda frame: frame["deadline"] is not None)
        mine = next(viewer.last for viewer in viewers.values()
                    if viewer.last is not None and viewer.last["legal"])
        mover = viewers[mine["to_move"]]
        other = viewers["DEF" if mine["to_move"] == "ABC" else "ABC"]
        away.on = True
        mover.socket.send_json({"type": "move", "move": mine["legal"][0]})
        assert mover.until("error")["message"] == SAVE_FAILED
        again = mover.until("state")
        assert again["ply"] == 0 and again["deadline"] > mine["deadline"]
        assert other.until_state(lambda frame: frame["deadline"] == again["deadline"])
        away.on = False
        mover.socket.send_json({"type": "move", "move": mine["legal"][0]})
        assert mover.until_state(lambda frame: frame["ply"] == 1)["to_move"] == other.checker.seat


def test_a_bots_move_waits_for_the_database_and_the_table_goes_on_by_itself(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    table, tokens = server.create("caravan", ["human", "bot:random"], {"rules": "nv"})
    failing = Failing(server.store, "add_move", monkeypatch, failures=3,
                      when=lambda _table, _ply, seat, _move: seat == "DEF")
    with contextlib.ExitStack() as stack:
        viewers = viewers_of(server, table, tokens, stack)
        last = play_through(viewers, {"ABC"}, random_chooser(4), stop_after=4)
        assert viewers["ABC"].errors == []
    assert failing.failures == 0 and failing.calls >= 4  # three failures, then stored
    assert len(server.store.moves(table)) == last["ply"] == server.hub.tables[table].ply


def test_the_turn_timers_move_waits_for_the_database(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    table, tokens = server.create("caravan", ["human", "human"], {"rules": "nv"},
                                  turn_seconds=5)
    failing = Failing(server.store, "add_move", monkeypatch, failures=3)
    with contextlib.ExitStack() as stack:
        viewers = viewers_of(server, table, tokens, stack)
        timed = viewers["ABC"].until_state(lambda frame: frame["deadline"] is not None)
        assert timed["ply"] == 0
        late = viewers[timed["to_move"]]
        assert late.until("error")["message"] == "Time is up: a move was played for you."
        moved = late.until_state(lambda frame: frame["ply"] == 1)
        assert moved["to_move"] != timed["to_move"] and late.errors == [
            "Time is up: a move was played for you."]
    assert failing.calls == 4 and len(server.store.moves(table)) == 1


def test_the_result_is_stored_before_anyone_is_told(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    table, tokens = server.create("obsession", ["human", "bot:random"], {"max_plays": 300})
    failing = Failing(server.store, "finish", monkeypatch, failures=3)
    told_finished: list[str] = []
    with contextlib.ExitStack() as stack:
        viewers = viewers_of(server, table, tokens, stack)
        last = play_through(viewers, {"P1"}, random_chooser(5))
        row = server.store.table(table)
        assert row is not None
        told_finished.append(row.status)
    assert last["result"] is not None and told_finished == ["finished"]
    assert failing.calls == 4
    assert len(server.store.moves(table)) == last["ply"]


def test_a_move_stored_by_a_try_whose_answer_was_lost_is_overwritten(server: Server) -> None:
    table, _tokens = server.create("caravan", ["human", "human"], {"rules": "nv"})
    store = server.store
    store.add_move(table, 1, "ABC", "P1A")
    store.add_move(table, 1, "ABC", "P1A")  # the same move again
    store.add_move(table, 1, "ABC", "P2B")  # one its mover was told had failed, then another
    assert store.moves(table) == [("ABC", "P2B")]


def test_a_sqlite_lock_held_longer_than_sqlite_waits_is_survived_without_an_error(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Another writer holds SQLite's lock past its busy wait: the store tries again and the
    move goes through; the player sees no error."""
    monkeypatch.setattr(store_module, "SQLITE_BUSY_MS", 50)
    caplog.set_level(logging.INFO, logger="cardtable.web")
    with Server(sqlite_url) as server:
        # Long enough for any loaded machine: the lock is let go as soon as a retry is seen.
        server.store.retry = Backoff(first=0.05, cap=0.5, attempts=60)
        table, tokens = server.create("caravan", ["human", "human"], {"rules": "nv"})
        path = Path(sqlite_url.removeprefix("sqlite:///"))
        with contextlib.ExitStack() as stack:
            viewers = viewers_of(server, table, tokens, stack)
            for viewer in viewers.values():
                states(viewer)
            mover = viewers["ABC"]
            assert mover.last is not None
            move = mover.last["legal"][0]
            other = sqlite3.connect(path, isolation_level=None)
            try:
                other.execute("BEGIN IMMEDIATE")
                mover.socket.send_json({"type": "move", "move": move})
                wait_until(lambda: "database call add_move failed (database is locked)"
                           in caplog.text, "the store to try the move again")
                other.execute("ROLLBACK")
            finally:
                other.close()
            moved = mover.until_state(lambda frame: frame["ply"] == 1)
            assert moved["to_move"] == "DEF" and mover.errors == []
        assert [text for _seat, text in server.store.moves(table)] == [move]


def test_the_end_is_shown_to_nobody_before_its_result_is_stored(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between a game's last move and its stored result, a connection that opens gets no state
    frame (the last position names the result), and the table's view waits for the result:
    503 when it does not come in time. Once stored, both show the end with its result."""
    monkeypatch.setattr(tables_routes, "RESULT_WAIT", 0.2)
    store = server.store
    finish, entered, go = store.finish, threading.Event(), threading.Event()

    def held_back(*args: Any, **kwargs: Any) -> None:
        entered.set()
        assert go.wait(60)
        finish(*args, **kwargs)

    monkeypatch.setattr(store, "finish", held_back)
    table, tokens = server.create("obsession", ["bot:random", "bot:random"], {"max_plays": 300})
    assert tokens == {}
    assert entered.wait(60), "the game's end"
    try:
        with connect(server.client, table, None) as socket:
            spectator = Viewer(socket, LeakChecker(store, table, None, tokens))
            spectator.until("chat_history")
            socket.send_json({"type": "ping"})
            opening = [spectator.receive()["type"]]
            while opening[-1] != "pong":
                opening.append(spectator.receive()["type"])
            assert "state" not in opening, opening
            waited = server.client.get(f"/api/tables/{table}")
            assert waited.status_code == 503 and waited.json() == {"error": DATABASE_AWAY}
            go.set()
            last = spectator.until("state")
            assert last["result"] is not None and last["status"] == "finished"
            assert last["ply"] == len(store.moves(table))
    finally:
        go.set()
    view = server.client.get(f"/api/tables/{table}")
    assert view.status_code == 200
    assert view.json()["status"] == "finished" and view.json()["result"] == last["result"]
