"""A real terminal for the tests: tmux runs the installed entry points, the tests type and
read the screen. Each test that takes the ``session`` fixture (conftest.py) talks to a tmux
server of its own."""

from __future__ import annotations

import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from waiting import TIMEOUT, wait_until

TMUX = shutil.which("tmux")
needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
BIN = Path(sys.executable).parent

SOCKET = f"cardtable-tests-{uuid.uuid4().hex[:8]}"
"""The private tmux server the tests talk to, so that they neither see nor disturb anyone's
sessions (the ``session`` fixture gives each test one of its own)."""


def tmux(*args: str) -> str:
    assert TMUX is not None
    done = subprocess.run([TMUX, "-L", SOCKET, "-f", "/dev/null", *args],
                          capture_output=True, text=True, timeout=20, check=False)
    return done.stdout


def start(name: str, command: str) -> None:
    tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", name,
         f"env TERM=xterm-256color {command}; sleep 30")


def pane_text(name: str) -> str:
    """The text on the screen of session ``name`` now."""
    return tmux("capture-pane", "-p", "-t", name)


def wait_for(name: str, text: str, timeout: float = TIMEOUT) -> str:
    """The screen of session ``name`` once ``text`` is on it (the last screen seen is shown
    when it never is)."""
    seen = [""]

    def shown() -> str | None:
        seen[0] = pane_text(name)
        return seen[0] if text in seen[0] else None

    try:
        return wait_until(shown, repr(text), timeout)
    except AssertionError:
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{seen[0]}") from None
