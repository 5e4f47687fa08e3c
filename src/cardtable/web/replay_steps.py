"""A finished table's record as the replay page's steps, with every hand shown.

The record is the one the table downloads (the JSON lines the terminal writes), replayed by
the game's own replay code, which checks every line as ``caravan --replay`` and
``obsession --replay`` do (Caravan's ``load_replay``, Obsession's ``check_replay``, Austerity's
``replay_hub_record``); a game a program forfeited ends with its record's forfeit line. Each
step is the public view the table page draws plus every seat's hand (``hands``): a finished
game hides nothing (its record holds every card), and the terminal's replays show every hand
too.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

from cardtable.engine.errors import GameError
from cardtable.engine.match import Forfeit, forfeit_result
from cardtable.engine.record import recorded_forfeit
from cardtable.web.serialize import austerity_view, caravan_view, obsession_view, result_json

Json = dict[str, Any]


class ReplayUnavailable(Exception):
    """The record does not replay; the message says why, in one line."""


def _caravan(text: str) -> tuple[list[Json], list[Json], Json | None]:
    from cardtable.games.caravan.cards import SEATS
    from cardtable.games.caravan.record import load_replay

    handle, path = tempfile.mkstemp(suffix=".jsonl", prefix="cardtable-replay-")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        replay = load_replay(path)
    finally:
        os.unlink(path)
    game = replay.start()

    def view() -> Json:
        shown = caravan_view(game.observation(0), game.observation(1))
        shown["hands"] = {SEATS[seat]: caravan_view(game.observation(seat))["hand"]
                          for seat in (0, 1)}
        return shown

    frames, moves = [view()], []
    for step in replay.moves:
        replay.apply(game, step)
        moves.append({"seat": SEATS[step.move.seat], "move": step.move.notation})
        frames.append(view())
    replay.finish(game)  # an abandoned or forfeited game's end is on the record's last line
    return frames, moves, result_json(game.result)


def _obsession(text: str) -> tuple[list[Json], list[Json], Json | None]:
    from cardtable.games.obsession.checked_replay import check_replay
    from cardtable.games.obsession.record import load

    checked = check_replay(load(text.splitlines(), "record"))
    game = checked.start()

    def view() -> Json:
        shown = obsession_view(game.observation(0), public=True)
        shown["hands"] = {seat: obsession_view(game.observation(seat))["hand"]
                          for seat in game.seats}
        return shown

    frames, moves = [view()], []
    for action in checked.actions:
        seat = game.to_move
        moves.append({"seat": seat, "move": game.action_text(action)})
        game.apply(action)
        frames.append(view())
    result = game.result
    forfeit = recorded_forfeit(checked.loaded.lines[-1][1]) if checked.loaded.lines else None
    if result is None and forfeit is not None:
        # The game stopped at a forfeit; ``check_replay`` matched the record's forfeit line.
        result = forfeit_result(game, Forfeit(*forfeit))
    return frames, moves, result_json(result)


def _austerity(text: str) -> tuple[list[Json], list[Json], Json | None]:
    from cardtable.games.austerity.record import read_hub_record, replay_hub_record
    from cardtable.games.austerity.state import AusterityState

    try:
        record = read_hub_record("record", text.splitlines())
        replay_hub_record(record)  # every line checked, as for the other games
    except GameError as error:
        raise ReplayUnavailable(error.message) from None
    state = AusterityState(list(record.deck), record.tokens, record.points, len(record.players))
    frames, moves = [austerity_view(state.observation(0), public=True)], []
    for _line, seat, action in record.actions:
        moves.append({"seat": seat, "move": action})
        state.apply(state.parse_action(action))
        frames.append(austerity_view(state.observation(0), public=True))
    return frames, moves, result_json(state.result)


def replay_steps(game: str, record: str) -> Json:
    """``{"game", "frames", "moves", "result"}`` for the record of a finished ``game`` (the
    first frame is the deal), or :class:`ReplayUnavailable`."""
    makers = {"caravan": _caravan, "obsession": _obsession, "austerity": _austerity}
    maker = makers.get(game)
    if maker is None:
        raise ReplayUnavailable(f"No replay for the game '{game[:20]}'.")
    try:
        frames, moves, result = maker(record)
    except (GameError, ValueError, KeyError, TypeError) as error:
        message = getattr(error, "message", None) or str(error)
        raise ReplayUnavailable(f"The record does not replay: {message}") from None
    frames[-1]["result"] = result  # the table page shows the result of the view it draws
    return {"game": game, "frames": frames, "moves": moves, "result": result}
