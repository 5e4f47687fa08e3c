"""``obsession --replay`` in a real terminal (tmux): the full screen, or the transcript with
``--plain``. Skipped when tmux is not installed."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

from waiting import wait_until

from .terminal import BIN, needs_tmux, pane_text, start, tmux, wait_for

pytestmark = needs_tmux

OBSESSION = shlex.quote(str(BIN / "obsession"))


def bots_record(path: Path) -> None:
    subprocess.run([str(BIN / "obsession"), "--plain", "--humans", "0", "--seed", "3",
                    "--delay", "0", "--record", str(path)],
                   capture_output=True, timeout=120, check=True)


def test_obsession_replay_opens_the_full_screen(session: str, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    bots_record(record)
    start(session, f"{OBSESSION} --replay {shlex.quote(str(record))} --delay 5 --ascii")
    # A move each five seconds: the keys below come long before the end of the record.
    screen = wait_for(session, ", playing")
    assert "Table" in screen and "Hands" in screen
    tmux("send-keys", "-t", session, "Space")
    screen = wait_for(session, "paused")
    tmux("send-keys", "-t", session, "End")
    screen = wait_for(session, "end of record")
    assert "Game over" in screen
    tmux("send-keys", "-t", session, "Escape")
    wait_until(lambda: "move " not in pane_text(session), "the replay's screen to close")
    assert ", end of record" not in pane_text(session)


def test_obsession_replay_with_plain_prints_the_transcript(session: str,
                                                           tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    bots_record(record)
    start(session, f"{OBSESSION} --replay {shlex.quote(str(record))} --plain --delay 0")
    screen = wait_for(session, "=== Game Over ===")
    assert "*** Played a" in screen
    assert "end of record" not in screen and "Hands" not in screen


def test_a_record_that_does_not_replay_is_refused_before_the_screen(session: str,
                                                                    tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    bots_record(record)
    lines = record.read_text(encoding="utf-8").splitlines()
    line = json.loads(lines[20])
    line["seat"] = f"P{int(line['seat'][1:]) % 4 + 1}"
    lines[20] = json.dumps(line)
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    start(session, f"{OBSESSION} --replay {shlex.quote(str(record))}; echo status=$?")
    screen = wait_for(session, "status=")
    assert "!!! Replay mismatch at line 21: " in screen and "\nstatus=4" in screen
    assert "*** Played" not in screen
