"""A table's own bot pace (``bot_delay``), and programs at web tables: capped per client and
in all, and started only when their table has started and its people are here (a table
waiting for its people holds no process, also after a restart)."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from policy_server import PolicyServer, new_table
from webplay import connect

from cardtable.web import live as live_module
from cardtable.web.table_policy import TablePolicy
from waiting import wait_until

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from external_bots.helpers import SCRIPTS, command, pids_in, wait_gone

# --------------------------------------------------------------------------- bot pace


@pytest.fixture
def delays(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The delay of every bot seat the server makes."""
    made: list[float] = []
    original = live_module.BotSeat.__init__

    def spy(self: Any, live: Any, bot: Any, delay: float, instant: bool, seat: str) -> None:
        made.append(delay)
        original(self, live, bot, delay, instant, seat)

    monkeypatch.setattr(live_module.BotSeat, "__init__", spy)
    return made


def test_a_tables_bot_delay_is_stored_and_used_also_after_a_restart(
        sqlite_url: str, delays: list[float]) -> None:
    with PolicyServer(sqlite_url) as server:
        assert server.hub.bot_delay == 0.0
        paced, tokens = new_table(server, "caravan", ["human", "bot:random"], bot_delay=2.5)
        plain, _ = new_table(server, "caravan", ["human", "bot:random"])
        assert delays == [2.5, 0.0]
        row = server.store.table(paced)
        assert row is not None and row.bot_delay == 2.5
        row = server.store.table(plain)
        assert row is not None and row.bot_delay is None
        # A rematch keeps the pace.
        server.abandon(paced)
        rematch = server.client.post(f"/api/tables/{paced}/rematch",
                                     json={"token": tokens["ABC"]})
        assert rematch.status_code == 200, rematch.text
        row = server.store.table(rematch.json()["table"])
        assert row is not None and row.bot_delay == 2.5
        assert delays[-1] == 2.5
    delays.clear()
    with PolicyServer(sqlite_url) as server:  # the tables resumed: the plain one, the rematch
        assert sorted(delays) == [0.0, 2.5]


@pytest.mark.parametrize(("value", "status"), [
    (0, 201), (10, 201), (0.25, 201), (None, 201),
    (10.5, 400), (-1, 400), ("1", 400), (True, 400), ([1], 400),
])
def test_bot_delay_is_0_to_10_seconds(sqlite_url: str, value: object, status: int) -> None:
    with PolicyServer(sqlite_url) as server:
        answer = server.client.post("/api/tables", json={
            "game": "caravan", "seats": ["human", "bot:random"], "bot_delay": value})
        assert answer.status_code == status, answer.text
        if status == 400:
            assert answer.json()["error"] == "'bot_delay' is 0 to 10 seconds or null."


def test_bot_delay_is_documented(sqlite_url: str) -> None:
    with PolicyServer(sqlite_url) as server:
        schema = server.client.get("/openapi.json").json()["components"]["schemas"]
        field = schema["NewTable"]["properties"]["bot_delay"]
        number = next(option for option in field["anyOf"] if option.get("type") == "number")
        assert (number["minimum"], number["maximum"]) == (0, 10)
        assert "server's pace" in field["description"]


def test_the_lobby_form_offers_a_bot_pace(sqlite_url: str) -> None:
    with PolicyServer(sqlite_url) as server:
        lobby = server.client.get("/").text
        assert 'name="bot_delay"' in lobby


# --------------------------------------------------------------------------- programs


def program(*args: object) -> str:
    return shlex.join(command(*args))


@pytest.fixture
def spy(tmp_path: Path) -> dict[str, str]:
    return {"spy": program(SCRIPTS / "spy.py", tmp_path / "spy.log", tmp_path / "spy.pids")}


def programs_server(url: str, programs: dict[str, str], **policy: Any) -> PolicyServer:
    return PolicyServer(url, TablePolicy(**policy), programs=programs)


@pytest.fixture
def served(sqlite_url: str, spy: dict[str, str]) -> Iterator[PolicyServer]:
    with programs_server(sqlite_url, spy) as server:
        yield server


def test_a_program_starts_only_when_its_person_is_here(served: PolicyServer,
                                                       tmp_path: Path) -> None:
    table, tokens = new_table(served, "caravan", ["human", "bot:exec:spy"],
                              params={"first": "DEF"}, private=True)
    assert served.view(table)["status"] == "playing"
    (waiting,) = served.hub.program_seats[table]
    assert not waiting.launching and not (tmp_path / "spy.pids").exists()
    with connect(served.client, table, tokens["ABC"]) as socket:
        pids = pids_in(tmp_path / "spy.pids", 1)
        frame = socket.receive_json()  # the program moves first: the game goes on
        while frame["type"] != "state" or frame["ply"] < 1:
            frame = socket.receive_json()
    served.abandon(table)
    assert wait_gone(pids) == []  # ended with its table


def test_a_program_starts_when_its_person_says_hello_on_a_watching_page(
        served: PolicyServer, tmp_path: Path) -> None:
    table, tokens = new_table(served, "caravan", ["human", "bot:exec:spy"],
                              params={"first": "DEF"})
    with connect(served.client, table, None) as socket:
        socket.send_json({"type": "ping"})  # (not a hello first: it watches)
        frame = socket.receive_json()
        while frame["type"] != "state":
            frame = socket.receive_json()
        assert not served.hub.program_seats[table][0].launching
        socket.send_json({"type": "hello", "token": tokens["ABC"]})
        pids = pids_in(tmp_path / "spy.pids", 1)
    served.abandon(table)
    assert wait_gone(pids) == []


def test_a_table_waiting_for_a_second_person_holds_no_process(served: PolicyServer,
                                                              tmp_path: Path) -> None:
    table, tokens = new_table(served, "obsession", ["human", "human", "bot:exec:spy"],
                              claim=["P1"])
    with connect(served.client, table, tokens["P1"]) as socket:
        socket.receive_json()
        assert table not in served.hub.program_seats  # (not started: a seat is free)
        joined = served.client.post(f"/api/tables/{table}/join", json={}).json()
        assert joined["seat"] == "P2"
        pids = pids_in(tmp_path / "spy.pids", 1)  # started: every seat taken, P1 here
    served.abandon(table)
    assert wait_gone(pids) == []


def test_after_a_restart_a_program_waits_for_its_people(sqlite_url: str, spy: dict[str, str],
                                                        tmp_path: Path) -> None:
    with programs_server(sqlite_url, spy) as server:
        table, tokens = new_table(server, "caravan", ["human", "bot:exec:spy"],
                                  params={"first": "ABC"})
        with connect(server.client, table, tokens["ABC"]) as socket:
            socket.receive_json()
            pids = pids_in(tmp_path / "spy.pids", 1)
    assert wait_gone(pids) == []  # ended with the server
    (tmp_path / "spy.pids").unlink()
    with programs_server(sqlite_url, spy) as server:
        assert server.view(table)["status"] == "playing"
        (waiting,) = server.hub.program_seats[table]
        assert not waiting.launching and not (tmp_path / "spy.pids").exists()
        with connect(server.client, table, tokens["ABC"]) as socket:
            socket.receive_json()
            pids = pids_in(tmp_path / "spy.pids", 1)
    assert wait_gone(pids) == []


def test_a_bots_only_table_starts_its_program_at_once(served: PolicyServer,
                                                      tmp_path: Path) -> None:
    table, _tokens = new_table(served, "caravan", ["bot:exec:spy", "bot:random"])
    wait_until(lambda: served.view(table)["result"] is not None, "the game's end", 120)
    assert len(pids_in(tmp_path / "spy.pids", 1)) == 1


def test_programs_per_client_are_capped(sqlite_url: str, spy: dict[str, str]) -> None:
    with programs_server(sqlite_url, spy, max_programs_per_client=2) as server:
        first, _ = new_table(server, "caravan", ["human", "bot:exec:spy"])
        new_table(server, "caravan", ["human", "bot:exec:spy"])
        tables = len(server.hub.tables)
        over = server.client.post("/api/tables", json={
            "game": "caravan", "seats": ["human", "bot:exec:spy"]})
        assert over.status_code == 429
        assert over.json()["error"] == ("Too many programs: at most 2 at your unfinished "
                                        "tables (you have 2). Finish or leave one of those "
                                        "games first.")
        assert len(server.hub.tables) == tables  # nothing made
        # Tables without a program are not capped.
        new_table(server, "caravan", ["human", "bot:random"])
        # Another client (a player of its own) has its own count.
        assert server.client.post("/api/players", json={"name": "Ann"}).status_code in (
            200, 201)
        new_table(server, "caravan", ["human", "bot:exec:spy"])
        server.client.cookies.clear()
        # A table over (here abandoned) frees its program's place.
        server.abandon(first)
        new_table(server, "caravan", ["human", "bot:exec:spy"])


def test_programs_in_all_are_capped(sqlite_url: str, spy: dict[str, str]) -> None:
    with programs_server(sqlite_url, spy, max_programs=3,
                         max_programs_per_client=None) as server:
        first, _ = new_table(server, "obsession", ["human", "bot:exec:spy", "bot:exec:spy"])
        over = server.client.post("/api/tables", json={
            "game": "obsession", "seats": ["human", "bot:exec:spy", "bot:exec:spy"]})
        assert over.status_code == 429
        assert over.json()["error"] == ("Too many programs at this server's tables (at most 3 "
                                        "at once): try again when a game with one is over.")
        new_table(server, "caravan", ["human", "bot:exec:spy"])
        server.abandon(first)
        new_table(server, "caravan", ["human", "bot:exec:spy"])


# --------------------------------------------------------------------------- the options


def test_serve_takes_the_tables_options() -> None:
    from cardtable.cli.serve import parser
    from cardtable.web.table_policy import from_options

    options = parser().parse_args([])
    assert from_options(options.abandon_before_start, options.abandon_after_start,
                        options.max_programs, options.max_programs_per_client) == TablePolicy()
    options = parser().parse_args(["--abandon-before-start", "120", "--abandon-after-start",
                                   "900", "--max-programs", "4",
                                   "--max-programs-per-client", "1"])
    policy = from_options(options.abandon_before_start, options.abandon_after_start,
                          options.max_programs, options.max_programs_per_client)
    assert (policy.abandon_before_start, policy.abandon_after_start, policy.max_programs,
            policy.max_programs_per_client) == (120, 900, 4, 1)


@pytest.mark.parametrize(("option", "message"), [
    (["--abandon-before-start", "0"], "--abandon-before-start must be 1 to 2592000 seconds "
                                      "(got 0)"),
    (["--abandon-after-start", "nan"], "--abandon-after-start must be 1 to 2592000 seconds "
                                       "(got nan)"),
    (["--max-programs", "-1"], "--max-programs must be 0 to 10000 (got -1)"),
    (["--max-programs-per-client", "10001"], "--max-programs-per-client must be 0 to 10000 "
                                             "(got 10001)"),
])
def test_serve_refuses_a_bad_table_option_with_one_line(tmp_path: Path, option: list[str],
                                                        message: str) -> None:
    import subprocess

    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "serve", "--port", "0",
                           "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}", *option],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr == f"cardtable serve: {message}\n"
