"""The process backend (``--jobs N``): the same games as one process, a worker that dies is a
one-line failure rather than a wait, and stopping early leaves no worker behind."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from cardtable.tournament import backends
from cardtable.tournament.backends import InProcess, Processes
from cardtable.tournament.errors import TournamentError
from cardtable.tournament.runner import run
from cardtable.tournament.schedule import Config, Entrant, schedule

CONFIG = Config("caravan", {}, 2, (Entrant("normal", "normal"), Entrant("random", "random")),
                None, 7)


def _without_times(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: value for key, value in line.items() if key != "time"} for line in lines]


def test_processes_play_the_same_games_as_one_process() -> None:
    many = run(CONFIG, 40, Processes(2))
    one = run(CONFIG, 40, InProcess())
    assert many.played == 40
    assert _without_times(many.lines) == _without_times(one.lines)


def test_a_worker_that_dies_fails_its_game_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def die(config: Config, tasks: list[Any]) -> list[dict[str, Any]]:
        os._exit(3)

    monkeypatch.setattr(backends, "play_batch", die)  # the forked workers inherit it
    backend = Processes(2)
    start = time.monotonic()
    with pytest.raises(TournamentError, match=r"^Game \d+ \(.*\) failed: RuntimeError: a worker "
                                              r"process ended while playing it$"):
        list(backend.run(CONFIG, schedule(CONFIG, 10)))
    backend.close()
    assert time.monotonic() - start < 30


def test_stopping_early_ends_every_worker() -> None:
    backend = Processes(2)
    games = backend.run(CONFIG, schedule(CONFIG, 200))
    next(games)
    workers = [process for process, _ in backend.workers]
    assert len(workers) == 2 and all(process.is_alive() for process in workers)
    backend.close()
    assert not any(process.is_alive() for process in workers)
    assert backend.workers == []


def test_a_worker_that_ended_before_its_first_batch_fails_a_game_in_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing.context

    def die(config: Config, connection: Any) -> None:
        os._exit(3)

    start = multiprocessing.context.ForkProcess.start

    def start_and_wait_for_the_end(process: Any) -> None:
        start(process)
        process.join()  # ended before the parent sends it anything: sending fails

    monkeypatch.setattr(backends, "_worker", die)
    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start", start_and_wait_for_the_end)
    backend = Processes(2)
    with pytest.raises(TournamentError, match=r"^Game \d+ \(.*\) failed: RuntimeError: a worker "
                                              r"process ended while playing it$"):
        list(backend.run(CONFIG, schedule(CONFIG, 10)))
    backend.close()
