"""What the command lines need to seat external programs (``exec:COMMAND``) beside their own
bots, kept here so that each command line only asks and calls."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardtable.engine.match import MatchListener, forfeit_message
from cardtable.engine.protocol import GameState, Result

EXEC_PREFIX = "exec:"


def is_exec(spec: str | None) -> bool:
    """Whether a bot spec names an external program (``exec:COMMAND``)."""
    return spec is not None and spec.strip().lower().startswith(EXEC_PREFIX)


def bot_spec(spec: str) -> str:
    """A bot spec as the command lines keep it: a bot's name in lower case, an ``exec:`` spec
    with its command as typed."""
    if is_exec(spec):
        return EXEC_PREFIX + spec.strip()[len(EXEC_PREFIX):].strip()
    return spec.lower()


def external_seat(game: Any, spec: str, seat: str, seed: int | str,
                  record: str | None = None) -> Any:
    """The seat of ``exec:COMMAND`` for ``seat`` of ``game`` (a loaded game). With a record
    file, the program's stderr goes beside it (``RECORD.SEAT.stderr``); else to
    ``CARDTABLE_BOT_LOG_DIR`` when that variable names a directory, else it is discarded.
    Raises ``UnknownBot`` (a ``GameError``) with a one-line message when it cannot start."""
    from cardtable.agents.external import (
        ExternalSeat,
        Limits,
        split_command,
        stderr_path_from_environment,
    )

    command = split_command(spec.strip()[len(EXEC_PREFIX):])
    stderr = (stderr_path_from_environment(seat) if record is None
              else Path(f"{record}.{seat}.stderr"))
    return ExternalSeat(game, seat, command, limits=Limits.from_environment(),
                        stderr_path=stderr)


class ForfeitNotice(MatchListener):
    """Says who forfeited and why (``say`` is the shell's output), and who won."""

    def __init__(self, say: Callable[[str], Any], prefix: str = "") -> None:
        self.say = say
        self.prefix = prefix

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        message = forfeit_message(result)
        if message is not None:
            self.say(f"{self.prefix}{message}")
            self.say(f"{self.prefix}WINNER: {', '.join(result.winners)}")
