"""Fixtures for the web server tests: a database per test, on SQLite and on PostgreSQL.

PostgreSQL runs as a throwaway cluster (Debian's ``initdb``/``pg_ctl``) in a temporary
directory on a free port, started once per test session; each test gets its own database in
it. As root the cluster runs as the ``postgres`` user (PostgreSQL refuses to run as root).
Without PostgreSQL's programs the PostgreSQL half is skipped, except under CI, where
``.ci/run`` installs them and a missing cluster is a failure.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from webplay import Server, free_port

from waiting import TIMEOUT

BACKENDS = ("sqlite", "postgresql")


def _pg_bin() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True):
        return Path(candidate).parent
    return None


class Cluster:
    def __init__(self) -> None:
        bindir = _pg_bin()
        if bindir is None:
            if os.environ.get("CI"):
                pytest.fail("PostgreSQL's programs (initdb, pg_ctl) are missing under CI")
            pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            runuser = shutil.which("runuser") or "/usr/sbin/runuser"
            self.prefix = [runuser, "-u", "postgres", "--"]
        self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "cardtable", "--no-sync",
                 "-E", "UTF8")
        self.start()
        self.counter = itertools.count()

    def start(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-t", "60",
                 "-o", f"-p {self.port} -k {self.dir} -h 127.0.0.1 -F -c fsync=off", "start")

    def halt(self) -> None:
        """Stop the server at once, as a crash would (it recovers when started again)."""
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def run(self, program: str, *args: str) -> None:
        subprocess.run([*self.prefix, str(self.bindir / program), *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.dir)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://cardtable@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        name = f"t{os.getpid()}_{next(self.counter)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        subprocess.run([*self.prefix, str(self.bindir / "pg_ctl"), "-D", str(self.data),
                        "-m", "immediate", "-w", "stop"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.1)
        shutil.rmtree(self.dir, ignore_errors=True)


async def _receive_within(session: Any) -> Any:
    try:
        with anyio.fail_after(TIMEOUT):
            return await session._send_rx.receive()
    except TimeoutError:
        raise AssertionError(f"no WebSocket message for {TIMEOUT:.0f} s") from None


@pytest.fixture(autouse=True)
def messages_within_a_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test's WebSocket waits for a message at most ``TIMEOUT`` seconds, and then fails:
    the test client's own wait has no limit, so a frame that never comes would hang the run
    (cancelling the read of its in-memory queue loses no message)."""
    from starlette.testclient import WebSocketTestSession  # (imported here, where pytest
                                                          # filters its warnings)

    def receive(session: WebSocketTestSession) -> Any:
        return session.portal.call(_receive_within, session)

    monkeypatch.setattr(WebSocketTestSession, "receive", receive)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    cluster = Cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_own_cluster() -> Iterator[Cluster]:
    """A cluster of the test's own, which it may ``halt`` and ``start`` again."""
    cluster = Cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: a SQLite file, or a new database in the test cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'web.sqlite3'}"
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    with Server(db_url) as running:
        yield running


@pytest.fixture
def sqlite_server(sqlite_url: str) -> Iterator[Server]:
    with Server(sqlite_url) as running:
        yield running
