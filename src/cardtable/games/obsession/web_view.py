"""Obsession as a web page draws it: a seat's view, the public view and a record's replay steps.

A view is the game's own observation JSON (:mod:`observation_json`, the one external bots
receive): a seat's view is made from that seat's observation, the public view from an
observation with the seat's hand left out. Cards are objects ``{"card": "9C", "id": "o12"}``
(``id`` names the physical card: tests prove by it that no hidden card is ever sent). To that
the view adds the game's name, its seats and rules.
"""

from __future__ import annotations

import functools
from typing import Any

from cardtable.engine.protocol import Result

Json = dict[str, Any]


@functools.cache
def _card(card: int) -> Json:
    from cardtable.games.obsession.observation_json import card_text

    return {"card": card_text(card), "id": f"o{card}"}


def obsession_view(obs: Any, public: bool = False, history: int = 12) -> Json:
    """``obs`` is a seat's observation; ``public`` leaves out the seat's hand."""
    from cardtable.games.obsession.observation_json import observation_json, public_json

    view = (public_json if public else observation_json)(obs, _card, history)
    view.update(game="obsession", seats=[player["seat"] for player in view["players"]],
                rules=obs.rules.to_json())
    return view


def seat_view(state: Any, seat: str, history: int) -> Json:
    return obsession_view(state.observation(seat), history=history)


def public_view(state: Any, history: int) -> Json:
    return obsession_view(state.observation(state.seats[0]), public=True, history=history)


def replay_views(record: str, history: int) -> tuple[list[Json], list[Json], Result | None]:
    """The record checked by ``obsession --replay``'s own check (``check_replay``), then
    replayed; each step the public view with every hand. A game a program forfeited ends with
    its record's forfeit line."""
    from cardtable.engine.match import Forfeit, forfeit_result
    from cardtable.engine.record import recorded_forfeit
    from cardtable.games.obsession.checked_replay import check_replay
    from cardtable.games.obsession.record import load

    checked = check_replay(load(record.splitlines(), "record"))
    game = checked.start()

    def view() -> Json:
        shown = obsession_view(game.observation(0), public=True, history=history)
        shown["hands"] = {seat: obsession_view(game.observation(seat), history=history)["hand"]
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
    return frames, moves, result


def table_state(game: Any, seed: int, people: list[bool]) -> Any:
    """The repetition guard leaves the people's seats alone, wherever they sit, as in the
    terminal (the record names them, and its replay deals the same way)."""
    from cardtable.games.obsession.state import ObsessionState

    return ObsessionState.new(game.rules, people, seed)


def recorder(state: Any, writer: Any, seed: int, players: list[str]) -> Any:
    """The ``obsession --record`` listener of a web table (its first lines written now)."""
    from cardtable.games.obsession.record import RecordListener, header

    # A program keeps its name (``exec:NAME``): ``exec`` alone names no seat kind.
    names = tuple("human" if kind == "human" else kind.removeprefix("bot:")
                  if kind.startswith("bot:exec:")
                  else kind.removeprefix("bot:").split(":")[0] for kind in players)
    return RecordListener(writer.write, header(state, seed, names))
