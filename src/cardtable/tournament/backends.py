"""Where games are played: in this process, in a pool of processes, or on a Ray cluster.

A backend takes the schedule's games and yields each game's results line as it finishes, in
whatever order they finish. It keeps only a few games in flight, so that a stop (an SPRT
decision, Ctrl+C) wastes little, and ``close`` ends what is still running.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from cardtable.tournament.batches import Batches, GameFailed, failed, play_batch
from cardtable.tournament.play import play
from cardtable.tournament.schedule import Config, Task

Finished = tuple[Task, dict[str, Any]]


class Backend(Protocol):
    def run(self, config: Config, tasks: Iterable[Task]) -> Iterator[Finished]: ...

    def close(self) -> None: ...


class InProcess:
    """Every game in this process, one after another (``--jobs 1``)."""

    def run(self, config: Config, tasks: Iterable[Task]) -> Iterator[Finished]:
        for task in tasks:
            try:
                line = play(config, task)
            except KeyboardInterrupt:
                raise
            except Exception as error:
                raise failed([task], error) from None
            yield task, line

    def close(self) -> None:
        pass


def _worker(config: Config, connection: Any) -> None:
    """A worker process: plays each batch it is sent and sends back its lines (or the game
    that failed), until the pipe closes or says ``None``. Ctrl+C is left to the parent, which
    stops the workers (and keeps what was written); SIGTERM and SIGHUP, which the parent turns
    into the same stop, end a worker at once (the parent's handlers are not inherited)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in (signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)):
        signal.signal(number, signal.SIG_DFL)
    while True:
        try:
            batch = connection.recv()
        except (EOFError, OSError):
            return
        if batch is None:
            return
        answer: tuple[str, Any]
        try:
            answer = ("lines", play_batch(config, batch))
        except GameFailed as error:
            answer = ("failed", error)
        try:
            connection.send(answer)
        except OSError:  # the parent has stopped listening
            return


class Processes:
    """``jobs`` worker processes, each playing a few games at a time. Each worker has its own
    pipe and nothing else shared, so stopping them (an SPRT decision, Ctrl+C, a failed game)
    kills them at once and can never wait on a lock a killed process held."""

    IN_FLIGHT = 2
    """Batches handed to each worker at a time, so that it never waits for the next."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.workers: list[tuple[Any, Any]] = []

    def run(self, config: Config, tasks: Iterable[Task]) -> Iterator[Finished]:
        import multiprocessing
        from collections import deque
        from multiprocessing.connection import wait

        context = multiprocessing.get_context("fork")
        for _ in range(self.jobs):
            ours, theirs = context.Pipe()
            process = context.Process(target=_worker, args=(config, theirs), daemon=True)
            self.workers.append((process, ours))  # before it starts: ``close`` ends it
            process.start()
            theirs.close()
        source = Batches(tasks)
        sent: dict[Any, deque[list[Task]]] = {ours: deque() for _, ours in self.workers}

        def feed(connection: Any) -> None:
            while len(sent[connection]) < self.IN_FLIGHT:
                batch = source.take()
                if batch is None:
                    return
                sent[connection].append(batch)
                try:
                    connection.send(batch)
                except OSError:  # the worker has ended: reading its answer fails its game
                    return

        for connection in sent:
            feed(connection)
        while busy := [connection for connection, batches in sent.items() if batches]:
            ready: list[Any] = wait(busy, timeout=0.2)  # short waits: Ctrl+C is seen at once
            for connection in ready:
                batch = sent[connection].popleft()
                try:
                    kind, answer = connection.recv()
                except (EOFError, OSError):
                    raise failed(batch, RuntimeError("a worker process ended while playing "
                                                     "it")) from None
                if kind == "failed":
                    raise failed(batch, answer)
                source.measured(answer)
                yield from zip(batch, answer, strict=True)
                feed(connection)
        for _, connection in self.workers:
            with contextlib.suppress(OSError):  # a worker that has ended needs no goodbye
                connection.send(None)
        self.close()

    def close(self) -> None:
        for process, connection in self.workers:
            if process.pid is not None:  # started
                if process.is_alive():
                    process.kill()
                process.join()
            connection.close()
        self.workers = []


def make_backend(name: str, jobs: int, address: str | None) -> Backend:
    if name == "ray":
        from cardtable.tournament.ray_backend import RayBackend

        return RayBackend(jobs, address)
    if jobs == 1:
        return InProcess()
    return Processes(jobs)
