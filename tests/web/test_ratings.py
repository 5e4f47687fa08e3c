"""Web ratings rank the named players by the game's places (``description.places``): the one
ranking of tournaments and RL rewards, Austerity's points included."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import pytest

pytest.importorskip("openskill")

from cardtable.engine.protocol import Result
from cardtable.web.ratings import ranks, rated_ranks, update_ratings
from cardtable.web.store import SeatRow, Store


def seats(names: Sequence[str], players: Sequence[str | None]) -> list[SeatRow]:
    return [SeatRow(name, position, "human" if player else "bot:random", None, player, player)
            for position, (name, player) in enumerate(zip(names, players, strict=True))]


class FakeStore:
    """The two calls of :class:`Store` that rating makes, in memory."""

    def __init__(self) -> None:
        self.saved: dict[str, tuple[float, float, int]] = {}

    def ratings(self, game: str, player_ids: Sequence[str]) -> dict[str, tuple[float, float, int]]:
        return {player: self.saved[player] for player in player_ids if player in self.saved}

    def save_ratings(self, game: str, values: dict[str, tuple[float, float, int]]) -> None:
        self.saved.update(values)


def test_austerity_ranks_by_points_and_obsession_by_placings() -> None:
    table = seats("ABC", ["x", "y", "z"])
    result = Result(("A",), "points", {"points": [15, 9, 12]})
    assert ranks("austerity", table, result) == [0, 2, 1]
    out = Result(("P2",), "out", {"placings": [2, 3, 1]})
    assert ranks("obsession", seats(["P1", "P2", "P3"], ["x", "y", "z"]), out) == [2, 0, 1]
    assert ranks("caravan", seats(["ABC", "DEF"], ["x", "y"]), Result((), "draw")) == [0, 0]


def test_named_players_are_ranked_among_themselves() -> None:
    assert rated_ranks([1, 3]) == [0, 1]
    assert rated_ranks([2, 2, 0]) == [1, 1, 0]


def test_more_points_rate_higher_when_only_one_seat_wins() -> None:
    store = FakeStore()
    table = seats("ABC", ["x", "y", "z"])
    rated = update_ratings(cast(Store, store), "austerity", table,
                           Result(("A",), "points", {"points": [15, 9, 12]}))
    assert rated
    mu: dict[str, Any] = {player: values[0] for player, values in store.saved.items()}
    assert mu["x"] > mu["z"] > mu["y"]


def test_bots_between_named_players_do_not_count() -> None:
    store = FakeStore()
    table = seats("ABC", ["x", None, "z"])
    assert update_ratings(cast(Store, store), "austerity", table,
                          Result(("B",), "points", {"points": [3, 15, 9]}))
    assert store.saved["z"][0] > store.saved["x"][0]
    assert not update_ratings(cast(Store, store), "austerity", seats("AB", ["x", None]),
                              Result(("A",), "points", {"points": [15, 9]}))
