"""Caravan hot-seat records that end at the hand-over prompt ("Pass to PL2 and press Enter.")
replay to that point through the real ``caravan`` program: quit typed there, input ending
there, and quit typed at the next move prompt."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CARAVAN = Path(sys.executable).parent / "caravan"


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CARAVAN), *args], input=stdin, capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.mark.parametrize(("stdin", "status", "cause"), [
    ("P1A\nquit\n", 0, "quit"),          # quit at PL2's hand-over prompt
    ("P1A\n", 3, "eof"),                 # input ends at that prompt
    ("P1A\n\nquit\n", 0, "quit"),        # quit at PL2's move prompt after the hand-over
])
def test_a_hot_seat_record_left_at_the_hand_over_replays(tmp_path: Path, stdin: str,
                                                         status: int, cause: str) -> None:
    record = tmp_path / "game.jsonl"
    played = _run("--pvp", "--plain", "--seed", "3", "--record", str(record), stdin=stdin)
    assert played.returncode == status, played.stderr
    assert "Pass to PL2 and press Enter." in played.stdout
    last = json.loads(record.read_text().splitlines()[-1])
    assert (last["reason"], last["cause"]) == ("abandoned", cause)
    replayed = _run("--plain", "--replay", str(record))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert replayed.stdout.rstrip().endswith(f"The recorded game was not finished ({cause}).")
