"""shenzi, banzai and ed at a web table: the player programs' strategies, fed the seat's
observation (the whole public table) rebuilt as the table model the strategies read."""

from __future__ import annotations

from typing import Any

from cardtable.engine.errors import IllegalAction
from cardtable.games.austerity import strategies
from cardtable.games.austerity.rules import Action, Table
from cardtable.games.austerity.state import Observation

STRATEGIES = {"shenzi": strategies.shenzi, "banzai": strategies.banzai, "ed": strategies.ed}


def table_of(obs: Observation) -> Table:
    """The public table an Austerity observation shows."""
    table = Table(len(obs.points))
    table.piles = list(obs.piles)
    table.tokens = [list(tokens) for tokens in obs.tokens]
    table.wilds = list(obs.wilds)
    table.discounts = [list(discounts) for discounts in obs.discounts]
    table.points = list(obs.points)
    table.market = list(obs.market)
    return table


class StrategySeat:
    """One of the player programs' strategies as a seat."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.strategy = STRATEGIES[name]

    @classmethod
    def named(cls, spec: str, seat: str) -> StrategySeat:
        from cardtable.agents.registry import UnknownBot

        name, _colon, options = spec.strip().partition(":")
        name = name.lower()
        if name not in STRATEGIES:
            raise UnknownBot(f"Unknown bot '{spec[:40]}' for austerity "
                             f"(bots: {', '.join(STRATEGIES)}).")
        if options.strip():
            raise UnknownBot(f"The bot '{name}' takes no options.")
        return cls(name)

    def choose(self, observation: Any) -> Action:
        return self.strategy(table_of(observation), observation.seat)

    def rejected(self, error: IllegalAction) -> None:
        raise error
