"""``cardtable bench caravan`` and ``bench obsession`` time sampled worlds, alone and with a
compiled playout, both sampled in Python and sampled in the compiled core."""

from __future__ import annotations

import pytest

from cardtable.games.caravan import bench, fast
from cardtable.games.obsession import bench as obsession_bench
from cardtable.games.obsession import fast as obsession_fast


def test_bench_times_sample_world(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--games", "3", "--repeats", "1", "--match-games", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    section = next(i for i, line in enumerate(lines) if line.startswith("sampled world"))
    rows = {line[:19].strip(): line[19:].split() for line in lines[section + 1:] if line}
    assert float(rows["sample_world"][0]) > 0
    timed = {"sample+playout", "core sample", "core sample+play"}
    assert (timed <= set(rows)) == fast.available()
    if fast.available():
        assert all(float(rows[label][0]) > 0 for label in timed)
        # A compiled playout costs more than the sample that starts it.
        assert float(rows["core sample+play"][0]) > float(rows["core sample"][0])


def test_obsession_bench_times_sample_world(capsys: pytest.CaptureFixture[str]) -> None:
    assert obsession_bench.main(["--games", "2", "--repeats", "1", "--players", "2,3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    found = [i for i, line in enumerate(lines) if line.startswith("sampled worlds")]
    assert bool(found) == obsession_fast.available()
    if found:
        assert lines[found[0] + 1].split() == ["Python", "core", "sample", "core", "sample+play"]
        for players, row in zip((2, 3), lines[found[0] + 2:], strict=True):
            number, word, python, sample, played = row.split()
            assert (int(number), word) == (players, "players")
            assert float(python) > 0 and float(sample) > 0
            assert float(played) > float(sample)
