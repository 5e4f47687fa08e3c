"""``cardtable bench web`` runs end to end (small: its figures are not checked, only that it
measures real round trips on a real server)."""

from __future__ import annotations

import subprocess
import sys

from bench_output import round_trip_moves


def test_bench_web_small() -> None:
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "bench", "web",
                           "--tables", "4", "--moves", "3"], capture_output=True, text=True,
                          timeout=180, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert round_trip_moves(done.stdout) == 12


def test_bench_web_refuses_bad_options() -> None:
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "bench", "web",
                           "--tables", "0"], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert done.stderr == "cardtable bench web: --tables and --moves must be at least 1\n"
