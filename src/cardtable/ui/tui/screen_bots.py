"""The bots of a full-screen game: built-in bots and external programs (``exec:COMMAND``,
docs/bots.md), asked in a worker thread, and ended with the screen.

An external program starts when its seat is made (a command that cannot start is refused then,
with the one-line message of the line mode); its standard error goes beside the record
(``RECORD.SEAT.stderr``) or nowhere, never to the screen. A program that forfeits answers
with its :class:`~cardtable.engine.match.Forfeit`, which the screen hands to the match loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from cardtable.agents.external_cli import external_seat, is_exec
from cardtable.engine.match import Forfeit, Seat


def make_bots(game: Any, specs: Mapping[int, str], seat_name: Callable[[int], str],
              seed: int, record: str | None,
              builtin: Callable[[int, str], Seat]) -> dict[int, Seat]:
    """A seat for each ``seat: spec``: an external program for ``exec:COMMAND`` (seated at
    ``game``, a loaded game), else ``builtin(seat, spec)``. Raises the ``GameError`` of a spec
    that cannot be seated, after ending the programs already started."""
    bots: dict[int, Seat] = {}
    try:
        for seat, spec in specs.items():
            bots[seat] = (external_seat(game, spec, seat_name(seat), seed, record)
                          if is_exec(spec) else builtin(seat, spec))
    except BaseException:
        close_bots(bots)
        raise
    return bots


async def ask_bot(bot: Seat, observation: Any) -> tuple[Any, Forfeit | None]:
    """``bot``'s choice, asked in a worker thread: (the choice, None), or (None, the
    :class:`Forfeit`) of a program that forfeits instead of answering."""
    try:
        return await asyncio.to_thread(bot.choose, observation), None
    except Forfeit as forfeit:
        return None, forfeit


def close_bots(bots: Mapping[int, Seat]) -> None:
    """End the processes of the external programs among ``bots`` (never raises; a bot without
    a process has nothing to end). Called when a screen closes, whatever way it closes."""
    for bot in bots.values():
        close = getattr(bot, "close", None)
        if close is not None:
            close()
