"""The record of a web table, as the same JSON lines the terminal writes.

One function, :func:`record_text`, makes every record: it deals the game again from its rules,
seed and seat kinds and plays the stored moves through the engine's match loop with the
game's own recorder (``GameDescription.table_recorder``: Caravan's ``GameRecorder``,
Obsession's ``RecordListener``, Austerity's hub record), exactly as ``caravan --record``,
``obsession --record`` and ``austerity --record`` write theirs, so that their replays read it.
A game without a recorder of its own gets the one record format: a header (the rules of
``GameDescription.record_rules``, else the table's parameters; the seed; the seats), an
action line per move in notation and the result line.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator, Sequence
from typing import Any

from cardtable.engine.errors import IllegalAction
from cardtable.engine.game_registry import description
from cardtable.engine.match import Forfeit, MatchAbandoned, MatchListener, play_match
from cardtable.engine.protocol import GameState, Result
from cardtable.engine.record import (
    ABANDONED,
    RecordWriter,
    SeatEntry,
    action_line,
    header_line,
    result_line,
)
from cardtable.web.games import load, new_state


class _Scripted:
    """A seat that plays the stored moves, in order, and gives up when they run out (or, when
    the game ended with a forfeit ``(seat, why)``, that seat forfeits then, whichever seat is
    to move: a program that cannot start forfeits before its turn)."""

    def __init__(self, state: Any, moves: Iterator[str], seat: str,
                 forfeit: tuple[str, str] | None = None) -> None:
        self.state = state
        self.moves = moves
        self.seat = seat
        self.forfeit = forfeit
        self.text: str | None = None
        """The notation of the move last chosen, written before it is applied."""

    def choose(self, observation: Any) -> Any:
        move = next(self.moves, None)
        if move is None:
            if self.forfeit is not None:
                raise Forfeit(*self.forfeit)
            raise MatchAbandoned(self.seat, "server")
        action = self.state.parse_action(move)
        self.text = self.state.action_text(action)
        return action

    def rejected(self, error: IllegalAction) -> None:
        raise error


class _OneFormat(MatchListener):
    """The record of the one format for a game without a recorder of its own: the header
    now, then an action line per move (in the notation the seat chose it by, which depends
    on the state before the move) and the result line."""

    def __init__(self, writer: RecordWriter, game: str, rules: dict[str, Any], seed: int,
                 seats: dict[str, str], scripted: dict[str, _Scripted]) -> None:
        self.writer = writer
        self.scripted = scripted
        writer.write(header_line(game, rules, seed,
                                 [SeatEntry(seat, player) for seat, player in seats.items()]))

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        text = self.scripted[seat].text
        self.writer.write(action_line(seat, text if text is not None else "?"))

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        self.writer.write(result_line(result.winners, result.reason, result.reason,
                                      result.details))

    def on_abandon(self, state: GameState[Any, Any], abandoned: MatchAbandoned) -> None:
        self.writer.write(result_line((), ABANDONED, abandoned.cause, {}))


def record_text(game: str, params: dict[str, Any], seed: int, kinds: Sequence[str],
                moves: Sequence[str], forfeit: tuple[str, str] | None = None) -> str:
    """The record (JSON lines) of a game given by its rules, seed, seat kinds (``human`` or
    ``bot:SPEC``) and moves in notation; ``forfeit`` ``(seat, why)`` for a game that seat
    forfeited after the moves (the record ends as ``caravan --record`` ends it then)."""
    described = description(game)
    state = new_state(game, params, seed, kinds)
    stream = io.StringIO()
    writer = RecordWriter(stream, "web")
    script = iter(moves)
    seats = {seat: _Scripted(state, script, seat, forfeit) for seat in state.seats}
    recorder: MatchListener | None = described.table_recorder(state, writer, seed, list(kinds))
    if recorder is None:
        try:
            rules = described.record_rules(load(game, params))
        except NotImplementedError:  # the table's parameters load the same game
            rules = dict(params)
        recorder = _OneFormat(writer, game, rules, seed,
                              dict(zip(state.seats, kinds, strict=True)), seats)
    with contextlib.suppress(MatchAbandoned):
        play_match(state, seats, (recorder,))
    return stream.getvalue()


def record_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]
