"""A finished table's record as the replay page's steps, with every hand shown.

The record is the one the table downloads (the JSON lines the terminal writes), replayed by
the game's own replay code (``GameDescription.replay_views``), which checks every line as
``caravan --replay`` and ``obsession --replay`` do; a game a program forfeited ends with its
record's forfeit line. Each step is the public view the table page draws plus every seat's
hand (``hands``): a finished game hides nothing (its record holds every card), and the
terminal's replays show every hand too.

A game without a replay of its own is replayed here from the one record format: its rules
(``load_recorded``), seed and seats deal the game again, each action line is parsed and
applied in turn (a seat playing out of turn or a refused action stops the replay), and each
step carries every seat's own view (``views``) beside the public one.
"""

from __future__ import annotations

from typing import Any

from cardtable.engine.description import GameDescription
from cardtable.engine.errors import GameError, GameParamsError
from cardtable.engine.game_registry import description
from cardtable.engine.protocol import Result
from cardtable.engine.record import read_record
from cardtable.web.serialize import result_json

Json = dict[str, Any]


class ReplayUnavailable(Exception):
    """The record does not replay; the message says why, in one line."""


def _one_format(described: GameDescription, record: str
                ) -> tuple[list[Json], list[Json], Result | None]:
    read = read_record("record", record.splitlines(), described.name)
    header = read.header
    game = described.load_recorded(header.rules)
    people = [entry.player == "human" for entry in header.seats]
    state = described.table_state(game, 0 if header.seed is None else header.seed, people)
    if tuple(state.seats) != header.seat_names:
        raise ValueError(f"the header's seats {', '.join(header.seat_names)} are not the "
                         f"game's ({', '.join(state.seats)})")

    def view() -> Json:
        shown = dict(described.public_view(state))
        shown["views"] = {seat: described.seat_view(state, seat) for seat in state.seats}
        return shown

    frames, moves = [view()], []
    for entry in read.actions:
        if state.to_move != entry.seat:
            raise ValueError(f"line {entry.line}: {entry.seat} moves, but it is "
                             f"{state.to_move or 'nobody'}'s turn")
        state.apply(state.parse_action(entry.text))
        moves.append({"seat": entry.seat, "move": entry.text})
        frames.append(view())
    result: Result | None = state.result
    ended = read.result
    if result is None and ended is not None:  # stopped short: a forfeit, an abandoned game
        result = Result(tuple(ended.obj["winners"]), ended.obj["reason"],
                        dict(ended.obj["details"]))
    return frames, moves, result


def replay_steps(game: str, record: str) -> Json:
    """``{"game", "frames", "moves", "result"}`` for the record of a finished ``game`` (the
    first frame is the deal), or :class:`ReplayUnavailable`."""
    try:
        described = description(game)
    except GameParamsError:
        raise ReplayUnavailable(f"No replay for the game '{game[:20]}'.") from None
    try:
        found = described.replay_views(record)
        frames, moves, result = found if found is not None else _one_format(described, record)
    except (GameError, ValueError, KeyError, TypeError) as error:
        message = getattr(error, "message", None) or str(error)
        raise ReplayUnavailable(f"The record does not replay: {message}") from None
    shown = result_json(result)
    frames[-1]["result"] = shown  # the table page shows the result of the view it draws
    return {"game": game, "frames": frames, "moves": moves, "result": shown}
