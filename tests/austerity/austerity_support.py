"""Shared helpers for the Austerity tests: the installed programs, running them, fake players."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
HUB = str(BIN / "austerity")
PLAYERS = {name: str(BIN / name) for name in ("shenzi", "banzai", "ed")}
CARDTABLE = str(BIN / "cardtable")
HERE = Path(__file__).resolve().parent
DECKS = HERE / "decks"
GOLDEN = HERE / "golden"
FAKE_PLAYER = HERE / "fake_player.py"

# Generous: a run that needs this long is hung, and the test fails instead of waiting forever.
TIMEOUT = 30


def run(args: list[str], stdin: bytes = b"", cwd: Path | str | None = None,
        env: dict[str, str] | None = None, timeout: float = TIMEOUT,
        ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(args, input=stdin, capture_output=True, cwd=cwd, env=env,
                          timeout=timeout, check=False)


def hub(*args: str | Path, cwd: Path | str | None = None, env: dict[str, str] | None = None,
        timeout: float = TIMEOUT) -> subprocess.CompletedProcess[bytes]:
    return run([HUB, *map(str, args)], cwd=cwd, env=env, timeout=timeout)


def player(name: str, messages: list[str] | bytes, *args: str,
           ) -> subprocess.CompletedProcess[bytes]:
    """Run a player program with ``messages`` (lines, each given a newline) on its stdin."""
    data = messages if isinstance(messages, bytes) else "".join(m + "\n" for m in messages).encode()
    return run([PLAYERS[name], *args], stdin=data)


def write_deck(directory: Path, cards: list[str] | str, name: str = "deck") -> Path:
    """A deck file with one card per line (a final newline added) or raw text."""
    path = directory / name
    text = cards if isinstance(cards, str) else "".join(card + "\n" for card in cards)
    path.write_bytes(text.encode())
    return path


def make_fake(directory: Path, name: str, **spec: object) -> Path:
    """An executable fake player driven by ``spec`` (see fake_player.py); returns its path.

    The launcher is a shell script that execs Python, so the player's pid is the one the hub
    started and a SIGKILL reaches the fake itself.
    """
    spec_path = directory / f"{name}.json"
    spec_path.write_text(json.dumps(spec))
    launcher = directory / name
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_PLAYER}" "{spec_path}" "$@"\n')
    launcher.chmod(0o755)
    return launcher


def read_log(path: Path) -> list[str]:
    """The lines a fake player received (it appends each one as it reads it)."""
    if not path.exists():
        return []
    return path.read_text(encoding="latin-1").splitlines()


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
