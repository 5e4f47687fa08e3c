"""The record of a web table, as the same JSON lines the terminal writes.

One function, :func:`record_text`, makes every record: it rebuilds the game from its rules,
seed and stored moves and plays them again through the engine's match loop with the game's own
record listener (Caravan's ``GameRecorder``, Obsession's ``RecordListener``), exactly as
``caravan --record`` and ``obsession --record`` do. ``caravan --replay FILE`` and
``obsession --replay FILE`` replay the result. An Austerity table's record has the shape of
``austerity --record`` (header, deck, actions, result), which ``read_hub_record`` and
``replay_hub_record`` read back.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator, Sequence
from typing import Any

from cardtable.engine.errors import IllegalAction
from cardtable.engine.match import Forfeit, MatchAbandoned, MatchListener, play_match
from cardtable.engine.record import RecordWriter, encode_line
from cardtable.web.games import new_state


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

    def choose(self, observation: Any) -> Any:
        move = next(self.moves, None)
        if move is None:
            if self.forfeit is not None:
                raise Forfeit(*self.forfeit)
            raise MatchAbandoned(self.seat, "server")
        return self.state.parse_action(move)

    def rejected(self, error: IllegalAction) -> None:
        raise error


def record_text(game: str, params: dict[str, Any], seed: int, kinds: Sequence[str],
                moves: Sequence[str], forfeit: tuple[str, str] | None = None) -> str:
    """The record (JSON lines) of a game given by its rules, seed, seat kinds (``human`` or
    ``bot:SPEC``) and moves in notation; ``forfeit`` ``(seat, why)`` for a game that seat
    forfeited after the moves (the record ends as ``caravan --record`` ends it then)."""
    state = new_state(game, params, seed, kinds)
    stream = io.StringIO()
    listeners: tuple[MatchListener, ...]
    if game == "caravan":
        from cardtable.games.caravan.record import GameRecorder

        players = {seat: kind for seat, kind in zip(state.seats, kinds, strict=True)}
        recorder = GameRecorder(RecordWriter(stream, "web"), "web", players, ("random", "random"))
        recorder.start(state)
        listeners = (recorder,)
    elif game == "obsession":
        from cardtable.games.obsession.record import RecordListener, header

        # A program keeps its name (``exec:NAME``): ``exec`` alone names no seat kind.
        names = tuple("human" if kind == "human" else kind.removeprefix("bot:")
                      if kind.startswith("bot:exec:")
                      else kind.removeprefix("bot:").split(":")[0] for kind in kinds)
        writer = RecordWriter(stream, "web")
        listeners = (RecordListener(writer.write, header(state, seed, names)),)
    else:
        return _austerity_record(state, kinds, moves)
    script = iter(moves)
    seats = {seat: _Scripted(state, script, seat, forfeit) for seat in state.seats}
    with contextlib.suppress(MatchAbandoned):
        play_match(state, seats, listeners)
    return stream.getvalue()


def _austerity_record(state: Any, kinds: Sequence[str], moves: Sequence[str]) -> str:
    from cardtable.engine.record import ABANDONED, action_line, result_line
    from cardtable.games.austerity.record import start_lines

    deck, tokens, points, _count = state.setup
    lines = start_lines({"tokens": tokens, "points": points, "players": list(kinds),
                         "deck": [card.text() for card in deck]})
    for move in moves:
        seat = state.to_move
        action = state.parse_action(move)
        lines.append(action_line(seat, state.action_text(action)))
        state.apply(action)
    result = state.result
    if result is None:
        lines.append(result_line((), ABANDONED, "server", {}))
    else:
        lines.append(result_line(result.winners, result.reason, result.reason, result.details))
    return "".join(encode_line(line) for line in lines)


def record_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]
