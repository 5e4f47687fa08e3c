"""Real-browser tests: a real server process (``cardtable serve`` on a free loopback port, a
SQLite file in a temporary directory) driven by Debian's Chromium through Playwright.

The browser is the system's (``/usr/bin/chromium``; ``.ci/run`` installs it): Playwright's own
browser download is not used. Screenshots go to ``$CARDTABLE_SCREENSHOTS`` when it is set
(``CARDTABLE_SCREENSHOTS=docs/images`` refreshes the documentation's pictures), else to the
test's temporary directory.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
START_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """``cardtable serve`` in a child process; ``restart`` stops it (SIGTERM) and starts it
    again on the same port and database, as after a crash or a deploy."""

    def __init__(self, directory: Path, options: tuple[str, ...] = (),
                 program: tuple[str, ...] = ("-m", "cardtable.cli.main")) -> None:
        self.options = options
        """More options of ``cardtable serve`` (``--allow-exec NAME=COMMAND``)."""
        self.program = program
        """What the interpreter runs: cardtable's command line, or a script that sets up the
        server's process first and then runs it (a test game registered)."""
        self.port = free_port()
        self.db_url = f"sqlite:///{directory / 'tables.db'}"
        self.log = directory / "server.log"
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, *self.program, "serve", "--port", str(self.port),
                   "--db", self.db_url, "--bot-delay", "0", *self.options]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + "/api/health", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not answer /api/health in time")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def restart(self) -> None:
        self.stop()
        self.start()

    def errors(self) -> list[str]:
        """Tracebacks in the server's log (there must be none)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return [line for line in text.splitlines() if "Traceback" in line]


def running_server(tmp_path_factory: pytest.TempPathFactory,
                   options: tuple[str, ...] = (),
                   program: tuple[str, ...] = ("-m", "cardtable.cli.main")) -> Iterator[Server]:
    """A fixture's body: a server with ``options`` for the module, checked for tracebacks."""
    running = Server(tmp_path_factory.mktemp("server"), options, program)
    running.start()
    try:
        yield running
    finally:
        running.stop()
    assert running.errors() == [], running.log.read_text()[-4000:]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from running_server(tmp_path_factory)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Chromium, for the tests of one module: Playwright's synchronous API keeps an event loop
    running while it is open, so it is closed before a test of another module (one that
    starts its own loop) runs in the same worker."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture()
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: ``$CARDTABLE_SCREENSHOTS`` (the docs' images) or a temp dir."""
    target = os.environ.get("CARDTABLE_SCREENSHOTS")
    path = Path(target) if target else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path
