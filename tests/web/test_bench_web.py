"""``cardtable bench web`` runs end to end (small: its figures are not checked, only that it
measures real round trips on a real server)."""

from __future__ import annotations

import re
import subprocess
import sys


def test_bench_web_small() -> None:
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "bench", "web",
                           "--tables", "4", "--moves", "3"], capture_output=True, text=True,
                          timeout=180, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    match = re.search(r"move round trip: p50 ([\d.]+) ms, p95 ([\d.]+) ms, p99 ([\d.]+) ms "
                      r"\(mean [\d.]+ ms, (\d+) moves\)", done.stdout)
    assert match, done.stdout
    p50, p95, p99, moves = (float(value) for value in match.groups())
    assert 0 < p50 <= p95 <= p99 and moves == 12
    assert re.search(r"moves per second: \d+ client moves, \d+ moves in all", done.stdout)


def test_bench_web_refuses_bad_options() -> None:
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "bench", "web",
                           "--tables", "0"], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert done.stderr == "cardtable bench web: --tables and --moves must be at least 1\n"
