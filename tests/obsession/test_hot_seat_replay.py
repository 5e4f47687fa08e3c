"""Hot-seat records that end at a pass prompt replay to the point where they stopped.

Between two human turns the line mode asks "Pass to Player N, press Enter" and ignores the
line; a game abandoned there (quit typed at the next card prompt, input ending, a signal)
is recorded with the state after the last decision, and its replay must stop at the same
point with the recorded cause, through the real ``obsession`` program.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from .cli_helpers import SCRIPT, run

# Two humans, seed 3: P1 passes and swaps, P2 passes and swaps, P2's opening play is made
# for it after its pass prompt, then P1's pass prompt takes "quit" (ignored, as the pass
# prompt ignores its line) and P1's card prompt takes "quit".
SWAPS = "\n1,2,3\n\n1,2,3\n\n"
QUIT_AFTER_PASS = SWAPS + "quit\nquit\n"
# One play by P1 more, so the record has plays and the last line sits further down.
QUIT_LATER = SWAPS + "\n1\n\nquit\nquit\n"
ARGS = ["--plain", "--players", "2", "--humans", "2", "--seed", "3"]


def _result(path: Path) -> dict[str, object]:
    last: dict[str, object] = json.loads(path.read_text().splitlines()[-1])
    return last


def _record(tmp_path: Path, stdin: str, name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    played = run([*ARGS, "--record", str(path)], stdin)
    assert played.returncode == 0, played.stderr
    assert played.stdout.endswith("!!! Game abandoned\n")
    return path


def test_quit_after_an_ignored_pass_prompt_replays(tmp_path: Path) -> None:
    path = _record(tmp_path, QUIT_AFTER_PASS)
    assert _result(path)["cause"] == "quit"
    replayed = run(["--plain", "--replay", str(path)])
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "mismatch" not in replayed.stdout
    assert replayed.stdout.endswith("!!! The recorded game was not finished (quit).\n")


def test_quit_replay_shows_the_transcript_up_to_the_card_prompt(tmp_path: Path) -> None:
    """The replay prints what the players saw: the pass prompt answered, then the board and
    the card prompt at which quit was typed."""
    path = _record(tmp_path, QUIT_LATER)
    played = run([*ARGS], QUIT_LATER)
    replayed = run(["--plain", "--replay", str(path)])
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    original = played.stdout.removesuffix("!!! Game abandoned\n")
    shown = replayed.stdout.removesuffix("!!! The recorded game was not finished (quit).\n")
    assert shown.rstrip("\n") == original.rstrip("\n")
    assert shown.rstrip().endswith("+++ Enter card number(s):")


def test_end_of_input_at_a_pass_prompt_replays(tmp_path: Path) -> None:
    path = tmp_path / "eof.jsonl"
    played = run([*ARGS, "--record", str(path)], SWAPS)
    assert played.returncode == 3
    assert _result(path)["cause"] == "eof"
    replayed = run(["--plain", "--replay", str(path)])
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert replayed.stdout.endswith("!!! The recorded game was not finished (eof).\n")


def test_a_signal_at_a_pass_prompt_replays(tmp_path: Path) -> None:
    path = tmp_path / "stopped.jsonl"
    command = [str(SCRIPT)] if SCRIPT.exists() else [
        sys.executable, "-c", "import sys; from cardtable.cli.obsession import main; "
        "sys.exit(main())"]
    process = subprocess.Popen([*command, *ARGS, "--record", str(path)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(SWAPS)
    process.stdin.flush()
    # Wait for P1's pass prompt after P2's opening play: the fourth pass prompt.
    seen = ""
    while seen.count("Pass to Player") < 4:
        chunk = process.stdout.read(1)
        assert chunk, seen
        seen += chunk
    process.send_signal(signal.SIGTERM)
    process.stdout.read()
    assert process.wait(timeout=30) == 143
    assert _result(path)["cause"] == "sigterm"
    replayed = run(["--plain", "--replay", str(path)])
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert replayed.stdout.endswith("!!! The recorded game was not finished (sigterm).\n")
