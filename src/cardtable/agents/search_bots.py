"""The search bots by name: ``ismcts`` and ``omniscient`` for Caravan and Obsession.

``ismcts:iters=1000`` (default 1000 iterations per other seat: 1000 in Caravan and
two-player Obsession, 3000 with four players), ``ismcts:time=0.5`` (seconds per decision),
``c=`` (UCB exploration, default 0.4 for Caravan, 0.7 for Obsession), ``rollout=NAME``
(Caravan: ``greedy``, the default, ``eval``, ``reply`` or ``random``; Obsession: ``obsessed``,
the default, or ``random``), ``opponents=tree|policy`` (Caravan ``tree``, Obsession ``policy``)
and Obsession's ``reward=``, ``swap=`` and ``infer=``. ``omniscient`` takes the same options and
searches the true state (calibration only; see :class:`cardtable.agents.ismcts.Omniscient`).
"""

from __future__ import annotations

from typing import Any

from cardtable.agents.ismcts import Omniscient, SearchSeat, parse_options
from cardtable.agents.registry import BotSpec, register
from cardtable.agents.search_worlds import (
    CARAVAN_ROLLOUTS,
    OBSESSION_INFERENCES,
    OBSESSION_ROLLOUTS,
    OBSESSION_SWAPS,
    PLACE_REWARDS,
    caravan_worlds,
    obsession_worlds,
)

DEFAULT_C = {"caravan": 0.4, "obsession": 0.7}
"""UCB exploration by game: Caravan's leaf evaluations differ little, so it explores less."""


DEFAULT_OPPONENTS = {"caravan": "tree", "obsession": "policy"}
"""How the search models the other seats by game (``opponents=``). Obsession's worlds deal
the other seats hands consistent with the ``obsessed`` policy (``infer=policy``), so they
are played by it too."""

GAME_OPTIONS = {"obsession": {"reward": PLACE_REWARDS, "swap": OBSESSION_SWAPS,
                              "infer": OBSESSION_INFERENCES}}
"""A game's own options of the search and the values each takes (the first the default)."""

ITERATIONS_PER_OPPONENT = 1000


def default_iterations(game: Any) -> int:
    """1000 iterations per other seat: the tree has a level per seat between two decisions of
    its own, so a table of four needs about three times the search of a table of two."""
    return ITERATIONS_PER_OPPONENT * max(1, len(game.seats) - 1)


def _factory(game_name: str, worlds: Any, rollouts: tuple[str, ...], omniscient: bool,
             c: float) -> Any:
    def factory(spec: BotSpec, seat: str, seed: int | str, game: Any) -> SearchSeat:
        options = parse_options(spec.name, spec.options, c, rollouts,
                                default_iterations(game), DEFAULT_OPPONENTS[game_name],
                                GAME_OPTIONS.get(game_name))
        kind = Omniscient if omniscient else SearchSeat
        return kind(worlds(game, omniscient), options, seed)
    return factory


def register_search_bots(game: str) -> None:
    """Register ``ismcts`` and ``omniscient`` for ``game`` (Caravan and Obsession)."""
    rollouts: tuple[str, ...]
    if game == "caravan":
        worlds, rollouts = caravan_worlds, CARAVAN_ROLLOUTS
    elif game == "obsession":
        worlds, rollouts = obsession_worlds, OBSESSION_ROLLOUTS
    else:
        return
    register(game, "ismcts", _factory(game, worlds, rollouts, False, DEFAULT_C[game]),
             summary="information-set Monte Carlo tree search")
    register(game, "omniscient", _factory(game, worlds, rollouts, True, DEFAULT_C[game]),
             summary="tree search that sees every card (calibration only)", calibration=True)
