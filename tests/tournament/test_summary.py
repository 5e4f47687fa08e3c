"""The summary's counts for tables of more than two: first and last places with intervals."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.tournament.report import text
from cardtable.tournament.schedule import Config, Entrant
from cardtable.tournament.stats import wilson_interval
from cardtable.tournament.summary import summarise

LABELS = ("search", "rule", "rule#2", "rule#3")
CONFIG = Config("obsession", {"players": 4}, 4,
                tuple(Entrant(label, label.split("#")[0]) for label in LABELS), "search", 1)


def line(seats: tuple[str, ...], ranks: list[int]) -> dict[str, Any]:
    return {"seats": list(seats), "result": {"ranks": ranks}, "moves": 100, "time": 1.0}


# search: first, first, last, second, and a stalemate where it is placed (first of a
# shared-last game) and one where it is not placed (shared last).
LINES = [
    line(LABELS, [0, 1, 2, 3]),
    line(("rule", "search", "rule#2", "rule#3"), [3, 0, 1, 2]),
    line(("rule", "rule#2", "search", "rule#3"), [0, 1, 3, 2]),
    line(("rule", "rule#2", "rule#3", "search"), [0, 2, 3, 1]),
    line(LABELS, [0, 1, 1, 1]),
    line(LABELS, [1, 0, 1, 1]),
]


def test_first_and_last_places_are_counted_with_their_wilson_intervals() -> None:
    players = {player["name"]: player for player in summarise(CONFIG, LINES)["players"]}
    search = players["search"]
    assert search["games"] == 6
    assert search["first_places"] == 3
    assert search["first_place_rate"] == pytest.approx(0.5)
    assert search["first_place_ci95"] == pytest.approx(wilson_interval(3, 6), abs=1e-6)
    assert search["last_places"] == 2  # the lost game and the stalemate it was not placed in
    assert search["last_place_rate"] == pytest.approx(2 / 6, abs=1e-6)
    assert search["last_place_ci95"] == pytest.approx(wilson_interval(2, 6), abs=1e-6)
    rule = players["rule"]
    assert (rule["first_places"], rule["last_places"]) == (3, 2)


def test_the_table_shows_first_and_last_place_rates_for_larger_tables() -> None:
    report = text(summarise(CONFIG, LINES))
    header = next(row for row in report.splitlines() if row.startswith("seat"))
    assert header.split()[-2:] == ["1st", "last"]
    search = next(row for row in report.splitlines() if row.startswith("search"))
    assert search.endswith(" 50.0%   33.3%")
