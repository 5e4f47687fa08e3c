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

from cardtable.tournament.errors import TournamentError
from cardtable.tournament.play import play
from cardtable.tournament.schedule import Config, Task

Finished = tuple[Task, dict[str, Any]]


class Backend(Protocol):
    def run(self, config: Config, tasks: Iterable[Task]) -> Iterator[Finished]: ...

    def close(self) -> None: ...


class GameFailed(Exception):
    """A game of a batch failed in a worker: which one, and why (picklable)."""

    def __init__(self, index: int, text: str) -> None:
        super().__init__(index, text)
        self.index = index
        self.text = text


def play_batch(config: Config, tasks: list[Task]) -> list[dict[str, Any]]:
    """Play a batch of games (in a worker); a failure names its game."""
    lines = []
    for task in tasks:
        try:
            lines.append(play(config, task))
        except Exception as error:
            raise GameFailed(task.index, f"{type(error).__name__}: {error}") from None
    return lines


def failed(tasks: list[Task], error: BaseException) -> TournamentError:
    """The one-line error for a game that failed (found by index when a worker said which)."""
    from cardtable.engine.one_line import one_line

    task = tasks[0]
    text = f"{type(error).__name__}: {error}"
    if isinstance(error, GameFailed):
        task = next((each for each in tasks if each.index == error.index), task)
        text = error.text
    return TournamentError(
        f"Game {task.index + 1} ({' vs '.join(task.seats)}, deal {task.deal}) failed: "
        f"{one_line(text)}", TournamentError.GAME_FAILED)


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


class Batches:
    """The tasks in batches sized so that a batch takes about ``BATCH_SECONDS``: games of a few
    milliseconds then do not spend their time in messages between processes, and slow games
    go one at a time, so that a stop (SPRT, Ctrl+C) loses little. The size follows the games'
    measured times; it never changes which games are played, nor how."""

    def __init__(self, tasks: Iterable[Task], seconds: float | None = None) -> None:
        self.target = BATCH_SECONDS if seconds is None else seconds
        self.pending = list(tasks)
        self.next = 0
        self.size = 1
        self.seconds = 0.0
        self.games = 0

    def measured(self, lines: list[dict[str, Any]]) -> None:
        """Take the times of finished games into account."""
        self.seconds += sum(line.get("time", 0.0) for line in lines)
        self.games += len(lines)
        mean = self.seconds / self.games if self.games else 0.0
        wanted = int(self.target / mean) if mean > 0 else BATCH_MAX
        self.size = max(1, min(BATCH_MAX, wanted))

    def take(self) -> list[Task] | None:
        """The next batch, or None when every task has been handed out."""
        if self.next >= len(self.pending):
            return None
        batch = self.pending[self.next:self.next + self.size]
        self.next += len(batch)
        return batch


BATCH_SECONDS = 0.2
BATCH_MAX = 64


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
