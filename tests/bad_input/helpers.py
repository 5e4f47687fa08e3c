"""Running the installed programs on hostile input, as bytes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
DIGITS = "1" * 4301
"""One digit more than ``int()`` converts from text by default."""


def run(program: str, *args: str, stdin: bytes = b"", env: dict[str, str] | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(BIN / program), *args], input=stdin, capture_output=True,
                          timeout=timeout, check=False, env={**os.environ, **(env or {})})


def run_with_closed(stream: int, program: str, *args: str,
                    timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """Run ``program`` with file descriptor ``stream`` (0 or 1) closed, as ``<&-`` / ``>&-``."""
    script = f'exec "$0" "$@" {stream}>&-' if stream else 'exec "$0" "$@" <&-'
    return subprocess.run(["/bin/sh", "-c", script, str(BIN / program), *args],
                          stdin=subprocess.DEVNULL if stream else None,
                          stdout=None if stream else subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout, check=False)


def one_error_line(done: subprocess.CompletedProcess[bytes], prefix: str) -> str:
    """The message of the single stderr line of a failed start, after ``prefix: ``."""
    err = done.stderr.decode()
    assert b"Traceback" not in done.stderr, err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(f"{prefix}: "), err
    return err.removeprefix(f"{prefix}: ").rstrip("\n")
