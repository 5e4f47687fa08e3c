"""``cardtable serve`` as a real process: start, health, one-line refusals with their exit
status, and a server killed mid-game (SIGKILL) that resumes the game when started again."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from webplay import free_port

SERVE = [sys.executable, "-m", "cardtable.cli.main", "serve"]


def start(db: str, port: int, tmp_path: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    process = subprocess.Popen([*SERVE, "--port", str(port), "--db", db, "--bot-delay", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise AssertionError("the server did not start")


def test_serve_runs_and_stops_on_sigterm(db_url: str, tmp_path: Path) -> None:
    port = free_port()
    process = start(db_url, port, tmp_path)
    try:
        health = httpx.get(f"http://127.0.0.1:{port}/api/health").json()
        assert health["database"] == "ok"
        assert httpx.get(f"http://127.0.0.1:{port}/").status_code == 200
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert f"lobby at http://127.0.0.1:{port}/" in out


def test_default_database_is_in_the_data_directory(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.web.store import default_url

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_url() == f"sqlite:///{tmp_path / 'xdg' / 'cardtable' / 'web.sqlite3'}"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_url() == (
        f"sqlite:///{tmp_path / 'home' / '.local' / 'share' / 'cardtable' / 'web.sqlite3'}")


def test_serve_without_db_creates_the_default_file(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    process = subprocess.Popen([*SERVE, "--port", str(port)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert (tmp_path / "xdg" / "cardtable" / "web.sqlite3").exists()
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    assert process.returncode == 0


@pytest.mark.parametrize(("args", "status", "message"), [
    (["--db", "mysql://x@localhost/y"], 2, "Unsupported database 'mysql'"),
    (["--db", "not a url"], 2, "Invalid database URL"),
    (["--db", "postgresql://nobody@127.0.0.1:1/none"], 2, "Cannot open database"),
    (["--db", "sqlite:////proc/nope/x.db"], 2, "Cannot open database"),
    (["--port", "70000"], 1, "--port must be 0 to 65535"),
    (["--port", "x"], 1, "invalid int value"),
    (["--bot-delay", "-1"], 1, "--bot-delay"),
])
def test_refusals_are_one_line(tmp_path: Path, args: list[str], status: int,
                               message: str) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run([*SERVE, *args], capture_output=True, text=True, timeout=60, env=env,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == status
    assert done.stderr.startswith("cardtable serve: ") and done.stderr.count("\n") == 1
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([*SERVE, "--port", str(port), "--db",
                               f"sqlite:///{tmp_path / 'db.sqlite3'}"],
                              capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
    assert done.returncode == 3
    assert done.stderr == (f"cardtable serve: cannot listen on 127.0.0.1:{port}: "
                           "Address already in use\n")


def test_killed_server_resumes_the_game(sqlite_url: str, tmp_path: Path) -> None:
    import websockets.sync.client as ws_client

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start(sqlite_url, port, tmp_path)
    try:
        created = httpx.post(f"{base}/api/tables", json={
            "game": "caravan", "seats": ["human", "human"]}).json()
        table, tokens = created["table"], created["tokens"]
        played = []
        for seat in ("ABC", "DEF", "ABC"):
            with ws_client.connect(f"ws://127.0.0.1:{port}/api/tables/{table}/ws"
                                   f"?token={tokens[seat]}") as ws:
                frame = {}
                while frame.get("type") != "state":
                    frame = json.loads(ws.recv(timeout=10))
                assert frame["to_move"] == seat
                ws.send(json.dumps({"type": "move", "move": frame["legal"][0]}))
                while not (frame.get("type") == "state" and frame["ply"] == len(played) + 1):
                    frame = json.loads(ws.recv(timeout=10))
                played.append(frame["ply"])
        before = httpx.get(f"{base}/api/tables/{table}").json()
    finally:
        process.kill()
        process.wait(30)
    assert before["ply"] == 3
    process = start(sqlite_url, port, tmp_path)
    try:
        after = httpx.get(f"{base}/api/tables/{table}").json()
        assert after["ply"] == 3 and after["status"] == "playing"
        assert after["observation"] == before["observation"]
        with ws_client.connect(f"ws://127.0.0.1:{port}/api/tables/{table}/ws"
                               f"?token={tokens['DEF']}") as ws:
            frame = {}
            while frame.get("type") != "state":
                frame = json.loads(ws.recv(timeout=10))
            assert frame["to_move"] == "DEF" and frame["legal"]
            ws.send(json.dumps({"type": "move", "move": frame["legal"][0]}))
            while not (frame.get("type") == "state" and frame["ply"] == 4):
                frame = json.loads(ws.recv(timeout=10))
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
