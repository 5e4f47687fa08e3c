"""``cardtable bench caravan``: complete games first, then clones and the match loop."""

from __future__ import annotations

import pytest

from cardtable.games.caravan import bench, fast


def lines_of(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert bench.main(["--games", "3", "--repeats", "2", "--match-games", "2", *args]) == 0
    return capsys.readouterr().out.splitlines()


def rate(lines: list[str], start: str, label: str) -> float:
    """The median on the line ``label`` in the section whose heading starts with ``start``."""
    section = next(i for i, line in enumerate(lines) if line.startswith(start))
    row = next(line.strip() for line in lines[section:] if line.strip().startswith(label))
    return float(row[len(label):].split()[0])


def test_bench_reports_complete_games_clones_and_the_match_loop(capsys):
    lines = lines_of(capsys)
    assert lines[1] == f"engine: {fast.engine_name()}"
    assert lines[2] == "times: CPU time of this process"
    assert rate(lines, "complete games", "games/s") > 0
    assert rate(lines, "complete games", "moves/game") > 10
    assert rate(lines, "clone", "Python Game") > 0
    assert rate(lines, "match loop", "moves/s") > 0
    assert any(line.strip().startswith("compiled state") for line in lines) == fast.available()


def test_bench_deals_complete_games_in_the_core_when_it_is_built(capsys):
    lines = lines_of(capsys, "--match-games", "0")
    how = ("compiled deal + compiled playout" if fast.available()
           else "Game.new in Python + Python playout")
    assert f"{how} to the end" in lines[4]


def test_bench_shows_the_cost_per_move_early_and_late_in_long_games(capsys, monkeypatch):
    # Blocks of 16 moves make every power game a long one.
    monkeypatch.setattr(bench, "BLOCK", 16)
    lines = lines_of(capsys)
    assert rate(lines, "match loop", "us/move") > 0
    row = next(line for line in lines if "first and last 16 moves" in line)
    first, last = (float(value) for value in row.split(":")[1].split(","))
    assert first > 0 and last > 0


def test_bench_falls_back_to_pure_python_without_the_core(capsys, monkeypatch):
    monkeypatch.setattr(fast, "_CORE", None)
    lines = lines_of(capsys, "--match-games", "0")
    assert lines[1] == "engine: pure Python — core not built or CARDTABLE_PURE=1"
    assert "Python playout" in lines[4]
    assert rate(lines, "complete games", "games/s") > 0
    assert not any(line.startswith("match loop") for line in lines)
    assert not any("compiled" in line for line in lines)


@pytest.mark.parametrize("args", [["--games", "0"], ["--match-games", "-1"], ["--seed", "x"],
                                  ["--repeats", "1.5"], ["--rules", "vegas"], ["--nope"],
                                  ["--rules", "nv", "--cards", "216"]])
def test_bench_refuses_bad_options_with_status_1(args, capsys):
    assert bench.main(args) == 1
    assert capsys.readouterr().err.strip()


def test_bench_gives_the_deck_message_for_decks_the_samples_cannot_fill(capsys):
    assert bench.main(["--cards", "100", "--games", "1"]) == 1  # power: one sample deck
    assert capsys.readouterr().err == (
        "cardtable bench caravan: There are insufficient cards to sample for the caravan deck.\n")


def test_output_piped_into_head_ends_quietly() -> None:
    """The reader going away is not an error worth a traceback (status 1, stderr empty)."""
    import subprocess
    import sys
    from pathlib import Path

    cardtable = Path(sys.executable).with_name("cardtable")
    done = subprocess.run(
        f"'{cardtable}' bench caravan --games 20 --repeats 2 --match-games 0 | head -1",
        shell=True, capture_output=True, text=True, timeout=120, check=False)
    assert done.stdout.startswith("caravan bench: ")
    assert done.stderr == ""
