"""Games in batches, as the backends that play them away from this process send them: a batch
played in a worker (:func:`play_batch`), the one-line error for the game of a batch that
failed (:func:`failed`), and batches sized by the games' measured times (:class:`Batches`).
The backends (:mod:`cardtable.tournament.backends`, and the Ray one) build on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cardtable.tournament.errors import TournamentError
from cardtable.tournament.play import play
from cardtable.tournament.schedule import Config, Task


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
