"""A record replayed once and checked completely, ready to be shown move by move.

The full screen shows a replay with pause and steps in both directions, so it needs the whole
record checked before the first move is drawn, and the recorded decisions as actions the game
accepts. :func:`check_replay` runs the same checks as the line mode's replay (the recorded
decisions fed to the game, every other line compared with what the game derives) without
printing anything. A record that stops before the game did (a killed program, a file cut
short) is not refused: the decisions it holds are shown, then the fact that it ends early.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from cardtable.engine.errors import IllegalAction
from cardtable.engine.match import MatchAbandoned, MatchListener, play_match
from cardtable.engine.protocol import GameState
from cardtable.games.obsession.actions import Action
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.record import (
    Checker,
    LoadedRecord,
    RecordCutShort,
    RecordListener,
    ReplayMismatch,
    Script,
    header,
)
from cardtable.games.obsession.state import ObsessionState, seat_name

Ending = Literal["over", "abandoned", "cut"]


@dataclass(frozen=True)
class CheckedReplay:
    """A record that replays; ``actions`` are its decisions, each accepted by the game.

    ``ending`` says how the record ends: ``over`` (the game's end line), ``abandoned`` (an
    ``abandoned`` line, whose reason is ``cause``) or ``cut`` (the record stops before the game
    did; ``line`` is the first line missing).
    """

    loaded: LoadedRecord
    actions: tuple[Action, ...]
    ending: Ending
    cause: str | None = None
    line: int = 0

    @property
    def humans(self) -> tuple[bool, ...]:
        return tuple(kind == "human" for kind in self.loaded.seats)

    def start(self) -> ObsessionState:
        """The game as dealt from the recorded deck, before the first decision."""
        return ObsessionState(self.loaded.rules, self.loaded.deck, self.humans)


class _ScriptSeat:
    """Hands out the recorded decisions and keeps the ones the game accepted."""

    def __init__(self, script: Script, taken: list[Action]) -> None:
        self.script = script
        self.taken = taken

    def choose(self, observation: Observation) -> Action:
        action = self.script.action(observation)
        self.taken.append(action)
        return action

    def rejected(self, error: IllegalAction) -> None:
        self.taken.pop()
        self.script.rejected(error)


class _Checked(MatchListener):
    """Counts the decisions whose every record line matched."""

    def __init__(self) -> None:
        self.count = 0

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        self.count += 1


def last_line(loaded: LoadedRecord) -> int:
    """The number of the record's last non-blank line."""
    return loaded.lines[-1][0] if loaded.lines else loaded.header_line


def check_replay(loaded: LoadedRecord) -> CheckedReplay:
    """Replay ``loaded`` without showing it; raises :class:`ReplayMismatch` when a line of the
    record disagrees with the game (a record that merely stops early is returned, ``cut``)."""
    script = Script(loaded)
    taken: list[Action] = []
    humans = tuple(kind == "human" for kind in loaded.seats)
    game = ObsessionState(loaded.rules, loaded.deck, humans)
    seat = _ScriptSeat(script, taken)
    seats = {seat_name(index): seat for index in range(loaded.rules.players)}
    checker = Checker(loaded)
    checked = _Checked()
    # The checker comes first: a decision counts once all of its lines matched.
    listeners = (RecordListener(checker, header(game, loaded.seed, loaded.seats)), checked)
    try:
        try:
            play_match(game, seats, listeners)
        except MatchAbandoned as abandoned:
            checker.finish()
            return CheckedReplay(loaded, tuple(taken), "abandoned", abandoned.cause)
        checker.finish()
    except RecordCutShort as cut:
        # The record stops before the game did: what it holds is shown, then that it ends.
        return CheckedReplay(loaded, tuple(taken[:checked.count]), "cut", line=cut.line)
    except ReplayMismatch as mismatch:
        if mismatch.line > last_line(loaded):
            # Every line there is matched; the game simply went on past the end of the file.
            return CheckedReplay(loaded, tuple(taken[:checked.count]), "cut",
                                 line=mismatch.line)
        raise
    return CheckedReplay(loaded, tuple(taken), "over")
