"""Web ratings rank the accounts by the game's places (``description.places``): the one
ranking of tournaments and RL rewards, Austerity's points included. Bots and guests play
unrated; each change of rating is kept in the history."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select

pytest.importorskip("openskill")

from cardtable.engine.protocol import Result
from cardtable.web import schema
from cardtable.web.ratings import ranks, rated_ranks, update_ratings
from cardtable.web.store import SeatRow, Store


def seats(names: Sequence[str], players: Sequence[str | None]) -> list[SeatRow]:
    return [SeatRow(name, position, "human" if player else "bot:random", None, player, player)
            for position, (name, player) in enumerate(zip(names, players, strict=True))]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A database where x, y and z are accounts and g a guest."""
    opened = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    with opened.engine.begin() as conn:
        conn.execute(insert(schema.players), [
            {"id": player, "name": player.upper(), "created": 0.0,
             "password_hash": None if player == "g" else "$argon2id$..."}
            for player in ("x", "y", "z", "g")])
    yield opened
    opened.close()


def saved(store: Store) -> dict[str, tuple[float, float, int]]:
    return store.ratings("austerity", ["x", "y", "z", "g"])


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


def test_more_points_rate_higher_when_only_one_seat_wins(store: Store) -> None:
    table = seats("ABC", ["x", "y", "z"])
    rated = update_ratings(store, "austerity", table,
                           Result(("A",), "points", {"points": [15, 9, 12]}), "t1")
    assert rated
    mu: dict[str, Any] = {player: values[0] for player, values in saved(store).items()}
    assert mu["x"] > mu["z"] > mu["y"]


def test_bots_and_guests_between_accounts_do_not_count(store: Store) -> None:
    table = seats("ABCD", ["x", None, "g", "z"])
    assert update_ratings(store, "austerity", table,
                          Result(("B",), "points", {"points": [3, 15, 14, 9]}), "t1")
    assert set(saved(store)) == {"x", "z"} and saved(store)["z"][0] > saved(store)["x"][0]
    assert not update_ratings(store, "austerity", seats("AB", ["x", None]),
                              Result(("A",), "points", {"points": [15, 9]}), "t2")
    assert not update_ratings(store, "austerity", seats("AB", ["x", "g"]),
                              Result(("A",), "points", {"points": [15, 9]}), "t3")
    assert set(saved(store)) == {"x", "z"}


def test_each_rating_change_is_kept_in_the_history(store: Store) -> None:
    for number, points in enumerate(([15, 9], [9, 15], [15, 9])):
        assert update_ratings(store, "austerity", seats("AB", ["x", "y"]),
                              Result((), "points", {"points": points}), f"t{number}",
                              at=100.0 + number)
    with store.engine.connect() as conn:
        rows = conn.execute(select(schema.rating_history)
                            .order_by(schema.rating_history.c.id)).all()
    assert [(row.player_id, row.table_id, row.at) for row in rows] == [
        (player, f"t{number}", 100.0 + number) for number in range(3) for player in "xy"]
    last = {row.player_id: (row.mu, row.sigma) for row in rows}
    assert {player: values[:2] for player, values in saved(store).items()} == last
    assert saved(store)["x"][2] == 3
