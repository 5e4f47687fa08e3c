"""What a game's full screen leaves on the terminal once it has closed: the line mode's result
text, taken from the app's final state, so the outcome stays in view after the screen is gone.

Each game's screen says its own (``TableApp.closing_lines``): Caravan prints ``WINNER: NAME``
or ``DRAW`` (as its line mode does), Obsession the placings block of its line mode, Austerity
the hub's ``Winner(s) A,C`` line, the generic table the result. A game left with Esc or Ctrl+Q
says "Game abandoned."; one left with a confirmed Ctrl+C says what the line mode says when
interrupted, on standard error. This module adds what every screen shares: nothing after
SIGTERM or SIGHUP (the program says so itself), and the error screen's message. The names of
why a screen was left (:data:`QUIT`, :data:`INTERRUPT`) and the error screen's fallback
message live here, below the screens (:mod:`cardtable.ui.tui.common`) that use them.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from typing import Any

from cardtable.engine.one_line import one_line

FATAL_FALLBACK = "A fatal error occurred."
"""The error screen's message for an error that says nothing."""
QUIT = "quit"
INTERRUPT = "interrupt"
"""Why a game was left: Esc or Ctrl+Q (``quit``), Ctrl+C (``interrupt``), as records say."""
ABANDONED = "Game abandoned."
SIGNAL_STATUSES = (128 + signal.SIGTERM, 128 + signal.SIGHUP)


def result_lines(app: Any) -> tuple[list[str], list[str]]:
    """(standard output lines, standard error lines) for a closed game screen ``app``."""
    if getattr(app, "return_value", None) in SIGNAL_STATUSES:
        return [], []  # SIGTERM or SIGHUP: the program says so itself once the screen is gone
    fatal: str | None = getattr(app, "fatal_message", None)
    if fatal is not None:  # the error screen's message, which the closed screen took away
        program = getattr(app, "program", "cardtable")
        return [], [f"{program}: {one_line(fatal or FATAL_FALLBACK)}"]
    closing = getattr(app, "closing_lines", None)
    if closing is None:
        return [], []
    lines: tuple[list[str], list[str]] = closing(getattr(app, "quit_cause", QUIT) == INTERRUPT)
    return lines


def tally_entry(app: Any) -> tuple[list[str], list[str]] | None:
    """(every player, the winners) of the finished game on ``app``, named as its screen names
    them, for the launcher's tally; None for a game that did not finish."""
    entry = getattr(app, "tally_entry", None)
    found: tuple[list[str], list[str]] | None = None if entry is None else entry()
    return found


def player_name(kind: str) -> str | None:
    """What the launcher's tally calls a bot seat: the bot's name (``normal``, ``expert``,
    ``ismcts``), ``program`` for an ``exec:`` seat; None for a person."""
    from cardtable.agents.external_cli import is_exec

    if kind == "human":
        return None
    if is_exec(kind.removeprefix("bot:")):
        return "program"
    return kind.removeprefix("bot:")


def tally_names(kinds: Sequence[str], labels: Sequence[str]) -> list[str]:
    """The names of the seats in the tally of wins: each bot by its name (``normal 2,
    expert 1``), people by their seat's label; a name two seats share keeps the seat's label
    (``BOT1 normal``, ``P3 obsessed``), so that each seat is counted on its own."""
    names = [player_name(kind) or label for kind, label in zip(kinds, labels, strict=True)]
    return [(label if name in label.split() else f"{label} {name}")
            if names.count(name) > 1 else name
            for name, label in zip(names, labels, strict=True)]
