"""``cardtable serve --workers N``: N server processes on one listening socket.

The parent binds the address once (so that a port in use is one line and status 3, as for one
process), then starts N children, each ``cardtable serve`` with the same options on the
inherited socket (the kernel hands each new connection to one of them): each is a full server
with its own id, and they share their tables through PostgreSQL (docs/web.md, "Running several
servers"). A child that ends is started again, and the log says so; one that keeps ending at
once is started again less and less often (at most every 30 s). SIGTERM or Ctrl-C ends them
all; the parent then ends with status 0. A child ends with its parent, even a parent killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

STOP_WAIT = 20.0
"""Seconds the children have to stop (their open games are stored as they go) before they are
killed."""
QUICK_END = 10.0
"""A child that ends within this many seconds of its start ended "at once"."""
RESTART_CAP = 30.0
"""At most this many seconds between tries of a child that keeps ending at once."""
PR_SET_PDEATHSIG = 1


def _prctl() -> Callable[..., int] | None:
    """Linux's ``prctl``, or None elsewhere."""
    try:
        prctl: Callable[..., int] = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6",
                                                use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return prctl


def _ending_with_parent() -> Callable[[], None] | None:
    """What a child runs before ``cardtable serve``: on Linux, it gets SIGTERM when its
    parent dies, so that a parent killed leaves no server behind on the address. (Looked up
    in the parent: a child between fork and exec does nothing but call it.)"""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def end_with_parent() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # (the parent died before the call)
            os._exit(0)

    return end_with_parent


@dataclass
class Child:
    """The ``number``-th server process and when it (last) started."""

    number: int
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    quick_ends: int = 0
    """How many times in a row it ended at once."""
    next_start: float = field(default=0.0)
    """When (``time.monotonic()``) to start it again."""


def describe(status: int) -> str:
    if status < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by {signal.Signals(-status).name}"
        return f"was killed by signal {-status}"
    return f"ended with status {status}"


def supervise(argv: list[str], sock: socket.socket, count: int) -> int:
    """Run ``count`` children of ``cardtable serve argv`` on ``sock`` until SIGTERM or SIGINT;
    returns the exit status (0)."""
    command = [sys.executable, "-m", "cardtable.cli.serve", *argv,
               "--worker-fd", str(sock.fileno())]
    stopping = False

    def stop(_number: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    os.set_blocking(wake_read, False)
    previous_wakeup = signal.set_wakeup_fd(wake_write)
    previous = {number: signal.signal(number, handler) for number, handler in (
        (signal.SIGTERM, stop), (signal.SIGINT, stop),
        (signal.SIGCHLD, lambda _number, _frame: None))}  # (a child ended: wake up)
    children = [Child(number) for number in range(1, count + 1)]
    before = _ending_with_parent()
    try:
        for child in children:
            start(child, command, sock, before)
        print(f"cardtable: {count} server processes (pids "
              f"{', '.join(str(c.process.pid) for c in children if c.process)})", flush=True)
        while not stopping:
            select.select([wake_read], [], [], 1.0)
            with contextlib.suppress(BlockingIOError):
                while os.read(wake_read, 512):
                    pass
            now = time.monotonic()
            for child in children:
                if stopping:
                    break
                if child.process is not None and child.process.poll() is not None:
                    ended(child, now)
                if child.process is None and now >= child.next_start:
                    start(child, command, sock, before)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        signal.set_wakeup_fd(previous_wakeup)
        os.close(wake_read)
        os.close(wake_write)
        stop_all(children)
    return 0


def start(child: Child, command: list[str], sock: socket.socket,
          before: Callable[[], None] | None) -> None:
    child.process = subprocess.Popen(command, pass_fds=(sock.fileno(),), preexec_fn=before)
    child.started = time.monotonic()


def ended(child: Child, now: float) -> None:
    """Log the end of ``child`` and plan its next start."""
    assert child.process is not None
    status, pid = child.process.returncode, child.process.pid
    child.process = None
    child.quick_ends = child.quick_ends + 1 if now - child.started < QUICK_END else 0
    # At once the first time; a child that keeps ending at once waits 1, 2, 4 ... 30 s.
    wait = 0.0 if child.quick_ends <= 1 else min(RESTART_CAP, 2.0 ** (child.quick_ends - 2))
    child.next_start = now + wait
    later = f" in {wait:.0f} s" if wait >= 1 else ""
    print(f"cardtable: server process {child.number} (pid {pid}) {describe(status)}; "
          f"starting it again{later}", file=sys.stderr, flush=True)


def stop_all(children: list[Child]) -> None:
    """SIGTERM to every child still running, and wait for them (SIGKILL after
    ``STOP_WAIT``)."""
    running = [c.process for c in children if c.process is not None and c.process.poll() is None]
    for process in running:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_WAIT
    for process in running:
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
