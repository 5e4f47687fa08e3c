"""Austerity's bots as engine seats: ``shenzi``, ``banzai`` and ``ed`` in-process, and the
``mcts`` search (``mcts.py``) with its calibration twin ``omniscient``.

The same strategy functions as the player programs (``strategies.py``), asked on the table that
the seat's observation shows. The game hides nothing but the order of the deck, so every
observation shows the whole table, and a seat here chooses exactly what the player program of
the same name answers in the same position: a game played through the engine's match loop
between these seats ends as the hub's game with the programs does (tested).
"""

from __future__ import annotations

from collections.abc import Callable

from cardtable.engine.description import Bot as Described
from cardtable.engine.description import BotSpec, UnknownBot, no_options
from cardtable.engine.errors import IllegalAction
from cardtable.games.austerity.mcts import (
    DEFAULT_POINTS,
    MctsStrategy,
    OmniscientMcts,
    parse_spec,
)
from cardtable.games.austerity.rules import Action, Table
from cardtable.games.austerity.state import AusterityState, Observation
from cardtable.games.austerity.strategies import STRATEGIES

SUMMARIES = {
    "shenzi": "buys the dearest card in points it can, else takes Purple, Brown, Yellow, Red",
    "banzai": "takes Yellow, Brown, Purple, Red while short of tokens, else buys points",
    "ed": "buys or saves for the card its opponents could buy next",
}


class StrategySeat:
    """A seat playing a strategy on its observation: one of the player programs' (by name) or
    any other, such as the ``mcts`` search."""

    def __init__(self, name: str, strategy: Callable[[Table, int], Action] | None = None) -> None:
        self.name = name
        self.strategy: Callable[[Table, int], Action] = strategy or STRATEGIES[name]

    def choose(self, observation: Observation) -> Action:
        return self.strategy(observation.table(), observation.seat)

    def rejected(self, error: IllegalAction) -> None:
        # A strategy only proposes what the rules allow; a refusal is a bug to surface.
        raise error


class WatchingSeat(StrategySeat):
    """A seat of :class:`OmniscientMcts`, shown the game's state before play."""

    def __init__(self, search: OmniscientMcts) -> None:
        super().__init__("omniscient", search)
        self.search = search

    def watch(self, state: AusterityState) -> None:
        self.search.state = state


def _mcts_factory(game: object, spec: BotSpec, seat: str, seed: int | str) -> StrategySeat:
    text = "mcts:" + ",".join(f"{key}={value}" for key, value in spec.options.items()
                              if key != "seed")
    try:
        search = parse_spec(text.rstrip(":"), spec.name)
    except ValueError as error:
        raise UnknownBot(str(error)) from None
    search.seed = spec.options.get("seed", f"{seed}:{seat}")
    if "points" not in spec.options:
        search.points = int(getattr(game, "points", DEFAULT_POINTS))
    return StrategySeat("mcts", search)


def _omniscient_factory(game: object, spec: BotSpec, seat: str, seed: int | str) -> WatchingSeat:
    found = _mcts_factory(game, spec, seat, seed).strategy
    assert isinstance(found, MctsStrategy)
    search = OmniscientMcts(found.iterations, found.seconds, found.c, found.points, found.seed)
    return WatchingSeat(search)


def _search_bots() -> list[Described]:
    """``mcts`` and its calibration twin ``omniscient``."""
    return [Described("mcts", _mcts_factory, "Monte Carlo tree search"),
            Described("omniscient", _omniscient_factory,
                      "mcts dealt the real deck (calibration only)", calibration=True)]


def described_bots() -> list[Described]:
    """The Austerity bots as its description offers them: the player programs' strategies,
    then ``mcts`` and its calibration twin ``omniscient``."""

    def bot(name: str) -> Described:
        def factory(game: object, spec: BotSpec, seat: str, seed: int | str) -> StrategySeat:
            # The strategies draw no random numbers: the seed has nothing to seed.
            no_options(spec)
            return StrategySeat(name)

        return Described(name, factory, SUMMARIES[name], instant=True)

    return [bot(name) for name in STRATEGIES] + _search_bots()
