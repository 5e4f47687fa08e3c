"""What ``cardtable bench web`` prints, read back by its tests (test_bench_web.py on one
server, test_bench_servers.py on several): only the shape of its lines, not its figures."""

from __future__ import annotations

import re


def round_trip_moves(output: str) -> int:
    """How many moves the bench's round-trip line says it timed, once that line (with its
    percentiles in order) and the moves-per-second line are in ``output``."""
    match = re.search(r"move round trip: p50 ([\d.]+) ms, p95 ([\d.]+) ms, p99 ([\d.]+) ms "
                      r"\(mean [\d.]+ ms, (\d+) moves\)", output)
    assert match, output
    p50, p95, p99, moves = (float(value) for value in match.groups())
    assert 0 < p50 <= p95 <= p99
    assert re.search(r"moves per second: \d+ client moves, \d+ moves in all", output)
    return int(moves)
