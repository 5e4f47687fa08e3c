"""What a tournament plays: its configuration, and the games of its schedule in order.

Every table (a pair of seats in a two-player game, a set of seats in a larger one) plays the
same deals, and each deal is played once per rotation of the seats: a two-player deal twice,
seats swapped; a deal of P players P times, each entrant once in every chair. A game is fully
determined by its table, deal and rotation, so the schedule can be played in any order, by any
number of processes or machines, and give the same games.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any


@dataclass(frozen=True)
class Entrant:
    """One ``--seat``: its label in results (``normal``, ``normal#2`` for a second one) and the
    bot spec it was given."""

    label: str
    spec: str


@dataclass(frozen=True)
class Config:
    """Everything that decides which games are played and how: two commands with equal configs
    play the same games, so a results file may be resumed only under an equal config."""

    game: str
    params: Mapping[str, Any]
    players: int
    entrants: tuple[Entrant, ...]
    gauntlet: str | None
    seed: int

    def header(self) -> dict[str, Any]:
        """The first line of a results file."""
        return {
            "tournament": 1,
            "game": self.game,
            "params": dict(self.params),
            "players": self.players,
            "seats": [{"label": entrant.label, "spec": entrant.spec} for entrant in self.entrants],
            "gauntlet": self.gauntlet,
            "seed": self.seed,
        }

    def spec_of(self, label: str) -> str:
        for entrant in self.entrants:
            if entrant.label == label:
                return entrant.spec
        raise KeyError(label)


@dataclass(frozen=True)
class Task:
    """One game of the schedule: the entrants in chair order, the deal and the rotation."""

    index: int
    seats: tuple[str, ...]
    table: int
    deal: int
    rotation: int
    seed: int

    @property
    def key(self) -> tuple[tuple[str, ...], int]:
        """What identifies the game in a results file: who sits where, and the deal."""
        return (self.seats, self.deal)


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal`` of a tournament seeded ``seed`` (63 bits, from SHA-256)."""
    digest = hashlib.sha256(f"cardtable-tournament:{seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def tables(config: Config) -> list[tuple[str, ...]]:
    """The sets of entrants that meet: every combination of ``players`` entrants (only those
    with the gauntlet's entrant when there is one), in the order of the ``--seat`` options."""
    labels = [entrant.label for entrant in config.entrants]
    every = list(combinations(labels, config.players))
    if config.gauntlet is not None:
        every = [table for table in every if config.gauntlet in table]
    return every


def deals_for(games: int, players: int) -> int:
    """How many deals give at least ``games`` games per table (whole rotations only)."""
    return -(-games // players)


def schedule(config: Config, games: int) -> Iterator[Task]:
    """The games in order: deal by deal, and within a deal every table and every rotation.

    Deal after deal means that a run stopped early (an SPRT decision, Ctrl+C) has played
    whole deals of every table, not all the games of one table and none of another.
    """
    index = 0
    every_table = tables(config)
    for deal in range(deals_for(games, config.players)):
        seed = deal_seed(config.seed, deal)
        for table_number, table in enumerate(every_table):
            for rotation in range(config.players):
                seats = table[rotation:] + table[:rotation]
                yield Task(index, seats, table_number, deal, rotation, seed)
                index += 1


def count(config: Config, games: int) -> int:
    """The number of games in the schedule."""
    return deals_for(games, config.players) * len(tables(config)) * config.players
