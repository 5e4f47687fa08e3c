"""The search bots by name: ``ismcts`` and ``omniscient`` for Caravan and Obsession.

``ismcts:iters=1000`` (default 1000 in Caravan and two-player Obsession, 8000 with three
players, 12000 with four or more: :func:`default_iterations`), ``ismcts:time=0.5`` (seconds
per decision), ``c=`` (UCB exploration, default 0.4 for Caravan, 0.7 for Obsession),
``rollout=NAME`` (Caravan: ``greedy``, the default, ``eval``, ``reply`` or ``random``;
Obsession: ``obsessed``, the default, or ``random``), ``opponents=tree|policy`` (Caravan
``tree``, Obsession ``policy``) and Obsession's ``reward=``, ``swap=`` and ``infer=``.
``omniscient`` takes the same options and searches the true state (calibration only; see
:class:`cardtable.agents.ismcts.Omniscient`); in Obsession ``omniscient:sight=hands`` knows
only the other seats' hands.
"""

from __future__ import annotations

from typing import Any

from cardtable.agents.ismcts import Omniscient, SearchSeat, parse_options
from cardtable.agents.search_worlds import (
    CARAVAN_ROLLOUTS,
    OBSESSION_INFERENCES,
    OBSESSION_ROLLOUTS,
    OBSESSION_SIGHTS,
    OBSESSION_SWAPS,
    PLACE_REWARDS,
    caravan_worlds,
    obsession_worlds,
)
from cardtable.engine.description import Bot, BotSpec

DEFAULT_C = {"caravan": 0.4, "obsession": 0.7}
"""UCB exploration by game: Caravan's leaf evaluations differ little, so it explores less."""


DEFAULT_OPPONENTS = {"caravan": "tree", "obsession": "policy"}
"""How the search models the other seats by game (``opponents=``). Obsession's worlds deal
the other seats hands consistent with the ``obsessed`` policy (``infer=policy``), so they
are played by it too."""

GAME_OPTIONS = {"obsession": {"reward": PLACE_REWARDS, "swap": OBSESSION_SWAPS,
                              "infer": OBSESSION_INFERENCES}}
"""A game's own options of the search and the values each takes (the first the default)."""
OMNISCIENT_OPTIONS = {"obsession": {"sight": OBSESSION_SIGHTS}}
"""The options only ``omniscient`` takes, by game."""

ITERATIONS_HEAD_TO_HEAD = 1000
"""The default budget of a two-seat table (Caravan, two-player Obsession)."""
ITERATIONS_PER_OPPONENT = 4000
ITERATIONS_CAP = 12000
"""At a table of three or more, 4000 iterations per other seat up to 12000 (three seats:
8000; four or more: 12000, about a third of a second a decision at four, under a second at
ten)."""


def default_iterations(game: Any) -> int:
    """The default budget of a decision for ``game``'s table. At a table of more than two a
    playout ends in one of many placings, so its reward is noisier and the moves need more
    playouts to be told apart: with four players 12000 iterations finish first in 43.7 % of
    300 games against three ``obsessed``, 3000 in 37.0 % (docs/bots-search.md)."""
    others = len(game.seats) - 1
    if others <= 1:
        return ITERATIONS_HEAD_TO_HEAD
    return min(ITERATIONS_PER_OPPONENT * others, ITERATIONS_CAP)


def _factory(game_name: str, worlds: Any, rollouts: tuple[str, ...], omniscient: bool,
             c: float) -> Any:
    def factory(game: Any, spec: BotSpec, seat: str, seed: int | str) -> SearchSeat:
        choices = {**GAME_OPTIONS.get(game_name, {}),
                   **(OMNISCIENT_OPTIONS.get(game_name, {}) if omniscient else {})}
        options = parse_options(spec.name, spec.options, c, rollouts,
                                default_iterations(game), DEFAULT_OPPONENTS[game_name], choices)
        kind = Omniscient if omniscient else SearchSeat
        return kind(worlds(game, omniscient), options, seed)
    return factory


def described_bots(game: str) -> list[Bot]:
    """``ismcts`` and ``omniscient`` for the game named ``game`` (Caravan and Obsession)."""
    rollouts: tuple[str, ...]
    if game == "caravan":
        worlds, rollouts = caravan_worlds, CARAVAN_ROLLOUTS
    elif game == "obsession":
        worlds, rollouts = obsession_worlds, OBSESSION_ROLLOUTS
    else:
        return []
    return [Bot("ismcts", _factory(game, worlds, rollouts, False, DEFAULT_C[game]),
                "information-set Monte Carlo tree search"),
            Bot("omniscient", _factory(game, worlds, rollouts, True, DEFAULT_C[game]),
                "tree search that sees every card (calibration only)", calibration=True)]
