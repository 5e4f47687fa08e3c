"""Austerity's bots as engine seats: ``shenzi``, ``banzai`` and ``ed`` in-process.

The same strategy functions as the player programs (``strategies.py``), asked on the table that
the seat's observation shows. The game hides nothing but the order of the deck, so every
observation shows the whole table, and a seat here chooses exactly what the player program of
the same name answers in the same position: a game played through the engine's match loop
between these seats ends as the hub's game with the programs does (tested).
"""

from __future__ import annotations

from collections.abc import Callable

from cardtable.engine.description import Bot as Described
from cardtable.engine.description import BotSpec, no_options
from cardtable.engine.errors import IllegalAction
from cardtable.games.austerity.rules import Action, Table
from cardtable.games.austerity.state import Observation
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


def described_bots() -> list[Described]:
    """The Austerity bots as its description offers them: the player programs' strategies,
    then ``mcts`` and its calibration twin ``omniscient``."""
    from cardtable.games.austerity.mcts import described_bots as searches

    def bot(name: str) -> Described:
        def factory(game: object, spec: BotSpec, seat: str, seed: int | str) -> StrategySeat:
            # The strategies draw no random numbers: the seed has nothing to seed.
            no_options(spec)
            return StrategySeat(name)

        return Described(name, factory, SUMMARIES[name], instant=True)

    return [bot(name) for name in STRATEGIES] + searches()
