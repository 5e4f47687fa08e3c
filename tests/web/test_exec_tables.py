"""Programs at web tables (``cardtable serve --allow-exec NAME=COMMAND``): offered only by the
operator and chosen by name, played as real processes; each program receives only its seat's
view (checked on every message), a forfeit ends the game with the reason shown, and every
process ends with its match, its table or the server."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from webplay import (
    LeakChecker,
    Server,
    Viewer,
    connect,
    keys_in,
    play_through,
    random_chooser,
    sockets,
)

import cardtable
from cardtable.web import games, serialize

# The external-bot tests' programs and checks (tests/external_bots is a package of the tests
# directory, which a run of tests/web alone does not put on the path).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from external_bots.helpers import EXAMPLES, SCRIPTS, command, pids_in, wait_gone
from external_bots.test_no_leak import Expected
from waiting import wait_until


def program(*args: object) -> str:
    return shlex.join(command(*args))


@pytest.fixture
def programs(tmp_path: Path) -> dict[str, str]:
    return {"random": program(EXAMPLES / "caravan_random.py", 5),
            "spy": program(SCRIPTS / "spy.py", tmp_path / "spy.log", tmp_path / "spy.pids"),
            "crash": program(SCRIPTS / "misbehave.py", "crash", tmp_path / "crash.pids"),
            "junk": program(SCRIPTS / "misbehave.py", "junk", tmp_path / "junk.pids"),
            "gone": "/nonexistent/cardtable-bot --fast"}


def test_without_the_operator_no_program_is_offered_or_started(sqlite_server: Server) -> None:
    response = sqlite_server.client.post("/api/tables", json={
        "game": "caravan", "seats": ["human", "bot:exec:spy"]})
    assert response.status_code == 400
    assert "External program bots are not available on this web server" \
        in response.json()["error"]
    catalogue = sqlite_server.client.get("/api/games").json()["games"]
    assert not any(bot.startswith("exec") for game in catalogue for bot in game["bots"])


@pytest.mark.parametrize(("seats", "game", "message"), [
    (["human", "bot:exec:rm -rf /"], "caravan", "Unknown program 'rm -rf /' (this server "
                                                "offers: crash, gone, junk, random, spy)."),
    (["human", "bot:exec:python3 -c 1"], "caravan", "Unknown program 'python3 -c 1'"),
    (["human", "bot:exec:spy"], "austerity", "Programs do not play austerity here"),
])
def test_a_request_can_only_name_an_offered_program(sqlite_url: str, programs: dict[str, str],
                                                    seats: list[str], game: str,
                                                    message: str) -> None:
    with Server(sqlite_url, programs=programs) as server:
        response = server.client.post("/api/tables", json={"game": game, "seats": seats})
        assert response.status_code == 400 and message in response.json()["error"]
        catalogue = {entry["game"]: entry["bots"]
                     for entry in server.client.get("/api/games").json()["games"]}
        assert "exec:spy" in catalogue["caravan"] and "exec:spy" in catalogue["obsession"]
        assert not any(bot.startswith("exec") for bot in catalogue["austerity"])
        assert "\"exec:random\"" in server.client.get("/").text  # the lobby form's list


def test_a_program_plays_a_web_game_seeing_only_its_seat(sqlite_url: str, tmp_path: Path,
                                                         programs: dict[str, str]) -> None:
    with Server(sqlite_url, programs=programs) as server:
        table, tokens = server.create("caravan", ["human", "bot:exec:spy"],
                                      params={"first": "DEF"})
        with contextlib_sockets(server, table, tokens) as viewers:
            last = play_through(viewers, {"ABC"}, random_chooser(3))
        assert last["result"] is not None and last["result"]["reason"] != "forfeit"
        moves = server.store.moves(table)
        row = server.store.table(table)
        assert row is not None
        assert wait_gone(pids_in(tmp_path / "spy.pids", 1)) == []  # ended with its match
    # Every message the program received, against the seat's own view at that turn and a
    # world where every card it cannot see was dealt differently.
    loaded = cardtable.load_game("caravan", first="DEF")
    state = games.new_state("caravan", row.params, row.seed, ["human", "bot:exec:spy"])
    expected = Expected(loaded, {"DEF"})
    for _seat, text in moves:
        expected.on_turn(state, state.to_move)
        state.apply(state.parse_action(text))
    messages = [json.loads(line) for line in (tmp_path / "spy.log").read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds[0] == "hello" and kinds[-2:] == ["result", "quit"]
    turns = [m for m in messages if m["type"] == "turn"]
    assert len(turns) == len(expected.turns["DEF"]) > 0
    for message, (own, other_world, legal) in zip(turns, expected.turns["DEF"], strict=True):
        assert message["observation"] == own == other_world
        assert message["legal"] == legal
    assert expected.sensitive > 0
    assert messages[-2]["observation"] == expected.adapter.observation_json(  # type: ignore[union-attr]
        state.observation("DEF"))


def test_an_obsession_program_sees_only_its_seat_at_a_web_table(
        sqlite_url: str, tmp_path: Path, programs: dict[str, str]) -> None:
    kinds = ["bot:random", "bot:exec:spy", "bot:obsessed"]
    with Server(sqlite_url, programs=programs) as server:
        table, _tokens = server.create("obsession", kinds)
        view = until_result(server, table)
        assert view["result"]["reason"] != "forfeit"
        moves = server.store.moves(table)
        row = server.store.table(table)
        assert row is not None
    assert wait_gone(pids_in(tmp_path / "spy.pids", 1)) == []
    loaded = cardtable.load_game("obsession", players=3)
    state = games.new_state("obsession", row.params, row.seed, kinds)
    expected = Expected(loaded, {"P2"})
    for _seat, text in moves:
        expected.on_turn(state, state.to_move)
        state.apply(state.parse_action(text))
    messages = [json.loads(line) for line in (tmp_path / "spy.log").read_text().splitlines()]
    turns = [m for m in messages if m["type"] == "turn"]
    assert len(turns) == len(expected.turns["P2"]) > 0
    for message, (own, other_world, legal) in zip(turns, expected.turns["P2"], strict=True):
        assert message["observation"] == own == other_world
        assert message["legal"] == legal
    assert expected.sensitive > 0


def until_result(server: Server, table: str) -> dict[str, Any]:
    """The table's view once its game (played by bots alone) is over."""
    for _ in range(1200):
        view: dict[str, Any] = server.client.get(f"/api/tables/{table}").json()
        if view["result"] is not None:
            return view
        time.sleep(0.05)
    raise AssertionError("the game did not end")


def test_a_forfeit_ends_the_web_game_and_its_record(sqlite_url: str, tmp_path: Path,
                                                   programs: dict[str, str]) -> None:
    with Server(sqlite_url, programs=programs) as server:
        table, tokens = server.create("caravan", ["human", "bot:exec:crash"],
                                      params={"first": "DEF"})
        with contextlib_sockets(server, table, tokens) as viewers:
            last = play_through(viewers, {"ABC"}, random_chooser(1))
        assert last["result"] == {"winners": ["ABC"], "reason": "forfeit",
                                  "details": {"seat": "DEF",
                                              "why": "its program exited with status 3"}}
        assert "about to crash" not in json.dumps(last)
        view = server.client.get(f"/api/tables/{table}").json()
        assert view["status"] == "finished" and view["result"]["reason"] == "forfeit"
        assert view["to_move"] is None and last["to_move"] is None and last["legal"] == []
        record = server.client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        result = json.loads(record.text.splitlines()[-1])
        assert (result["reason"], result["winners"], result["details"]["seat"]) == (
            "forfeit", ["ABC"], "DEF")
        path = tmp_path / "web.jsonl"
        path.write_text(record.text)
        assert wait_gone(pids_in(tmp_path / "crash.pids", 1)) == []
    replayed = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "caravan",
                               "--replay", str(path), "--plain", "--delay", "0"],
                              capture_output=True, text=True, timeout=120)
    assert replayed.returncode == 0, replayed.stderr
    assert "DEF forfeits: its program exited with status 3" in replayed.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="a child subreaper exists only on Linux")
def test_a_child_in_a_session_of_its_own_ends_with_the_web_game(
        sqlite_url: str, tmp_path: Path, programs: dict[str, str]) -> None:
    pidfile = tmp_path / "unruly.pid"
    offered = {**programs, "unruly": program(SCRIPTS / "unruly.py", "setsid", pidfile)}
    try:
        with Server(sqlite_url, programs=offered) as server:
            table, _tokens = server.create("obsession", ["bot:exec:unruly", "bot:random"])
            view = until_result(server, table)
            assert view["result"]["reason"] != "forfeit"
            # Ended with its match, while the server still runs.
            assert wait_gone(pids_in(pidfile, 1), 30) == []
    finally:
        if pidfile.exists():
            with contextlib.suppress(ValueError, ProcessLookupError):
                os.kill(int(pidfile.read_text()), signal.SIGKILL)


def test_an_obsession_forfeit_is_kept_after_the_table_is_read_back(
        sqlite_url: str, tmp_path: Path, programs: dict[str, str]) -> None:
    with Server(sqlite_url, programs=programs) as server:
        table, _tokens = server.create("obsession", ["bot:exec:junk", "bot:random"])
        view = until_result(server, table)
        assert view["result"]["reason"] == "forfeit"
        assert view["result"]["details"] == {"seat": "P1",
                                             "why": "a line that is not JSON: no json here"}
        server.hub.tables.pop(table)  # as after FORGET_AFTER or a restart
        again = server.client.get(f"/api/tables/{table}").json()
        assert again["result"] == view["result"] and again["status"] == "finished"
        record = server.client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        path = tmp_path / "web.jsonl"
        path.write_text(record.text)
    assert wait_gone(pids_in(tmp_path / "junk.pids", 1)) == []
    replayed = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "obsession",
                               "--replay", str(path), "--plain", "--delay", "0"],
                              capture_output=True, text=True, timeout=120)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "!!! P1 forfeits: a line that is not JSON: no json here" in replayed.stdout


def without_ids(value: Any) -> Any:
    """A view with the cards' physical identities left out (a record names cards by their
    text, so its replay may tell two copies of a card apart otherwise than the table did)."""
    if isinstance(value, dict):
        return {key: without_ids(item) for key, item in value.items() if key != "id"}
    if isinstance(value, list):
        return [without_ids(item) for item in value]
    return value


@pytest.mark.parametrize(("game", "seats", "params", "name"), [
    ("caravan", ["human", "bot:exec:crash"], {"first": "ABC"}, "crash"),
    ("obsession", ["bot:random", "bot:random", "bot:exec:junk"], {"players": 3}, "junk"),
])
def test_a_forfeited_game_has_its_replay_page_and_json(sqlite_url: str, tmp_path: Path,
                                                     programs: dict[str, str], game: str,
                                                     seats: list[str], params: dict[str, Any],
                                                     name: str) -> None:
    """Moves are played, then the program forfeits on its turn: the finished table leaves the
    list of tables like any finished one, and both replays go from the deal to the forfeit,
    showing it as the table page does, with only what the game makes public (and, on the
    replay page, the hands a finished game shows)."""
    with Server(sqlite_url, programs=programs) as server:
        table, tokens = server.create(game, seats, params)
        if tokens:
            with contextlib_sockets(server, table, tokens) as viewers:
                play_through(viewers, set(tokens), random_chooser(2))
        view = until_result(server, table)
        assert view["result"]["reason"] == "forfeit" and view["status"] == "finished"
        forfeiter = view["result"]["details"]["seat"]
        assert table not in [entry["table"] for entry in
                             server.client.get("/api/tables").json()["tables"]]
        stored = server.store.moves(table)
        assert len(stored) >= 1
        assert server.client.get(f"/replay/{table}").status_code == 200
        answers = [server.client.get(f"/replay/{table}/steps"),
                   server.client.get(f"/api/tables/{table}/replay")]
        server.hub.tables.pop(table)  # read back from the database, as after a restart
        again = server.client.get(f"/replay/{table}/steps")
        assert again.status_code == 200 and again.json() == answers[0].json()
        assert wait_gone(pids_in(tmp_path / f"{name}.pids", 1)) == []
        row = server.store.table(table)
        assert row is not None
        checker = LeakChecker(server.store, table, None, tokens)
    steps, replay = (answer.json() for answer in answers)
    for answer in answers:
        assert answer.status_code == 200, answer.text
        for secret in (*tokens.values(), "misbehave.py", "about to crash", str(tmp_path)):
            assert secret not in answer.text
    for shown in (steps, replay):
        assert shown["table"] == table and shown["game"] == game
        assert shown["moves"] == [{"seat": seat, "move": move} for seat, move in stored]
        assert len(shown["frames"]) == len(stored) + 1
        assert shown["result"] == shown["frames"][-1]["result"] == view["result"]
    # The JSON replay: every frame a spectator's view, checked against the table replayed
    # from its moves (no hand, no hidden card, no deck).
    for ply, frame in enumerate(replay["frames"]):
        checker.check_page(frame, ply)
        assert "deck" not in keys_in(frame)
    # The replay page: each step the same public view, plus every seat's hand.
    state = games.new_state(game, row.params, row.seed, seats)
    for ply, frame in enumerate(steps["frames"]):
        public = {key: value for key, value in frame.items() if key not in ("hands", "result")}
        expected = {key: value for key, value in replay["frames"][ply].items() if key != "result"}
        assert without_ids(public) == without_ids(expected)
        assert without_ids(frame["hands"]) == {
            seat: without_ids(serialize.seat_view(game, state, seat)["hand"])
            for seat in state.seats}
        if ply < len(stored):
            state.apply(state.parse_action(stored[ply][1]))
    assert state.result is None and state.to_move == forfeiter


@pytest.mark.parametrize(("game", "seats", "forfeiter", "winners"), [
    ("caravan", ["human", "bot:exec:gone"], "DEF", ["ABC"]),
    ("caravan", ["bot:exec:gone", "human"], "ABC", ["DEF"]),
    ("obsession", ["human", "bot:exec:gone", "bot:random"], "P2", ["P1", "P3"]),
])
def test_a_program_that_cannot_start_forfeits_at_once(
        sqlite_url: str, programs: dict[str, str], game: str, seats: list[str],
        forfeiter: str, winners: list[str]) -> None:
    """Whether or not its seat is to move, the program forfeits before any move (it starts
    when the table's person is here), and the record, the replay page and the JSON replay all
    end with that forfeit."""
    with Server(sqlite_url, programs=programs) as server:
        table, tokens = server.create(game, seats, {"players": 3} if game == "obsession" else {})
        with connect(server.client, table, next(iter(tokens.values()))):
            view = wait_until(lambda: finished_view(server, table), "the forfeit")
        assert view["result"] == {"winners": winners, "reason": "forfeit", "details": {
            "seat": forfeiter,
            "why": "Cannot start '/nonexistent/cardtable-bot' for "
                   f"{forfeiter}: No such file or directory"}}
        last = json.loads(server.client.get(f"/api/tables/{table}/record").text.splitlines()[-1])
        assert (last["reason"], last["winners"]) == ("forfeit", winners)
        assert last["details"]["seat"] == forfeiter
        steps = server.client.get(f"/replay/{table}/steps")
        replay = server.client.get(f"/api/tables/{table}/replay")
    for answer in (steps, replay):
        assert answer.status_code == 200, answer.text
        assert answer.json()["frames"][-1]["result"] == view["result"]


def test_the_server_ends_the_programs_of_tables_still_playing(sqlite_url: str, tmp_path: Path,
                                                              programs: dict[str, str]) -> None:
    with Server(sqlite_url, programs=programs) as server:
        table, tokens = server.create("caravan", ["human", "bot:exec:spy"])  # ABC to move
        with connect(server.client, table, tokens["ABC"]):  # (its program starts now)
            pids = pids_in(tmp_path / "spy.pids", 1)
        assert server.client.get(f"/api/tables/{table}").json()["status"] == "playing"
    assert wait_gone(pids) == []


def finished_view(server: Server, table: str) -> dict[str, Any] | None:
    view: dict[str, Any] = server.client.get(f"/api/tables/{table}").json()
    return view if view["status"] == "finished" else None


class contextlib_sockets:
    """The human seats' sockets of a table, with their leak checkers, as viewers."""

    def __init__(self, server: Server, table: str, tokens: dict[str, str]) -> None:
        self.entries = list(sockets(server.client, server.store, table, tokens))
        self.opened: list[Any] = []

    def __enter__(self) -> dict[str | None, Viewer]:
        viewers: dict[str | None, Viewer] = {}
        for seat, manager, checker in self.entries:
            socket = manager.__enter__()
            self.opened.append(manager)
            assert isinstance(checker, LeakChecker)
            viewers[seat] = Viewer(socket, checker)
        return viewers

    def __exit__(self, *exc: object) -> None:
        for manager in reversed(self.opened):
            manager.__exit__(None, None, None)


@pytest.mark.parametrize(("option", "message"), [
    ("spy", "--allow-exec takes NAME=COMMAND (got 'spy')"),
    ("spy=", "--allow-exec takes NAME=COMMAND (got 'spy=')"),
    ("Spy Bot=python3 x.py", "a program's name is 1 to 20 of a-z 0-9 _ -"),
    ("spy=python3 'open", "cannot be read (No closing quotation)"),
    ("spy=/nonexistent/bot", "--allow-exec spy: no program '/nonexistent/bot' to run"),
    ("spy=no-such-program-anywhere --x", "no program 'no-such-program-anywhere' to run"),
])
def test_serve_refuses_a_bad_program_with_one_line(tmp_path: Path, option: str,
                                                   message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "serve", "--port", "0",
                           "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}",
                           "--allow-exec", "ok=python3 -V", "--allow-exec", option],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert done.stderr.startswith("cardtable serve: ")


def test_serve_names_each_program_once() -> None:
    from cardtable.cli.serve import programs_option

    assert programs_option(["a=python3 -V", "b-2= python3  -c 'print(1)' "]) == {
        "a": "python3 -V", "b-2": "python3  -c 'print(1)'"}
    with pytest.raises(ValueError, match="the name 'a' is given twice"):
        programs_option(["a=python3 -V", "a=python3 -c 1"])


def test_a_real_server_offers_its_programs_and_ends_them_when_it_stops(tmp_path: Path) -> None:
    """``cardtable serve --allow-exec`` as a process: a bots-only game with a program is
    played to its end, a program waiting at another table (started when its person came) is
    ended by SIGTERM."""
    import httpx
    import websockets.sync.client as ws_client
    from webplay import free_port

    port = free_port()
    spy = program(SCRIPTS / "spy.py", tmp_path / "spy.log", tmp_path / "spy.pids", "child")
    process = subprocess.Popen(
        [sys.executable, "-m", "cardtable.cli.main", "serve", "--port", str(port), "--db",
         f"sqlite:///{tmp_path / 'db.sqlite3'}", "--bot-delay", "0",
         "--allow-exec", f"heuristic={program(EXAMPLES / 'caravan_heuristic.py')}",
         "--allow-exec", f"spy={spy}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        played = httpx.post(f"{base}/api/tables", json={
            "game": "caravan", "seats": ["bot:exec:heuristic", "bot:random"]}).json()
        waiting = httpx.post(f"{base}/api/tables", json={
            "game": "caravan", "seats": ["human", "bot:exec:spy"]})
        assert waiting.status_code == 201, waiting.text
        person = waiting.json()
        with ws_client.connect(f"ws://127.0.0.1:{port}/api/tables/{person['table']}/ws"
                               f"?token={person['tokens']['ABC']}"):
            pids = pids_in(tmp_path / "spy.pids", 2)  # the program and a child it started
        for _ in range(600):
            view = httpx.get(f"{base}/api/tables/{played['table']}").json()
            if view["result"] is not None:
                break
            time.sleep(0.1)
        assert view["result"] is not None and view["result"]["reason"] != "forfeit"
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "programs offered at the tables: heuristic, spy" in out
    assert wait_gone(pids) == []
