"""SIGTERM and SIGHUP stop a game the way Ctrl-C (SIGINT) does.

While :func:`stop_signals` is active, either signal raises :class:`Stopped`, a
``KeyboardInterrupt``, so the code that closes a game interrupted by Ctrl-C closes it:
the record gets its abandoned line, whose cause is :func:`stop_cause` (``interrupt``,
``sigterm`` or ``sighup``), a line goes to standard error (:func:`stop_message`) and the
program exits with :func:`stop_status`, 128 plus the signal's number (130, 143, 129).
A full-screen app is asked to leave instead (:func:`stop_signals_for_app`), so that its
terminal is restored before the program says why it stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator
from types import FrameType

from cardtable.engine.one_line import error_line

STOP_SIGNALS = tuple(
    number for number in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
    if number is not None
)
CAUSES: dict[int, str] = {int(signal.SIGINT): "interrupt"} | {
    int(number): signal.Signals(number).name.lower() for number in STOP_SIGNALS}


class Stopped(KeyboardInterrupt):
    """The program received SIGTERM or SIGHUP."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def signal_number(error: BaseException | None) -> int:
    """The signal behind an interruption (SIGINT for a plain ``KeyboardInterrupt``)."""
    return error.number if isinstance(error, Stopped) else int(signal.SIGINT)


def stop_cause(error: BaseException | None) -> str:
    """The cause a record gives for the interruption: ``interrupt``, ``sigterm``, ``sighup``."""
    return CAUSES.get(signal_number(error), "interrupt")


def stop_status(error: BaseException | None) -> int:
    """The exit status after the interruption: 128 plus the signal's number."""
    return 128 + signal_number(error)


def stop_message(error: BaseException | None) -> str:
    """"Game interrupted." after Ctrl-C, "Game interrupted by SIGTERM." after a signal."""
    number = signal_number(error)
    if number == signal.SIGINT:
        return "Game interrupted."
    return f"Game interrupted by {signal.Signals(number).name}."


def say_stopped(error: BaseException | None, program: str) -> None:
    """Write :func:`stop_message` as ``program``'s error line on standard error, if it is
    still there (after SIGHUP the terminal may be gone)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(error_line(program, stop_message(error)), file=sys.stderr, flush=True)


def _install(handler: Callable[[int, FrameType | None], None]) -> dict[int, object]:
    previous: dict[int, object] = {}
    for number in STOP_SIGNALS:
        # Not in the main thread (or not allowed here): the signal keeps its handler.
        with contextlib.suppress(ValueError, OSError):
            previous[number] = signal.signal(number, handler)
    return previous


def _restore(previous: dict[int, object]) -> None:
    for number, handler in previous.items():
        with contextlib.suppress(ValueError, OSError, TypeError):
            signal.signal(number, handler)  # type: ignore[arg-type]


def _ignore_more() -> None:
    """After the first stopping signal, more of them must not interrupt the clean-up."""
    for number in STOP_SIGNALS:
        with contextlib.suppress(ValueError, OSError):
            signal.signal(number, signal.SIG_IGN)


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Stopped` in the main thread."""

    def handler(number: int, frame: FrameType | None) -> None:
        _ignore_more()
        raise Stopped(number)

    previous = _install(handler)
    try:
        yield
    finally:
        _restore(previous)


@contextlib.contextmanager
def stop_signals_for_app(leave: Callable[[int], None]) -> Iterator[list[int]]:
    """Within the block, SIGTERM and SIGHUP call ``leave(status)`` on the running event loop
    of a full-screen app (which then closes and restores the terminal); the list yielded
    receives the signal's number. Outside a running loop the signal raises :class:`Stopped`."""
    received: list[int] = []

    def handler(number: int, frame: FrameType | None) -> None:
        _ignore_more()
        received.append(number)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise Stopped(number) from None
        loop.call_soon_threadsafe(leave, 128 + number)

    previous = _install(handler)
    try:
        yield received
    finally:
        _restore(previous)
