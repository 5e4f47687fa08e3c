"""The terminal form of the progress bar: rich's live progress display.

Imported only when a bar is drawn on a terminal, so commands that never show one (and the
fast-start entry points) do not load rich.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, TaskID, TextColumn


class RichBar:
    """Bar, count, rate and time left, redrawn in place by rich when asked to."""

    def __init__(self, total: int, label: str, stream: TextIO, clock: Callable[[], float],
                 console: Console | None = None) -> None:
        self.console = console if console is not None else Console(file=stream)
        columns: list[ProgressColumn] = [BarColumn(bar_width=30)]
        if total:
            columns += [TextColumn("{task.completed}/{task.total} {task.fields[label]}"),
                        TextColumn("{task.fields[rate]}/s"), TextColumn("ETA {task.fields[eta]}")]
        else:
            columns += [TextColumn("{task.completed} {task.fields[label]}"),
                        TextColumn("{task.fields[rate]}/s")]
        self.progress = Progress(
            *columns,
            console=self.console,
            auto_refresh=False,
            get_time=clock,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self.task: TaskID = self.progress.add_task(
            label, total=total or None, label=label, rate="0", eta="?")
        self.started = False

    def show(self, done: int, rate: str, eta: str) -> None:
        self.progress.update(self.task, completed=done, rate=rate, eta=eta, refresh=self.started)
        if not self.started:
            self.progress.start()  # draws the bar for the first time
            self.started = True

    def stop(self) -> None:
        """Leave the last drawing on screen, end its line and show the cursor again."""
        if self.started:
            with contextlib.suppress(OSError, ValueError):
                self.progress.stop()
