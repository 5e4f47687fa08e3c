"""Where games are played: in this process, in a pool of processes, or on a Ray cluster.

A backend takes the schedule's games and yields each game's results line as it finishes, in
whatever order they finish. It keeps only a few games in flight, so that a stop (an SPRT
decision, Ctrl+C) wastes little, and ``close`` ends what is still running.
"""

from __future__ import annotations

import queue
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


_config: Config | None = None


def _start_worker(config: Config) -> None:
    """A worker leaves Ctrl+C to the parent, which stops it (and keeps what was written)."""
    global _config
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _config = config


def _play_in_worker(tasks: list[Task]) -> list[dict[str, Any]]:
    assert _config is not None
    return play_batch(_config, tasks)


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
    """``jobs`` worker processes, each playing a few games at a time."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.pool: Any = None

    def run(self, config: Config, tasks: Iterable[Task]) -> Iterator[Finished]:
        import multiprocessing

        self.pool = multiprocessing.get_context("fork").Pool(
            self.jobs, initializer=_start_worker, initargs=(config,))
        Done = tuple[list[Task], list[dict[str, Any]] | None, BaseException | None]
        done: queue.SimpleQueue[Done] = queue.SimpleQueue()
        in_flight = 0
        source = Batches(tasks)
        exhausted = False

        def submit(batch: list[Task]) -> None:
            self.pool.apply_async(
                _play_in_worker, (batch,),
                callback=lambda lines: done.put((batch, lines, None)),
                error_callback=lambda error: done.put((batch, None, error)))

        while True:
            while not exhausted and in_flight < 2 * self.jobs:
                batch = source.take()
                if batch is None:
                    exhausted = True
                    break
                submit(batch)
                in_flight += 1
            if in_flight == 0:
                break
            while True:
                try:  # short waits, so that Ctrl+C is seen at once
                    batch, lines, error = done.get(timeout=0.2)
                    break
                except queue.Empty:
                    continue
            in_flight -= 1
            if error is not None:
                raise failed(batch, error)
            assert lines is not None
            source.measured(lines)
            yield from zip(batch, lines, strict=True)
        self.pool.close()
        self.pool.join()
        self.pool = None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None


def make_backend(name: str, jobs: int, address: str | None) -> Backend:
    if name == "ray":
        from cardtable.tournament.ray_backend import RayBackend

        return RayBackend(jobs, address)
    if jobs == 1:
        return InProcess()
    return Processes(jobs)
