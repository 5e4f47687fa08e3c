"""Trying again what may fail for a moment (a database that restarts, a file locked by another
writer), with waits that double up to a cap.

The waits and the sleeping are parameters, so that the policy is tested with a fake clock.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

Transient = Callable[[BaseException], bool]
"""Whether an error may go away by itself (worth another try)."""
OnRetry = Callable[[BaseException, float], None]
"""Told of each failed try that will be tried again: the error and the wait before the next."""


@dataclass(frozen=True)
class Backoff:
    """Waits of ``first`` seconds, then ``factor`` times the last one, at most ``cap`` each;
    ``attempts`` tries in all (None: try until it works)."""

    first: float
    cap: float
    factor: float = 2.0
    attempts: int | None = None

    def delays(self) -> Iterator[float]:
        """The waits between tries: one fewer than the tries (endless when they are)."""
        delay = self.first
        waits = 0
        while self.attempts is None or waits < self.attempts - 1:
            yield min(delay, self.cap)
            delay = min(delay * self.factor, self.cap)
            waits += 1


def retry_call(call: Callable[[], T], policy: Backoff, transient: Transient,
               sleep: Callable[[float], None] = time.sleep,
               on_retry: OnRetry | None = None) -> T:
    """``call()``, tried again after each transient error while ``policy`` allows; the last
    error is raised when it does not (any other error at once)."""
    delays = policy.delays()
    while True:
        try:
            return call()
        except Exception as error:
            if not transient(error):
                raise
            delay = next(delays, None)
            if delay is None:
                raise
            if on_retry is not None:
                on_retry(error, delay)
            sleep(delay)


async def retry_async(call: Callable[[], Awaitable[T]], policy: Backoff, transient: Transient,
                      sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                      on_retry: OnRetry | None = None) -> T:
    """:func:`retry_call` for a coroutine: the waits let the event loop serve everything
    else."""
    delays = policy.delays()
    while True:
        try:
            return await call()
        except Exception as error:
            if not transient(error):
                raise
            delay = next(delays, None)
            if delay is None:
                raise
            if on_retry is not None:
                on_retry(error, delay)
            await sleep(delay)
