"""``cardtable serve --workers N`` as real processes on a real PostgreSQL: N servers on one
address, each with its own id and heartbeat row; a server process killed is started again
(and the log says so); SIGTERM ends them all (status 0), a parent killed takes its children
with it. On SQLite several processes are refused: ``--workers 2`` (status 1) and a second
``cardtable serve`` on the same file while the first runs (status 2), not after it died."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select
from webplay import free_port

from cardtable.web import schema
from cardtable.web.store import normalize_url
from waiting import wait_until

SERVE = [sys.executable, "-m", "cardtable.cli.main", "serve"]
TIMEOUT = 90.0


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def parent_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("PPid:"):
            return int(line.split()[1])
    return 0


class Serve:
    """``cardtable serve`` with ``args``, its standard error in a file."""

    def __init__(self, tmp_path: Path, db: str, *args: str, name: str = "serve") -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp_path / f"{name}.log"
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [*SERVE, "--port", str(self.port), "--db", db, "--bot-delay", "0", *args],
                stdout=subprocess.PIPE, stderr=log, text=True, env=env)

    def health(self) -> dict[str, Any] | None:
        """``/api/health`` on a new connection (the kernel gives it to any server process)."""
        assert self.process.poll() is None, self.log.read_text()
        try:
            answer = httpx.get(f"{self.base}/api/health", timeout=10)
        except httpx.HTTPError:
            return None
        body: dict[str, Any] = answer.json()
        return body if answer.status_code == 200 else None

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=TIMEOUT)


def live_servers(url: str, lease: float) -> dict[str, int]:
    """Server id → pid of every server whose heartbeat is recent."""
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(schema.servers)
                                .where(schema.servers.c.heartbeat >= time.time() - lease))
            return {row.id: row.pid for row in rows}
    finally:
        engine.dispose()


def test_workers_serve_one_address_from_several_processes(pg_cluster: Any,
                                                          tmp_path: Path) -> None:
    url = pg_cluster.new_database()
    serve = Serve(tmp_path, url, "--workers", "2", "--lease", "2")
    try:
        wait_until(serve.health, "the servers to answer", TIMEOUT, 0.2)
        # Each new connection goes to one of the two: both answer, each with its own id.
        answered: set[str] = set()

        def both_answered() -> bool:
            health = serve.health()
            if health is not None:
                answered.add(health["server"])
            return len(answered) == 2

        wait_until(both_answered, "answers from two servers", TIMEOUT, 0.01)
        servers = wait_until(lambda: len(live_servers(url, 2)) == 2 and live_servers(url, 2),
                             "two heartbeat rows", TIMEOUT)
        assert set(servers) == answered
        pids = set(servers.values())
        assert len(pids) == 2 and all(parent_of(pid) == serve.process.pid for pid in pids)

        # A server process killed is started again, with a new id.
        killed = min(pids)
        os.kill(killed, signal.SIGKILL)
        line = wait_until(lambda: [text for text in serve.log.read_text().splitlines()
                                   if f"(pid {killed}) was killed by SIGKILL" in text],
                          "the log line of the restart", TIMEOUT)
        assert line[0].startswith("cardtable: server process ")
        assert line[0].endswith("; starting it again")

        def replaced() -> dict[str, int] | None:
            now = live_servers(url, 2)
            alive = {pid for pid in now.values() if running(pid)}
            return now if len(alive) == 2 and killed not in alive else None

        after = wait_until(replaced, "a new server process", TIMEOUT, 0.1)
        assert len(set(after) - set(servers)) == 1
        children = set(after.values()) - {killed}
        assert all(parent_of(pid) == serve.process.pid for pid in children if running(pid))
        assert wait_until(serve.health, "an answer after the restart", TIMEOUT, 0.1)
    finally:
        status = serve.stop()
    out = serve.process.stdout.read() if serve.process.stdout else ""
    assert status == 0, serve.log.read_text()
    assert f"lobby at http://127.0.0.1:{serve.port}/" in out
    assert "2 server processes" in out
    wait_until(lambda: not any(running(pid) for pid in children), "every server to end",
               TIMEOUT)
    # They stopped cleanly: their rows are gone (the killed one's may stay a while).
    assert set(live_servers(url, 3600).values()) <= {killed}


def test_killed_parent_takes_its_servers_with_it(pg_cluster: Any, tmp_path: Path) -> None:
    url = pg_cluster.new_database()
    serve = Serve(tmp_path, url, "--workers", "2")
    try:
        wait_until(serve.health, "the servers to answer", TIMEOUT, 0.2)
        pids = set(wait_until(lambda: len(live_servers(url, 5)) == 2 and live_servers(url, 5),
                              "two servers", TIMEOUT).values())
    finally:
        serve.process.kill()
        serve.process.wait(TIMEOUT)
    wait_until(lambda: not any(running(pid) for pid in pids), "the servers to end", TIMEOUT)


def refusal(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    return subprocess.run([*SERVE, "--port", str(free_port()), *args], capture_output=True,
                          text=True, timeout=TIMEOUT, env=env, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize(("args", "message"), [
    (["--workers", "2"], "cardtable serve: Several server processes need PostgreSQL: "
                         "--workers 2 cannot share a SQLite file"),
    (["--workers", "0"], "cardtable serve: --workers must be 1 to 64"),
    (["--lease", "0.5"], "cardtable serve: --lease must be 1 to 600 seconds"),
])
def test_bad_process_options_are_refused(tmp_path: Path, sqlite_url: str, args: list[str],
                                         message: str) -> None:
    done = refusal(tmp_path, "--db", sqlite_url, *args)
    assert done.returncode == 1
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1
    assert not (tmp_path / "web.sqlite3").exists()  # (refused before the database is made)


def test_a_second_process_on_one_sqlite_file_is_refused(tmp_path: Path,
                                                        sqlite_url: str) -> None:
    first = Serve(tmp_path, sqlite_url, name="first")
    try:
        wait_until(first.health, "the first server", TIMEOUT, 0.2)
        done = refusal(tmp_path, "--db", sqlite_url)
        assert done.returncode == 2
        assert done.stderr == (
            f"cardtable serve: Another cardtable server (process {first.process.pid} on "
            f"{os.uname().nodename[:255]}) uses this database; several server processes need "
            "PostgreSQL.\n")
        assert first.health()  # (the first one serves on)
    finally:
        first.process.kill()
        first.process.wait(TIMEOUT)
    # A server that died (its heartbeat still recent) does not keep the file: a restart at
    # once is served.
    second = Serve(tmp_path, sqlite_url, name="second")
    try:
        wait_until(second.health, "a server after the first one died", TIMEOUT, 0.2)
    finally:
        assert second.stop() == 0
