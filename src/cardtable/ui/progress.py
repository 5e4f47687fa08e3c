"""A progress bar with rate and ETA, drawn on stderr.

On a terminal it is rich's live progress display, redrawn in place at most ``interval`` seconds
apart (a plain bar redrawn with ``\r`` when rich is not installed). Anywhere else (pipes, files,
CI logs) it writes a plain line only every ``quiet_interval`` seconds, so that short runs print
nothing and long runs still show they are alive. rich is imported only when a bar is first drawn
on a terminal.

    with Progress(total=1000, label="games") as progress:
        for _ in range(1000):
            ...
            progress.advance()
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console

    from cardtable.ui.progress_rich import RichBar

BAR_WIDTH = 30


def format_duration(seconds: float) -> str:
    """``42s``, ``3m05s`` or ``2h07m``."""
    seconds = max(0, int(seconds + 0.5))
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class Progress:
    """Counts finished items out of ``total`` and shows bar, count, rate and time left."""

    def __init__(
        self,
        total: int,
        label: str = "items",
        stream: TextIO | None = None,
        interval: float = 0.1,
        quiet_interval: float = 10.0,
        clock: Callable[[], float] | None = None,
        console: Console | None = None,
    ) -> None:
        """``console`` draws the terminal form on that rich console (whatever the stream)."""
        self.total = max(0, total)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock if clock is not None else time.monotonic
        try:
            self.interactive = self.stream.isatty()
        except (AttributeError, ValueError):
            self.interactive = False
        self.console = console
        self.interactive = self.interactive or console is not None
        self.rich: RichBar | None = None
        self.rich_missing = False
        self.interval = interval if self.interactive else quiet_interval
        self.done = 0
        self.started = self.clock()
        self.last_draw = self.started
        self.drawn = False

    def rate_and_eta(self, now: float) -> tuple[str, str]:
        """The mean rate so far (``1,234``) and the time left at that rate (``3m05s`` or ``?``)."""
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = format_duration((self.total - self.done) / rate) if rate > 0 else "?"
        return f"{rate:,.0f}", eta

    def render(self, now: float) -> str:
        """The status text for the current count, without line control characters."""
        rate, eta = self.rate_and_eta(now)
        if self.total:
            fraction = min(1.0, self.done / self.total)
            filled = int(fraction * BAR_WIDTH)
            bar = "#" * filled + "-" * (BAR_WIDTH - filled)
            return f"[{bar}] {self.done}/{self.total} {self.label} {rate}/s ETA {eta}"
        return f"{self.done} {self.label} {rate}/s"

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = self.clock()
        if now - self.last_draw >= self.interval:
            self._draw(now)

    def _rich_bar(self) -> RichBar | None:
        """The rich display for a terminal, made on first use; None when rich is missing."""
        if self.rich is None and not self.rich_missing:
            try:
                from cardtable.ui.progress_rich import RichBar
            except ImportError:
                self.rich_missing = True
                return None
            self.rich = RichBar(self.total, self.label, self.stream, self.clock, self.console)
        return self.rich

    def _draw(self, now: float) -> None:
        self.last_draw = now
        bar = self._rich_bar() if self.interactive else None
        if bar is not None:
            rate, eta = self.rate_and_eta(now)
            try:
                bar.show(self.done, rate, eta)
            except (OSError, ValueError):
                return
            self.drawn = True
            return
        text = self.render(now)
        try:
            if self.interactive:
                self.stream.write("\r\x1b[K" + text)
            else:
                self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            return
        self.drawn = True

    def close(self) -> None:
        """Finish the bar: a last drawing if anything was drawn, and the end of its line."""
        if not self.drawn:
            return
        self._draw(self.clock())
        if self.rich is not None:
            self.rich.stop()
        elif self.interactive:
            try:
                self.stream.write("\n")
                self.stream.flush()
            except (OSError, ValueError):
                pass

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
