"""Presence at web tables: quick match pairs only people who are here (or on their way), its
tables get a turn timer, and a table whose people have all been gone for a while is closed as
abandoned (stored, shown, in its record and replay, never rated). The server's clock is the
test's: nobody waits ten minutes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from policy_server import PolicyServer, new_table
from webplay import connect

from cardtable.web.table_policy import TablePolicy
from waiting import wait_until


@pytest.fixture
def server(sqlite_url: str) -> Iterator[PolicyServer]:
    with PolicyServer(sqlite_url) as running:
        yield running


def here_now(server: PolicyServer, table: str) -> set[str]:
    here: set[str] = server.hub.tables[table].seats_here()
    return here


def wait_gone(server: PolicyServer, table: str, seat: str) -> None:
    wait_until(lambda: seat not in here_now(server, table), f"{seat} to leave")


# --------------------------------------------------------------------------- quick match


def test_quick_match_pairs_a_person_who_is_here(server: PolicyServer) -> None:
    first = server.quick()
    with connect(server.client, first["table"], first["token"]) as socket:
        socket.receive_json()  # (the table frame: the seat is here)
        server.clock.now += 3600  # long after asking: still here, so still paired
        second = server.quick()
        assert (second["table"], second["seat"]) == (first["table"], "DEF")
        assert server.view(first["table"])["status"] == "playing"


def test_a_page_that_says_its_token_later_is_its_seat_here(server: PolicyServer) -> None:
    first = server.quick()
    with connect(server.client, first["table"], None) as socket:
        socket.send_json({"type": "ping"})  # (not a hello first: a spectator)
        frame = socket.receive_json()
        while frame["type"] != "state":
            frame = socket.receive_json()
        assert frame["seat"] is None and here_now(server, first["table"]) == set()
        socket.send_json({"type": "hello", "token": first["token"]})
        wait_until(lambda: here_now(server, first["table"]) == {"ABC"}, "the seat's hello")
        server.clock.now += 3600
        assert server.quick()["table"] == first["table"]


def test_quick_match_pairs_a_person_on_their_way_only_for_a_moment(
        server: PolicyServer) -> None:
    """A person whose page has not connected yet counts as waiting for ``quick_wait``
    seconds after asking; then they are gone and the next person gets a table of their
    own."""
    first = server.quick()
    server.clock.now += server.hub.policy.quick_wait - 1
    assert server.quick()["table"] == first["table"]
    lonely = server.quick()
    assert lonely["table"] != first["table"] and lonely["seat"] == "ABC"
    server.clock.now += server.hub.policy.quick_wait + 1
    third = server.quick()
    assert third["table"] not in (first["table"], lonely["table"])
    assert third["seat"] == "ABC"


def test_quick_match_never_pairs_a_person_who_left(server: PolicyServer) -> None:
    first = server.quick()
    with connect(server.client, first["table"], first["token"]) as socket:
        socket.receive_json()
    wait_gone(server, first["table"], "ABC")
    second = server.quick()  # at once: a page that closed is gone, however recent
    assert second["table"] != first["table"] and second["seat"] == "ABC"
    assert server.view(first["table"])["free_seats"] == ["DEF"]


def test_quick_match_skips_a_table_whose_people_are_not_all_here(sqlite_url: str) -> None:
    """An Obsession table of three: one person here, one gone; the next person is not
    seated there."""
    with PolicyServer(sqlite_url) as server:
        made = server.client.post("/api/tables", json={
            "game": "obsession", "seats": ["human", "human", "human"],
            "claim": ["P1", "P2"]}).json()
        table, tokens = made["table"], made["tokens"]
        with connect(server.client, table, tokens["P1"]) as socket:
            socket.receive_json()
            server.clock.now += server.hub.policy.quick_wait + 1  # P2 never came
            assert server.quick("obsession")["table"] != table
            with connect(server.client, table, tokens["P2"]) as other:
                other.receive_json()
                joined = server.quick("obsession")
                assert (joined["table"], joined["seat"]) == (table, "P3")


def test_a_quick_match_table_has_a_turn_timer_and_is_marked(server: PolicyServer) -> None:
    made = server.quick()
    view = server.view(made["table"])
    assert view["turn_seconds"] == server.hub.policy.quick_turn_seconds == 60
    row = server.store.table(made["table"])
    assert row is not None and row.quick and row.turn_seconds == 60
    other = server.client.post("/api/tables", json={"game": "caravan",
                                                    "seats": ["human", "human"]}).json()
    row = server.store.table(other["table"])
    assert row is not None and not row.quick and row.turn_seconds is None


# --------------------------------------------------------------------------- abandoned tables


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_table_nobody_came_to_is_abandoned_after_the_first_limit(
        backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    url = request.getfixturevalue("sqlite_url") if backend == "sqlite" else \
        request.getfixturevalue("pg_cluster").new_database()
    with PolicyServer(url) as server:
        rated: list[str] = []
        server.hub.rate = lambda live, result: rated.append(live.id)
        table, _tokens = new_table(server, "caravan", ["human", "bot:random"])
        limit = server.hub.policy.abandon_before_start
        assert limit == 600
        server.clock.now += limit - 1
        assert server.sweep() == []
        assert server.view(table)["status"] == "playing"
        server.clock.now += 2
        assert server.sweep() == [table]
        view = server.view(table)
        abandoned = {"winners": [], "reason": "abandoned",
                     "details": {"why": "nobody was at the table for 10 minutes"}}
        assert view["status"] == "finished" and view["result"] == abandoned
        assert view["to_move"] is None
        row = server.store.table(table)
        assert row is not None and row.status == "finished" and row.result == abandoned
        assert rated == []
        assert table not in [entry["table"] for entry in
                             server.client.get("/api/tables").json()["tables"]]
        # Read back from the database (a restart, or the table forgotten): still abandoned.
        server.hub.tables.pop(table)
        again = server.view(table)
        assert again["result"] == abandoned and again["status"] == "finished"
        record = server.client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200, record.text
        last = json.loads(record.text.splitlines()[-1])
        assert (last["type"], last["reason"], last["winners"]) == ("result", "abandoned", [])
        replay = server.client.get(f"/api/tables/{table}/replay")
        assert replay.status_code == 200 and replay.json()["result"] == abandoned
        steps = server.client.get(f"/replay/{table}/steps")
        assert steps.status_code == 200, steps.text
        assert steps.json()["result"]["reason"] == "abandoned"
        assert server.client.get(f"/replay/{table}").status_code == 200
        assert rated == []
    # The terminal replays the record, to the table's end.
    path = tmp_path / "abandoned.jsonl"
    path.write_text(record.text)
    replayed = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "caravan",
                               "--replay", str(path), "--plain", "--delay", "0"],
                              capture_output=True, text=True, timeout=120)
    assert replayed.returncode == 0, replayed.stderr
    assert "The recorded game was not finished (server)." in replayed.stdout


def test_a_table_waiting_for_a_second_person_is_abandoned_once_its_first_left(
        server: PolicyServer) -> None:
    table, tokens = new_table(server, "caravan", ["human", "human"], claim=["ABC"])
    with connect(server.client, table, tokens["ABC"]) as socket:
        socket.receive_json()
        server.clock.now += 10_000  # here all along: never abandoned
        assert server.sweep() == []
    wait_gone(server, table, "ABC")
    left = server.clock.now
    server.clock.now = left + 599
    assert server.sweep() == []
    server.clock.now = left + 601
    assert server.sweep() == [table]
    assert server.view(table)["result"]["reason"] == "abandoned"
    # Nobody may join an abandoned table.
    answer = server.client.post(f"/api/tables/{table}/join", json={})
    assert answer.status_code == 409 and answer.json()["error"] == "The game is over."


def test_a_game_under_way_is_given_the_longer_limit_and_its_sockets_hear_the_end(
        server: PolicyServer) -> None:
    table, tokens = new_table(server, "caravan", ["human", "bot:random"],
                              params={"first": "ABC"})
    with connect(server.client, table, tokens["ABC"]) as socket:
        frame = socket.receive_json()
        while frame["type"] != "state" or not frame["legal"]:
            frame = socket.receive_json()
        socket.send_json({"type": "move", "move": frame["legal"][0]})
        # (the bot's answer stored too: a sweep skips a table while a move is being stored)
        wait_until(lambda: server.view(table)["ply"] >= 2, "the move and the bot's answer")
    wait_gone(server, table, "ABC")
    left = server.clock.now
    server.clock.now = left + 601
    assert server.sweep() == []  # moves were played: 30 minutes
    server.clock.now = left + server.hub.policy.abandon_after_start + 1
    with connect(server.client, table, None) as watcher:  # a spectator is nobody's presence
        watcher.receive_json()
        assert server.sweep() == [table]
        frame = watcher.receive_json()
        while frame["type"] != "state" or frame["result"] is None:
            frame = watcher.receive_json()
    assert frame["result"]["reason"] == "abandoned" and frame["to_move"] is None
    assert frame["result"]["details"]["why"] == "nobody was at the table for 30 minutes"


def test_a_table_of_bots_is_never_abandoned(server: PolicyServer) -> None:
    table, _tokens = new_table(server, "caravan", ["bot:random", "bot:random"], bot_delay=10)
    server.clock.now += 10**6
    assert server.sweep() == []
    assert server.view(table)["result"] is None


def test_the_limits_are_the_operators(sqlite_url: str) -> None:
    policy = TablePolicy(abandon_before_start=60, abandon_after_start=120)
    with PolicyServer(sqlite_url, policy) as server:
        table, _tokens = new_table(server, "caravan", ["human", "human"])
        server.clock.now += 61
        assert server.sweep() == [table]


def test_the_sweeper_runs_by_itself(sqlite_url: str) -> None:
    with PolicyServer(sqlite_url, TablePolicy(sweep_every=0.05)) as server:
        table, _tokens = new_table(server, "caravan", ["human", "human"])
        server.clock.now += 601
        wait_until(lambda: server.view(table)["result"] is not None, "the sweeper")
        assert server.view(table)["result"]["reason"] == "abandoned"


# --------------------------------------------------------------------------- activity


def test_joins_and_moves_are_the_tables_activity(server: PolicyServer) -> None:
    table, tokens = new_table(server, "caravan", ["human", "human"], claim=["ABC"],
                              params={"first": "ABC"})
    row = server.store.table(table)
    assert row is not None and row.activity == row.created
    joined = server.client.post(f"/api/tables/{table}/join", json={}).json()
    row = server.store.table(table)
    assert row is not None and row.activity is not None and row.activity > row.created
    after_join = row.activity
    with connect(server.client, table, tokens["ABC"]) as socket:
        frame = socket.receive_json()
        while frame["type"] != "state" or not frame["legal"]:
            frame = socket.receive_json()
        socket.send_json({"type": "move", "move": frame["legal"][0]})
        wait_until(lambda: server.view(table)["ply"] >= 1, "the move to be played")
    assert joined["seat"] == "DEF"
    server.sweep()
    row = server.store.table(table)
    live = server.hub.tables[table]
    assert row is not None and row.activity == live.last_move and row.activity > after_join


def test_a_database_away_delays_the_close_and_changes_nothing(
        server: PolicyServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.web.store import StoreUnavailable

    table, _tokens = new_table(server, "caravan", ["human", "human"])
    moved, _ = new_table(server, "caravan", ["bot:random", "bot:random"], bot_delay=0.5)
    wait_until(lambda: server.view(moved)["ply"] >= 1, "a bot move")

    def away(*_args: object) -> None:
        raise StoreUnavailable("The database is not answering: gone.")

    monkeypatch.setattr(server.store, "finish", away)
    monkeypatch.setattr(server.store, "touch", away)
    server.clock.now += 601
    assert server.sweep() == []
    assert server.view(table)["status"] == "playing" and server.view(table)["result"] is None
    monkeypatch.undo()
    assert server.sweep() == [table]
    assert server.view(table)["result"]["reason"] == "abandoned"
    row = server.store.table(moved)
    assert row is not None and row.activity is not None and row.activity > row.created
