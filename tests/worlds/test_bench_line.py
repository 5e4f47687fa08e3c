"""``cardtable bench caravan`` times sampled worlds, alone and with a compiled playout."""

from __future__ import annotations

import pytest

from cardtable.games.caravan import bench, fast


def test_bench_times_sample_world(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--games", "3", "--repeats", "1", "--match-games", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    section = next(i for i, line in enumerate(lines) if line.startswith("sampled world"))
    rows = [line.strip() for line in lines[section + 1:]]
    assert float(rows[0].removeprefix("sample_world").split()[0]) > 0
    assert any(row.startswith("sample+playout") for row in rows) == fast.available()
