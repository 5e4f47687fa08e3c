"""The progress bar: rich's live display on a terminal, plain lines (or nothing) elsewhere."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
import time

from rich.console import Console

from cardtable.ui.progress import Progress

# Twenty items of 20 ms each, then a report of whether rich was loaded. The items take their
# 20 ms on a clock the script moves, so that a slow machine neither skips the terminal's redraws
# nor passes the pipe's ten quiet seconds.
SCRIPT = """
import sys
from cardtable.ui.progress import Progress
now = [0.0]
with Progress(20, "games", clock=lambda: now[0]) as progress:
    for _ in range(20):
        now[0] += 0.02
        progress.advance()
print("rich loaded" if "rich" in sys.modules else "rich not loaded")
"""


def test_a_terminal_gets_rich_bar_with_rate_and_eta() -> None:
    now = [0.0]
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=True, width=100, color_system=None)
    with Progress(100, "games", clock=lambda: now[0], console=console) as progress:
        for _ in range(50):
            now[0] += 0.01
            progress.advance()
    text = stream.getvalue()
    frames = text.split("\r")
    # rich redraws the line in place; the last frame stays on screen, the cursor comes back.
    assert len(frames) > 2 and all("#" not in frame for frame in frames)
    assert frames[-1] == "\x1b[2K" + "━" * 15 + " " * 16 + "50/100 games 100/s ETA 1s\n\x1b[?25h"
    assert sum("/100 games 100/s ETA 1s" in frame for frame in frames) >= 4


def test_without_a_total_the_terminal_bar_shows_count_and_rate() -> None:
    now = [0.0]
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=True, width=100, color_system=None)
    with Progress(0, "games", clock=lambda: now[0], console=console) as progress:
        for _ in range(30):
            now[0] += 0.01
            progress.advance()
    last = stream.getvalue().split("\r")[-1]
    assert "30 games 100/s" in last and "ETA" not in last


def test_short_work_draws_nothing_even_on_a_terminal() -> None:
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=True, width=100)
    with Progress(10, "games", clock=lambda: 0.0, console=console) as progress:
        for _ in range(10):
            progress.advance()
    assert stream.getvalue() == ""


def run_script(terminal: bool) -> tuple[str, str]:
    """Run ``SCRIPT`` with stderr on a pseudo-terminal or a pipe: (stdout, stderr)."""
    if not terminal:
        result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                                timeout=60, check=True)
        return result.stdout, result.stderr
    leader, follower = pty.openpty()
    env = dict(os.environ, COLUMNS="100", TERM="xterm")
    process = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE,
                               stderr=follower, text=True, env=env)
    os.close(follower)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        elif process.poll() is not None:
            break
    out, _ = process.communicate(timeout=60)
    os.close(leader)
    return out, b"".join(chunks).decode("utf-8", "replace")


def test_a_pseudo_terminal_gets_rich_bar() -> None:
    out, err = run_script(terminal=True)
    assert out == "rich loaded\n"
    assert "━" in err and "20/20 games" in err and "/s ETA" in err


def test_a_pipe_gets_nothing_for_short_work_and_rich_is_not_loaded() -> None:
    assert run_script(terminal=False) == ("rich not loaded\n", "")
