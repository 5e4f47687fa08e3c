"""The search bots by name, for every game: ``ismcts`` and ``omniscient``.

A game's description may give its own parts of the search
(:meth:`~cardtable.engine.description.GameDescription.search`: Caravan and Obsession, with
their compiled cores); any other game is searched through the state protocol
(:mod:`cardtable.agents.protocol_search`: its worlds dealt by ``game.sample_world``, uniformly
random rollouts, rewards by place).

``ismcts:iters=1000`` (default 1000 at a table of two, 8000 with three seats, 12000 with four
or more: :func:`default_iterations`), ``ismcts:time=0.5`` (seconds per decision), ``c=`` (UCB
exploration, the game's default: 0.4 for Caravan, 0.7 otherwise), ``rollout=NAME`` (the game's
rollouts: Caravan ``greedy``, the default, ``eval``, ``reply`` or ``random``; Obsession
``obsessed``, the default, or ``random``; any other game ``random``), ``root=ucb|halving``,
``opponents=tree|policy`` (the game's default: Obsession ``policy``, the others ``tree``) and
the game's own options (Obsession's ``reward=``, ``swap=`` and ``infer=``). ``omniscient``
takes the same options and searches the true state (calibration only; see
:class:`cardtable.agents.ismcts.Omniscient`); in Obsession ``omniscient:sight=hands`` knows
only the other seats' hands.
"""

from __future__ import annotations

from typing import Any

from cardtable.agents.ismcts import Omniscient, SearchSeat, parse_options
from cardtable.engine.description import Bot, BotSpec
from cardtable.engine.game_registry import description
from cardtable.engine.search import SearchParts

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


def search_parts(game: str) -> SearchParts:
    """The search of the game named ``game``: its description's, else the state protocol's."""
    found = description(game).search()
    if found is not None:
        return found
    from cardtable.agents.protocol_search import PARTS

    return PARTS


def _factory(parts: SearchParts, omniscient: bool) -> Any:
    def factory(game: Any, spec: BotSpec, seat: str, seed: int | str) -> SearchSeat:
        choices = {**parts.options, **(parts.omniscient_options if omniscient else {})}
        options = parse_options(spec.name, spec.options, parts.exploration, parts.rollouts,
                                default_iterations(game), parts.opponents, choices)
        kind = Omniscient if omniscient else SearchSeat
        return kind(parts.worlds(game, omniscient), options, seed)
    return factory


def described_bots(game: str) -> list[Bot]:
    """``ismcts`` and ``omniscient`` for the game named ``game``."""
    parts = search_parts(game)
    return [Bot("ismcts", _factory(parts, False), "information-set Monte Carlo tree search"),
            Bot("omniscient", _factory(parts, True),
                "tree search that sees every card (calibration only)", calibration=True)]
