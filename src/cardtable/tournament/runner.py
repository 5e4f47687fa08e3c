"""Running a tournament: skip the games already in the results file, play the others on a
backend, write each as it finishes, stop early when the SPRT decides, and summarise."""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.engine.one_line import one_line
from cardtable.tournament.backends import Backend
from cardtable.tournament.errors import interrupted
from cardtable.tournament.results import Writer, read
from cardtable.tournament.schedule import Config, schedule
from cardtable.tournament.stats import sprt
from cardtable.tournament.summary import SprtSetting, outcome, summarise


@dataclass
class Outcome:
    """What a run gives: the summary, and the games it covers in schedule order."""

    summary: dict[str, Any]
    lines: list[dict[str, Any]]
    played: int
    resumed: int


class _SprtWatch:
    """The SPRT over the schedule's games in order: its decision depends only on the games,
    never on which finished first, so every backend stops at the same game."""

    def __init__(self, config: Config, setting: SprtSetting) -> None:
        self.first = config.entrants[0].label
        self.setting = setting
        self.counts = [0, 0, 0]
        self.next = 0
        self.decided_at: int | None = None

    def advance(self, results: dict[int, dict[str, Any]]) -> bool:
        """Take in the games now contiguous from the start; True once the test decides."""
        while self.decided_at is None and self.next in results:
            line = results[self.next]
            result = outcome(line, line["seats"].index(self.first))
            self.counts[("win", "draw", "loss").index(result)] += 1
            self.next += 1
            wins, draws, losses = self.counts
            test = sprt(wins, draws, losses, self.setting.elo0, self.setting.elo1,
                        self.setting.alpha, self.setting.beta)
            if test.verdict is not None:
                self.decided_at = self.next
        return self.decided_at is not None


def run(config: Config, games: int, backend: Backend, out: Path | None = None,
        sprt_setting: SprtSetting | None = None,
        progress: Callable[[int], Any] | None = None) -> Outcome:
    """Play the schedule of ``games`` games per table; ``progress(total)`` gives a context
    manager with ``advance()`` (or None for no progress display)."""
    tasks = list(schedule(config, games))
    existing = read(out, config) if out is not None else None
    results: dict[int, dict[str, Any]] = {}
    if existing is not None:
        for task in tasks:
            line = existing.games.get(task.key)
            if line is not None:
                results[task.index] = line
    resumed = len(results)
    watch = _SprtWatch(config, sprt_setting) if sprt_setting is not None else None
    decided = watch is not None and watch.advance(results)
    pending = [task for task in tasks if task.index not in results] if not decided else []
    writer = Writer(out, config, existing) if out is not None and existing is not None else None
    played = 0
    try:
        bar = progress(len(pending)) if progress is not None and pending else nullcontext()
        with bar as shown:
            try:
                for task, line in backend.run(config, pending):
                    if writer is not None:
                        writer.append(line)
                    results[task.index] = line
                    played += 1
                    if shown is not None:
                        shown.advance()
                    if watch is not None and watch.advance(results):
                        break
            except KeyboardInterrupt as stop:  # Ctrl+C, or SIGTERM or SIGHUP
                where = f" in '{one_line(str(out))}'" if out is not None else ""
                again = "; run the same command again to resume" if out is not None else ""
                raise interrupted(stop, f"{len(results)} of {len(tasks)} games played{where}"
                                        f"{again}") from None
            finally:
                backend.close()  # the workers end on every way out
    finally:
        if writer is not None:
            writer.close()
    order = sorted(results)
    stopped = None
    if watch is not None and watch.decided_at is not None:
        order = list(range(watch.decided_at))  # what the test saw: the same for every backend
        stopped = "sprt"
    lines = [results[index] for index in order]
    summary = summarise(config, lines, sprt_setting, planned=len(tasks), stopped=stopped)
    return Outcome(summary, lines, played, resumed)


def terminal_progress(total: int) -> Any:
    """A progress bar with rate and ETA on a terminal's standard error; nothing elsewhere."""
    if not sys.stderr.isatty():
        return nullcontext()
    from cardtable.ui.progress import Progress

    return Progress(total, label="games")
