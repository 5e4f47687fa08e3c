"""Playing one game of a schedule: load the game, seat the bots, run the match loop.

This is all a worker process (or a Ray task) runs. It returns the game's results line as a
dictionary; writing it is the parent's job.
"""

from __future__ import annotations

import json
import time
from typing import Any

from cardtable.engine.match import MatchAbandoned, MatchListener, Seat, play_match
from cardtable.engine.protocol import GameState, Result
from cardtable.tournament.schedule import Config, Task

MOVE_CAP = 100_000
"""Moves after which a game with no length cap of its own (Austerity) is stopped as a draw."""

_games: dict[tuple[str, str], Any] = {}


def load(game: str, params: dict[str, Any]) -> Any:
    """``cardtable.load_game(game, **params)``, loaded once per process."""
    import cardtable

    key = (game, json.dumps(params, sort_keys=True))
    loaded = _games.get(key)
    if loaded is None:
        loaded = _games[key] = cardtable.load_game(game, **params)
    return loaded


class MoveCounter(MatchListener):
    """Counts the moves, and stops the game as a stalemate after ``cap`` of them."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.moves = 0

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        if self.moves >= self.cap:
            raise MatchAbandoned(seat, "cap")

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        self.moves += 1


def _with_length_caps(game: str, params: dict[str, Any]) -> dict[str, Any]:
    """The game's own guard against games that cannot end, as the shells set it for bots:
    Caravan's ``stuck_plies`` rule unless given (Obsession's guard is on by default)."""
    if game == "caravan" and "stuck_plies" not in params:
        from cardtable.games.caravan.stalemate import STUCK_PLIES

        return {**params, "stuck_plies": STUCK_PLIES}
    return params


def ranks(game: str, result: Result, chairs: tuple[str, ...]) -> list[int]:
    """Each chair's place, 0 for first; tied chairs share a place (a draw: all 0)."""
    details = result.details
    if game == "obsession" and details.get("placings"):
        placings = [chairs[number - 1] for number in details["placings"]]
        last = len(placings)
        return [placings.index(chair) if chair in placings else last for chair in chairs]
    if game == "austerity" and "points" in details:
        points = list(details["points"])
        distinct = sorted(set(points), reverse=True)
        return [distinct.index(value) for value in points]
    if not result.winners:
        return [0] * len(chairs)
    return [0 if chair in result.winners else 1 for chair in chairs]


def play(config: Config, task: Task) -> dict[str, Any]:
    """Play ``task`` and return its results line."""
    from cardtable.agents.registry import make_seat, show_state

    game = load(config.game, _with_length_caps(config.game, dict(config.params)))
    state = game.new_state(task.seed)
    chairs = tuple(state.seats)
    seats: dict[str, Seat] = {
        chair: make_seat(game, config.spec_of(label), chair, task.seed, calibration=True)
        for chair, label in zip(chairs, task.seats, strict=True)
    }
    show_state(seats, state)  # the omniscient calibration bots see the whole state
    counter = MoveCounter(MOVE_CAP)
    started = time.perf_counter()
    try:
        result = play_match(state, seats, (counter,))
    except MatchAbandoned as abandoned:
        result = Result((), "stalemate", {"cause": abandoned.cause})
    elapsed = time.perf_counter() - started
    label_of = dict(zip(chairs, task.seats, strict=True))
    return {
        "seats": list(task.seats),
        "deal": task.deal,
        "rotation": task.rotation,
        "seed": task.seed,
        "result": {
            "winners": [label_of[chair] for chair in result.winners],
            "reason": result.reason,
            "ranks": ranks(config.game, result, chairs),
        },
        "details": _plain(result.details),
        "moves": counter.moves,
        "time": round(elapsed, 6),
    }


def _plain(details: Any) -> Any:
    """``details`` as JSON gives it back (tuples become lists), so lines compare equal."""
    return json.loads(json.dumps(details))
