"""Pilot steps the launcher tests share."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from cardtable.ui.tui.common import screen_text
from waiting import TIMEOUT


async def click_play(app: Any, pilot: Any) -> None:
    """Click Play once the button is ready for it: a Textual button ignores clicks while it
    still shows its last press (0.2 s), and a test can click again sooner than that."""
    await until(pilot, lambda: not app.query_one("#play").has_class("-active"),
                "the play button to be released")
    await pilot.click("#play")


TYPED_MOVES = 3
"""The moves of a whole game typed key by key, as a person types them; the later ones are
entered whole, as if pasted (:func:`enter_line`). Each key redraws the screen: typing every
move made a whole game several times slower, and the keys themselves have their own tests."""


async def type_line(pilot: Any, text: str) -> None:
    """Type ``text`` key by key into the focused line, as a person does, then Enter."""
    for key in text:
        await pilot.press("space" if key == " " else key)
    await pilot.press("enter")
    await pilot.pause()


async def enter_line(app: Any, pilot: Any, text: str, typed: bool = True) -> None:
    """``text`` into the command line and Enter: typed key by key, or (``typed`` off) put
    there whole, as if pasted."""
    if typed:
        await type_line(pilot, text)
    else:
        app.query_one("#command").value = text
        await pilot.press("enter")


async def until(pilot: Any, condition: Callable[[], bool], what: str,
                timeout: float = TIMEOUT) -> None:
    """Let the app run until ``condition()`` holds (fail after ``timeout`` seconds): the
    full screen's form of ``waiting.wait_until``, which lets the app's messages through."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.01)


async def settled_text(app: Any, settle: Callable[[], Awaitable[None]]) -> str:
    """The screen once it stops changing between two ``settle()`` (a loaded machine may still
    be drawing the last move, or scrolling a log to its end, when the game's result is
    set)."""
    text = screen_text(app)
    for _ in range(20):
        await settle()
        again = screen_text(app)
        if again == text:
            break
        text = again
    return text


class ManualClock:
    """A replay's pacing clock that moves only when the test says so
    (``ReplayControls.replay_clock``): the moves come when the test advances the time, however
    fast or slow the machine is."""

    def __init__(self) -> None:
        self.now = 0.0
        self.waiting: list[_Call] = []

    def __call__(self, delay: float, callback: Callable[[], None]) -> _Call:
        call = _Call(self.now + delay, callback)
        self.waiting.append(call)
        return call

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass: what falls due runs, in order (including what it schedules)."""
        end = self.now + seconds
        while True:
            due = [call for call in self.waiting if not call.stopped and call.when <= end]
            if not due:
                break
            call = min(due, key=lambda c: c.when)
            self.waiting.remove(call)
            self.now = call.when
            call.callback()
        self.now = end
        self.waiting = [call for call in self.waiting if not call.stopped]


class _Call:
    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True
