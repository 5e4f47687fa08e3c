"""The one error a tournament raises: a one-line message and the exit status it means."""

from __future__ import annotations


class TournamentError(Exception):
    """A tournament that cannot start or go on; ``status`` is the command's exit status."""

    BAD_INPUT = 1
    """The command line is wrong: unknown game or bot, bad numbers, bad ``--sprt``."""
    CANNOT_RUN = 2
    """The command cannot run as asked: ``--out`` or ``--plot`` cannot be written (not a
    regular file, the same file as another of the command's files), ``--out`` is no results
    file, holds another tournament or a line that is no game of it, Ray is missing or its
    cluster cannot be reached."""
    GAME_FAILED = 3
    """A game could not be played to its end (a bot failed)."""
    INTERRUPTED = 130
    """Stopped with Ctrl+C: the games played so far are kept in ``--out`` (SIGTERM and SIGHUP
    stop it the same way, with 143 and 129: 128 plus the signal's number)."""

    def __init__(self, message: str, status: int = BAD_INPUT) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def interrupted(stop: KeyboardInterrupt, detail: str = "") -> TournamentError:
    """The error of a tournament stopped by Ctrl+C ("Interrupted: DETAIL.", status 130) or by
    SIGTERM or SIGHUP ("Interrupted by SIGTERM: DETAIL.", 128 plus the signal's number)."""
    import signal

    from cardtable.ui.stop_signals import Stopped, stop_status

    by = f" by {signal.Signals(stop.number).name}" if isinstance(stop, Stopped) else ""
    return TournamentError(f"Interrupted{by}{': ' + detail if detail else ''}.",
                           stop_status(stop))
