"""Programs at web tables (``bot:exec:NAME``): started late, and capped.

A program's process is started only when its table has started (every seat taken) and one of
the table's people is here (a WebSocket of theirs is open), or at once at a table of bots
only. A table waiting for its people, one created and never visited included, holds no
process; after a restart a program comes back only when its people do. The process starts on
a worker thread, so that the event loop never waits for it; a program that cannot start
forfeits at once, whichever seat is to move.

The operator caps the program seats at the server's unfinished tables, in all and per client
(the player of the request, else its address): ``TablePolicy.max_programs`` and
``max_programs_per_client``. A table that would go over a cap is refused (429) before it is
made.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from cardtable.engine.errors import GameError
from cardtable.engine.match import Forfeit
from cardtable.web.table_policy import TablePolicy

if TYPE_CHECKING:
    from cardtable.web.live import LiveTable

log = logging.getLogger("cardtable.web")

PROGRAM_PREFIX = "bot:exec:"


def is_program(kind: str) -> bool:
    """Whether the seat kind ``kind`` (``human``, ``bot:SPEC``) is an operator's program."""
    return kind.startswith(PROGRAM_PREFIX)


def program_count(kinds: Iterable[str]) -> int:
    return sum(1 for kind in kinds if is_program(kind))


def cap_refusal(policy: TablePolicy, kinds: Sequence[str], client: str,
                tables: Iterable[tuple[Sequence[str], str | None]]) -> str | None:
    """The refusal of a new table with seats ``kinds`` made by ``client``, given the
    unfinished ``tables`` (their seat kinds and the client that made each, None when not
    known); None when the caps allow it."""
    wanted = program_count(kinds)
    if not wanted:
        return None
    total = mine = 0
    for table_kinds, owner in tables:
        count = program_count(table_kinds)
        total += count
        if owner == client:
            mine += count
    per_client = policy.max_programs_per_client
    if per_client is not None and mine + wanted > per_client:
        return (f"Too many programs: at most {per_client} at your unfinished tables "
                f"(you have {mine}). Finish or leave one of those games first.")
    most = policy.max_programs
    if most is not None and total + wanted > most:
        return (f"Too many programs at this server's tables (at most {most} at once): try "
                "again when a game with one is over.")
    return None


class ProgramSeat:
    """A program's seat in the match loop: its turn waits until the program is started
    (:meth:`launch`); then it is the seat ``wrap`` makes of it (the table's bot seat, which
    answers on a worker thread and stores each move before it is played)."""

    def __init__(self, live: LiveTable, seat: str, make: Callable[[], Any],
                 wrap: Callable[[Any], Any]) -> None:
        self.live = live
        self.seat = seat
        self.make = make
        """Starts the program and gives its bot (blocking: called on a worker thread)."""
        self.wrap = wrap
        self.bot: Any = None
        self.launching = False
        self.over = False
        self.ready = asyncio.Event()
        self._launch_task: asyncio.Task[None] | None = None

    def launch(self) -> None:
        """Start the program (once; nothing when the match is over)."""
        if self.launching or self.over:
            return
        self.launching = True
        self._launch_task = asyncio.get_running_loop().create_task(self._launch())

    async def _launch(self) -> None:
        live = self.live
        try:
            bot = await asyncio.to_thread(self.make)
        except GameError as error:
            if not self.over:
                live.hub.forfeit_now(live, Forfeit(self.seat, error.message.rstrip(".")))
            return
        except Exception as error:  # a program is the operator's code: never the loop's end
            log.error("table %s: the program of %s did not start: %s", live.id, self.seat,
                      error, exc_info=error)
            if not self.over:
                live.hub.forfeit_now(live, Forfeit(self.seat, "its program could not start"))
            return
        started = self.wrap(bot)
        if self.over:  # the match ended while the program started: it ends too
            started.match_over(None, None)
            return
        self.bot = started
        self.ready.set()

    async def choose(self, observation: Any) -> Any:
        await self.ready.wait()
        return await self.bot.choose(observation)

    def rejected(self, error: Any) -> None:
        if self.bot is not None:
            self.bot.rejected(error)

    def match_over(self, observation: Any, result: Any) -> None:
        """The match is over: the program hears it and ends (one still starting ends as soon
        as it has started)."""
        self.over = True
        if self.bot is not None:
            self.bot.match_over(observation, result)
