"""``cardtable bench env`` through the installed command: one line per game, bad input refused
with one line and status 1."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from cardtable.envs import environments

CARDTABLE = Path(sys.executable).parent / "cardtable"


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CARDTABLE), "bench", "env", *args], capture_output=True,
                          text=True, timeout=300, check=False)


def test_one_line_per_game_with_steps_per_second() -> None:
    done = bench("--seconds", "0.3", "--repeats", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("env bench: masked random actions")
    rows = lines[1:]
    names = [f"{name}_v0" for name in environments()]
    assert names[:3] == ["caravan_v0", "obsession_v0", "austerity_v0"]
    assert [row.split()[0] for row in rows] == names
    for row in rows:
        rate = re.search(r"steps/s\s+([\d,]+)", row)
        assert rate is not None and int(rate.group(1).replace(",", "")) > 100


def test_one_game_raw_with_its_rules() -> None:
    done = bench("--game", "caravan", "--rules", "nv", "--raw", "--seconds", "0.2",
                 "--repeats", "1")
    assert done.returncode == 0, done.stderr
    assert "raw_env()" in done.stdout.splitlines()[0]
    assert done.stdout.splitlines()[1].split()[:2] == ["caravan_v0", "(nv)"]
    players = bench("--game", "obsession", "--players", "6", "--seconds", "0.2", "--repeats",
                    "1")
    assert "(6 players)" in players.stdout


def test_bad_input_is_one_line_and_status_1() -> None:
    for args, message in ((("--seconds", "0"), "--seconds must be"),
                          (("--repeats", "0"), "--repeats must be"),
                          (("--game", "chess"), "invalid choice"),
                          (("--game", "obsession", "--rules", "nv"),
                           "--rules is a Caravan option (time Caravan alone: --game caravan)"),
                          (("--game", "caravan", "--players", "3"),
                           "--players is an option of Obsession and Austerity (choose one with "
                           "--game)"),
                          (("--game", "caravan", "--rules", "nope"), "Unknown rules preset"),
                          (("--game", "obsession", "--players", "11"), "players")):
        done = bench(*args)
        assert done.returncode == 1, (args, done.stdout, done.stderr)
        assert done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert done.stderr.startswith("cardtable bench env: ")
        assert message in done.stderr


def test_bench_lists_env() -> None:
    done = subprocess.run([str(CARDTABLE), "bench", "--help"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert "env" in done.stdout
