"""Shared helpers of the external-bot tests: paths, specs, and process checks."""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "bots"
SCRIPTS = Path(__file__).resolve().parent / "scripts"
BIN = Path(sys.executable).parent


def command(*args: object) -> list[str]:
    """A Python program of this interpreter with its arguments."""
    return [sys.executable, *map(str, args)]


def spec(*args: object) -> str:
    """``exec:`` spec running a Python program of this interpreter."""
    return "exec:" + shlex.join(command(*args))


def gone(pid: int) -> bool:
    """The process no longer runs (a zombie not yet reaped by init counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" in status


def wait_gone(pids: list[int], seconds: float = 60.0) -> list[int]:
    """The pids still running after ``seconds`` (at once when all are gone)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(gone(pid) for pid in pids):
            return []
        time.sleep(0.05)
    return [pid for pid in pids if not gone(pid)]


def pids_in(path: Path, count: int, seconds: float = 60.0) -> list[int]:
    """Wait for ``count`` process ids in ``path`` (written by a test bot) and return them."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists():
            lines = path.read_text().split()
            if len(lines) >= count:
                return [int(line) for line in lines[:count]]
        time.sleep(0.05)
    raise AssertionError(f"no {count} pids in {path}")
