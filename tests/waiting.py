"""Waiting for what a test expects, never for a fixed time.

A test that waits for a server, a process or a bot to do something polls for it with
:func:`wait_until`; the timeout is generous so that a loaded machine only makes the test slower,
and a test that passes never waits that long.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

TIMEOUT = 60.0
"""How long a test waits for something that is bound to happen."""

T = TypeVar("T")


def wait_until(condition: Callable[[], T], what: str, timeout: float = TIMEOUT,
               interval: float = 0.02) -> T:
    """Call ``condition`` until it gives a true value, and return that value; fail with
    ``timed out waiting for <what>`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(interval)


async def until_true(condition: Callable[[], T | Awaitable[T]], what: str,
                     timeout: float = TIMEOUT, interval: float = 0.02) -> T:
    """:func:`wait_until` inside a running event loop: the loop goes on between the tries
    (``condition`` may be a coroutine function)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(interval)
