"""Obsession's parameters, written once: their types, defaults, limits and the one message
each gives for a bad value (:class:`~cardtable.engine.description.Param`).

The game's description offers them (``OBSESSION.params``), and everything that reads an
option of the game checks it with them: ``load_game("obsession", ...)``, the ``obsession``
command line (whose options are made from them), the launcher's form and a record's rules.
This module imports nothing of the game, so that :mod:`rules` can take its defaults from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from cardtable.engine.description import Param
from cardtable.engine.errors import GameParamsError

KILL_ORDERS = ("effect-first", "kill-first")
MIN_PLAYERS, MAX_PLAYERS = 2, 10
MIN_RUN_KILL, MAX_RUN_KILL = 2, 8

PLAYERS = Param("players", "the number of players", kind="int", default=4, low=MIN_PLAYERS,
                high=MAX_PLAYERS)
HUMANS = Param("humans", "how many seats (P1 ..) are people, whom the repetition guard leaves "
               "alone", kind="int", default=0, low=0, high=MAX_PLAYERS)
"""At most the number of players: :func:`humans_param` gives the bound of a table."""
RUN_KILL = Param("run_kill", "a run of this many equal faces kills the pile", kind="int",
                 default=4, low=MIN_RUN_KILL, high=MAX_RUN_KILL)
KILL_ORDER = Param("kill_order", "whether a card's effect or the run's kill comes first",
                   kind="choice", default=KILL_ORDERS[0], choices=KILL_ORDERS)
MAX_PLAYS = Param("max_plays", "plays after which the game ends as a stalemate", kind="int",
                  default=5000, low=1)
REPEAT_LIMIT = Param("repeat_limit", "how often a bot may repeat a position (0: no guard)",
                     kind="int", default=3, low=0)

PARAMS = (PLAYERS, HUMANS, RUN_KILL, KILL_ORDER, MAX_PLAYS, REPEAT_LIMIT)
RULES = (PLAYERS, RUN_KILL, KILL_ORDER, MAX_PLAYS, REPEAT_LIMIT)
"""The parameters that are rules of the game (``humans`` says who sits, not how it is played)."""


def humans_param(players: int) -> Param:
    """``humans`` at a table of ``players`` seats: from 0 to ``players``."""
    return replace(HUMANS, high=players)


def checked(given: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter: the given value checked, or its default; the first bad value (in the
    order of :data:`PARAMS`) or unknown name raises :class:`GameParamsError` with its
    message."""
    for name in given:
        if name not in {param.name for param in PARAMS}:
            raise GameParamsError(f"Unknown parameter '{name}' for obsession "
                                  f"(allowed: {', '.join(param.name for param in PARAMS)}).")
    values: dict[str, Any] = {}
    for param in PARAMS:
        if param is HUMANS:
            param = humans_param(values[PLAYERS.name])
        values[param.name] = param.check(given[param.name]) if param.name in given \
            else param.default
    return values
