"""A small progress bar with rate and ETA, drawn on stderr.

On a terminal the bar is redrawn in place at most ``interval`` seconds apart. Anywhere else
(pipes, files, CI logs) it writes a plain line only every ``quiet_interval`` seconds, so that
short runs print nothing and long runs still show they are alive.

    progress = Progress(total=1000, label="games")
    for _ in range(1000):
        ...
        progress.advance()
    progress.close()
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

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
    ) -> None:
        self.total = max(0, total)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock if clock is not None else time.monotonic
        try:
            self.interactive = self.stream.isatty()
        except (AttributeError, ValueError):
            self.interactive = False
        self.interval = interval if self.interactive else quiet_interval
        self.done = 0
        self.started = self.clock()
        self.last_draw = self.started
        self.drawn = False

    def render(self, now: float) -> str:
        """The status text for the current count, without line control characters."""
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        if self.total:
            fraction = min(1.0, self.done / self.total)
            filled = int(fraction * BAR_WIDTH)
            bar = "#" * filled + "-" * (BAR_WIDTH - filled)
            left = (self.total - self.done) / rate if rate > 0 else 0.0
            eta = format_duration(left) if rate > 0 else "?"
            return (f"[{bar}] {self.done}/{self.total} {self.label} "
                    f"{rate:,.0f}/s ETA {eta}")
        return f"{self.done} {self.label} {rate:,.0f}/s"

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = self.clock()
        if now - self.last_draw >= self.interval:
            self._draw(now)

    def _draw(self, now: float) -> None:
        self.last_draw = now
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
        if self.interactive:
            try:
                self.stream.write("\n")
                self.stream.flush()
            except (OSError, ValueError):
                pass

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
