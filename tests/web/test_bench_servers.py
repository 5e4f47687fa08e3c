"""``cardtable bench web --servers K``: K real server processes on one PostgreSQL database,
each table's two seats played through two of them (small: its figures are not checked, only
that it measures real round trips across servers and the servers' CPU time)."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

from bench_output import round_trip_moves

from cardtable.web.bench import seat_servers

BENCH = [sys.executable, "-m", "cardtable.cli.main", "bench", "web"]


def test_bench_web_over_two_servers(pg_cluster: Any) -> None:
    done = subprocess.run([*BENCH, "--servers", "2", "--tables", "4", "--moves", "3", "--db",
                           pg_cluster.new_database()], capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    first = done.stdout.splitlines()[0]
    assert "4 tables of caravan (two WebSocket clients)" in first
    pids = re.search(r"2 servers \(pids (\d+), (\d+)\), the two seats of each table", first)
    assert pids and pids[1] != pids[2]
    # Each table plays to its ply 6: 3 moves of each of its two clients, each one timed.
    assert round_trip_moves(done.stdout) == 24
    cpu = re.search(r"server CPU: ([\d.]+) s \(2 servers\), ([\d.]+) ms per move "
                    r"\(user ([\d.]+) ms, system ([\d.]+) ms\)", done.stdout)
    assert cpu and float(cpu[1]) > 0 and float(cpu[2]) > 0
    # (the two parts make the whole, to the rounding of each)
    assert abs(float(cpu[3]) + float(cpu[4]) - float(cpu[2])) <= 0.002


def test_the_seats_go_round_the_servers_or_stay_together() -> None:
    assert [seat_servers(table, 2, 4) for table in range(5)] == [
        [0, 1], [1, 2], [2, 3], [3, 0], [0, 1]]
    assert [seat_servers(table, 2, 4, together=True) for table in range(5)] == [
        [0, 0], [1, 1], [2, 2], [3, 3], [0, 0]]
    assert seat_servers(7, 3, 1) == [0, 0, 0]


def test_bench_web_with_each_tables_seats_together(pg_cluster: Any) -> None:
    done = subprocess.run([*BENCH, "--servers", "2", "--together", "--tables", "4", "--moves",
                           "3", "--db", pg_cluster.new_database()], capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"2 servers \(pids \d+, \d+\), both seats of each table on the server "
                     r"it was made on", done.stdout.splitlines()[0])
    assert round_trip_moves(done.stdout) == 24
    assert "ms per move (user" in done.stdout


def test_together_needs_servers() -> None:
    done = subprocess.run([*BENCH, "--together"], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stderr) == (1, "cardtable bench web: --together needs "
                                                 "--servers K (the seats of a table of two "
                                                 "people)\n")


def test_several_servers_need_postgresql(tmp_path: Any) -> None:
    for options in (["--servers", "2"], ["--servers", "3", "--db",
                                         f"sqlite:///{tmp_path / 'bench.sqlite3'}"]):
        done = subprocess.run([*BENCH, *options], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 1
        assert done.stderr == (f"cardtable bench web: --servers {options[1]} needs --db "
                               "postgresql://USER:PASSWORD@HOST/NAME (several servers share "
                               "one PostgreSQL database)\n")
    done = subprocess.run([*BENCH, "--servers", "0"], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stderr) == (1, "cardtable bench web: --servers must be 1 "
                                                 "to 16\n")
    assert not (tmp_path / "bench.sqlite3").exists()
