"""Any game's record replayed through its description: ``cardtable replay FILE``.

A record of the one format (:mod:`cardtable.engine.record`) says the game, its rules (as the
game's ``record_rules`` gives them), the seed and the seats; :func:`replay_record` loads the
game with the description's ``load_recorded``, deals it with ``new_state(seed)``, reads every
action line in the game's notation (``state.parse_action``) by the seat to move and applies it,
and checks the result line against the game's own result. A game whose records hold more than
that names its own check (``GameDescription.record_replay``, which gives a
:class:`ReplayedMatch` too). The first line that does not fit raises
:class:`~cardtable.engine.record.ReplayLineError` ("Replay 'FILE', line L: REASON."); a
record that stops before its result line replays as far as it goes and says so
(:attr:`ReplayedMatch.missing`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.engine.description import GameDescription
from cardtable.engine.errors import GameError, RecordError
from cardtable.engine.match import FORFEIT
from cardtable.engine.protocol import Result
from cardtable.engine.record import (
    ABANDONED,
    MISSING_RESULT,
    Entry,
    ReplayLineError,
    read_record,
    recorded_forfeit,
)
from cardtable.engine.record_upgrade import current_lines

# What a game's own code may raise on a bad rule or action besides its GameError: a
# plug-in's mistakes still end in one line.
GAME_FAULTS = (GameError, ValueError, TypeError, KeyError, IndexError)


@dataclass(frozen=True)
class ReplayStep:
    """One action of a replayed record: its line, seat and text in the game's notation."""

    line: int
    seat: str
    text: str


@dataclass(frozen=True)
class ReplayedMatch:
    """A record replayed and checked: the game as dealt, its actions, and how it ended.

    ``result`` is the game's result (a forfeit's too), None for a game that was abandoned
    (``cause`` says why) or a record cut short (``missing`` is the complaint to give once
    what is there has been shown).
    """

    path: str
    game: str
    players: tuple[tuple[str, str], ...]
    """``(seat, who sat there)`` for every seat, as the header names them."""
    seed: int | None
    start: Any
    steps: tuple[ReplayStep, ...]
    result: Result | None
    cause: str | None = None
    missing: RecordError | None = None

    def states(self) -> Iterator[tuple[ReplayStep, Any]]:
        """Each step with the state after it, played again from a copy of :attr:`start`
        (the record has been checked: nothing fails)."""
        state = self.start.clone()
        for step in self.steps:
            state.apply(state.parse_action(step.text))
            yield step, state


def replay_record(described: GameDescription, path: str, lines: Sequence[str]
                  ) -> ReplayedMatch:
    """Replay the record ``lines`` (of the file ``path``) of ``described``'s game through its
    description alone; raises :class:`~cardtable.engine.errors.RecordError` ("Replay 'FILE',
    line L: REASON.", or the message naming another game's record) at the first line that
    does not fit."""
    record = read_record(path, current_lines(path, lines), described.name)
    header = record.header

    def fail(line: int, reason: str) -> ReplayLineError:
        return ReplayLineError(path, line, reason)

    try:
        game = described.load_recorded(header.rules)
        state = game.new_state(header.seed)
    except GAME_FAULTS as error:
        raise fail(header.line, f"the header's rules: {_said(error)}") from None
    seats = tuple(state.seats)
    if header.seat_names != seats:
        raise fail(header.line, f"the header's seats are not {', '.join(seats)}")
    start = state.clone()
    steps: list[ReplayStep] = []
    result: Result | None = None
    cause: str | None = None
    for entry in record.entries:
        if entry.kind == "chance":
            raise fail(entry.line, f"unexpected chance line '{entry.event}'")
        if entry.kind == "action":
            _apply(state, entry, fail)
            steps.append(ReplayStep(entry.line, entry.seat, entry.text))
        else:
            result, cause = _ending(state, seats, entry, fail)
    missing = None
    if record.result is None:
        missing = fail(record.end_line, MISSING_RESULT)
    players = tuple((entry.seat, entry.player) for entry in header.seats)
    return ReplayedMatch(path, described.name, players, header.seed, start, tuple(steps),
                         result, cause, missing)


def _said(error: Exception) -> str:
    text = error.message if isinstance(error, GameError) else str(error)
    return text.rstrip(".") or type(error).__name__


def _apply(state: Any, entry: Entry, fail: Any) -> None:
    if state.result is not None or state.to_move is None:
        raise fail(entry.line, "the game is over before this action")
    if entry.seat != state.to_move:
        raise fail(entry.line, f"{entry.seat} is not the seat to move")
    try:
        state.apply(state.parse_action(entry.text))
    except GAME_FAULTS as error:
        raise fail(entry.line, _said(error)) from None


def _json(value: Any) -> Any:
    """``value`` as a record holds it (tuples become lists)."""
    return json.loads(json.dumps(value))


def _ending(state: Any, seats: tuple[str, ...], entry: Entry, fail: Any
            ) -> tuple[Result | None, str | None]:
    """The game's end as the result line ``entry`` says it, checked against ``state``."""
    line = entry.obj
    forfeit = recorded_forfeit(line)
    if line["reason"] in (ABANDONED, FORFEIT) and state.result is not None:
        raise fail(entry.line, f"the game is over, but the result line says {line['reason']}")
    if forfeit is not None:
        seat, _why = forfeit
        if seat not in seats:
            raise fail(entry.line, f"the forfeiting seat should be one of {', '.join(seats)}")
        winners = [name for name in seats if name != seat]
        if line["winners"] != winners:
            raise fail(entry.line, f"the result line's winners should be {_text(winners)}")
        return Result(tuple(winners), FORFEIT, dict(line["details"])), None
    if line["reason"] == ABANDONED:
        return None, str(line["cause"])
    if state.result is None:
        raise fail(entry.line, "the game is not over at the result line")
    ended: Result = state.result
    expected = {"winners": list(ended.winners), "reason": ended.reason, "cause": ended.reason,
                "details": _json(dict(ended.details))}
    for key, value in expected.items():
        if line[key] != value:
            raise fail(entry.line, f"the result line's {key} should be {_text(value)}")
    return ended, None


def _text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))
