"""What a game's full screen leaves on the terminal once it has closed: the line mode's result
text, taken from the app's final state, so the outcome stays in view after the screen is gone.

Caravan prints ``WINNER: NAME`` or ``DRAW`` (as its line mode does), Obsession the placings
block of its line mode, Austerity the hub's ``Winner(s) A,C`` line. A game left with Esc or
Ctrl+Q says "Game abandoned."; one left with a confirmed Ctrl+C says what the line mode says
when interrupted, on standard error.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from typing import Any

from cardtable.engine.match import forfeit_message
from cardtable.engine.one_line import one_line
from cardtable.engine.record import not_finished_message
from cardtable.games.austerity.codec import winners_text
from cardtable.games.austerity.rules import Game as AusterityGame
from cardtable.games.caravan import render as caravan_render
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.state import CaravanState
from cardtable.games.obsession import render as obsession_render
from cardtable.games.obsession.events import Ended
from cardtable.games.obsession.state import ObsessionState
from cardtable.ui.tui.common import FATAL_FALLBACK

ABANDONED = "Game abandoned."
SIGNAL_STATUSES = (128 + signal.SIGTERM, 128 + signal.SIGHUP)
CARAVAN_INTERRUPTED = "caravan: Game interrupted."
OBSESSION_INTERRUPTED = "!!! Interrupted"


def result_lines(app: Any) -> tuple[list[str], list[str]]:
    """(standard output lines, standard error lines) for a closed game screen ``app``
    (a ``TableApp`` holding ``game``); nothing for a screen without a game."""
    game = getattr(app, "game", None)
    if getattr(app, "return_value", None) in SIGNAL_STATUSES:
        return [], []  # SIGTERM or SIGHUP: the program says so itself once the screen is gone
    fatal: str | None = getattr(app, "fatal_message", None)
    if fatal is not None:  # the error screen's message, which the closed screen took away
        program = ("caravan" if isinstance(game, CaravanState)
                   else "obsession" if isinstance(game, ObsessionState) else "cardtable")
        return [], [f"{program}: {one_line(fatal or FATAL_FALLBACK)}"]
    interrupted = getattr(app, "quit_cause", "quit") == "interrupt"
    replayed = replay_lines(app)
    if replayed is not None:
        return replayed
    if isinstance(game, CaravanState):
        return caravan_lines(game, tuple(app.names), interrupted)
    if isinstance(game, ObsessionState):
        return obsession_lines(game, getattr(app, "ended", None), interrupted,
                               getattr(app, "forfeit", None))
    if isinstance(game, AusterityGame):
        if game.finished:
            return [f"Winner(s) {winners_text(game.table.winners())}"], []
        return ([], ["Interrupted."]) if interrupted else ([ABANDONED], [])
    return [], []


def tally_entry(app: Any) -> tuple[list[str], list[str]] | None:
    """(every player, the winners) of the finished game on ``app``, named as its screen names
    them, for the launcher's tally; None for a game that did not finish."""
    game = getattr(app, "game", None)
    if isinstance(game, CaravanState):
        result = game.result
        if result is None or result.reason == "quit":
            return None
        names = tally_names(app.players, app.names)
        return names, [names[SEATS.index(seat)] for seat in result.winners]
    if isinstance(game, ObsessionState):
        ended: Ended | None = getattr(app, "ended", None)
        if ended is None:
            return None
        from cardtable.ui.tui.obsession_app import seat_label

        kinds = tuple(app.kinds)
        labels = [seat_label(seat, kinds, app.humans) for seat in range(len(kinds))]
        names = tally_names(kinds, labels)
        first = [names[ended.placings[0]]] if ended.finished and ended.placings else []
        return names, first
    if isinstance(game, AusterityGame):
        if not game.finished:
            return None
        return list(app.table.lineup), list(app.winners())
    return None


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


def replay_lines(app: Any) -> tuple[list[str], list[str]] | None:
    """What a replay leaves once closed (None for a game that was played): nothing when it was
    left before the end of its record (nothing was abandoned); at the end, the line mode's
    ending: the result, "The recorded game was not finished (CAUSE)." or, for a record cut
    short, its "missing result line" error on standard error."""
    from cardtable.ui.tui.replay_controls import ReplayControls

    if not isinstance(app, ReplayControls):
        return None
    if app.position < app.replay_length():
        return [], []
    game = getattr(app, "game", None)
    if isinstance(game, CaravanState):
        missing = app.replay.missing_result()  # type: ignore[attr-defined]
        if missing is not None:
            return [], [f"caravan: {missing.message}"]
        result = game.result
        if result is not None and result.reason == "quit":
            return [not_finished_message(result.details.get("cause", "quit"))], []
        return None
    closing: str | None = getattr(app, "closing", None)
    if closing is None:
        return None
    if closing.startswith("!!! "):
        return [closing], []
    return [], [f"obsession: {closing}"]


def caravan_lines(game: CaravanState, names: tuple[str, ...],
                  interrupted: bool) -> tuple[list[str], list[str]]:
    result = game.result
    if result is None:
        return [], []  # a replay cut short or an error screen: the screen said why
    if result.reason == "quit":
        cause = result.details.get("cause")
        if interrupted or cause == "interrupt":
            return [], [CARAVAN_INTERRUPTED]
        return ([ABANDONED] if cause == "quit" else []), []
    line = caravan_render.result_line(result, (names[0], names[1]))
    forfeited = forfeit_message(result)
    if forfeited is not None:  # as the line mode says it: who forfeited and why, then the winner
        return [forfeited, *([] if line is None else [line])], []
    return ([] if line is None else [line]), []


def obsession_lines(game: ObsessionState, ended: Ended | None, interrupted: bool,
                    forfeit: Any = None) -> tuple[list[str], list[str]]:
    forfeited = None if forfeit is None else forfeit_message(forfeit)
    if forfeited is not None:  # as the line mode ends a forfeited game, places included
        return [f"!!! {forfeited}", *obsession_render.forfeit_places(game, forfeit)], []
    if ended is not None:
        return obsession_render.placings_block(ended), []
    if interrupted:
        return [], [OBSESSION_INTERRUPTED]
    if game.over:
        return [], []
    return [ABANDONED], []
