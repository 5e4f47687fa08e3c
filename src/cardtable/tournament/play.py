"""Playing one game of a schedule: load the game, seat the bots, run the match loop.

This is all a worker process (or a Ray task) runs. It returns the game's results line as a
dictionary; writing it is the parent's job.
"""

from __future__ import annotations

import json
import time
from typing import Any

from cardtable.engine.game_registry import description
from cardtable.engine.match import MatchAbandoned, MatchListener, Seat, play_match
from cardtable.engine.protocol import GameState, Result
from cardtable.tournament.schedule import Config, Task

MOVE_CAP = 100_000
"""Moves after which any game is stopped as a draw: the bound of a results file's ``moves``,
and the cap of a game whose description gives none (``max_moves``, the cap of a game with no
length cap of its own, stops it sooner)."""

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


def move_cap(game: str) -> int:
    """The moves after which a game of ``game`` is stopped as a draw: its description's
    ``max_moves``, at most :data:`MOVE_CAP`."""
    cap = description(game).max_moves
    return MOVE_CAP if cap is None else min(cap, MOVE_CAP)


def with_length_caps(game: str, params: dict[str, Any]) -> dict[str, Any]:
    """The game's own guards against games that cannot end, as the shells set them for bots
    (its description's ``bot_params``: Caravan's ``stuck_plies`` rule), unless given."""
    return {**description(game).bot_params, **params}


def ranks(game: str, result: Result, chairs: tuple[str, ...]) -> list[int]:
    """Each chair's place, 0 for first; tied chairs share the best place of their group (a
    draw: all 0): the game's one ranking, ``description.places``."""
    return description(game).places(result, chairs)


def play(config: Config, task: Task) -> dict[str, Any]:
    """Play ``task`` and return its results line."""
    from cardtable.agents.registry import make_seat, show_state

    game = load(config.game, with_length_caps(config.game, dict(config.params)))
    state = game.new_state(task.seed)
    chairs = tuple(state.seats)
    seats: dict[str, Seat] = {
        chair: make_seat(game, config.spec_of(label), chair, task.seed, calibration=True)
        for chair, label in zip(chairs, task.seats, strict=True)
    }
    show_state(seats, state)  # the omniscient calibration bots see the whole state
    counter = MoveCounter(move_cap(config.game))
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
