"""A finished game is rated once, however many servers see it end: two servers (two stores
on one PostgreSQL database) racing to rate the same game write one change of rating per
account, and games of the same accounts ending at the same moment lose none of their
changes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from racing import at_once
from sqlalchemy import func, insert, select

pytest.importorskip("openskill")

from cardtable.engine.game_registry import description
from cardtable.engine.protocol import Result
from cardtable.web import schema
from cardtable.web.ratings import update_ratings
from cardtable.web.store import SeatRow, Store, TableRow

ROUNDS = 12


@pytest.fixture
def stores(pg_cluster: Any) -> Iterator[list[Store]]:
    """Two stores (two servers' connections) on one database where x, y and z are
    accounts."""
    description("austerity")  # (the games known before the threads ask)
    url = pg_cluster.new_database()
    opened = [Store(url), Store(url)]
    with opened[0].engine.begin() as conn:
        conn.execute(insert(schema.players), [
            {"id": player, "name": player.upper(), "created": 0.0,
             "password_hash": "$argon2id$..."} for player in ("x", "y", "z")])
    yield opened
    for store in opened:
        store.close()


def seats(players: Sequence[str]) -> list[SeatRow]:
    return [SeatRow(f"S{position}", position, "human", None, player, player)
            for position, player in enumerate(players)]


def finished_table(store: Store, table_id: str, players: Sequence[str]) -> None:
    store.add_table(TableRow(table_id, "austerity", {}, 1, "finished", False, True, None, 0.0,
                             1.0, {"winners": [], "reason": "points"}, None, None),
                    seats(players))



def history(store: Store, table_id: str | None = None) -> int:
    query = select(func.count()).select_from(schema.rating_history)
    if table_id is not None:
        query = query.where(schema.rating_history.c.table_id == table_id)
    with store.engine.connect() as conn:
        return int(conn.execute(query).scalar_one())


def test_two_servers_racing_to_rate_one_game_rate_it_once(stores: list[Store]) -> None:
    points = Result(("S0",), "points", {"points": [15, 9]})
    for number in range(ROUNDS):
        table = f"race{number}"
        finished_table(stores[0], table, ["x", "y"])

        def rate(index: int, table: str = table) -> bool:
            return update_ratings(stores[index % 2], "austerity", seats(["x", "y"]), points,
                                  table)

        rated = at_once(4, rate)
        assert sorted(rated) == [False, False, False, True], f"round {number}"
        assert history(stores[0], table) == 2
    games = stores[1].ratings("austerity", ["x", "y"])
    assert {player: values[2] for player, values in games.items()} == {"x": ROUNDS,
                                                                        "y": ROUNDS}
    assert history(stores[0]) == 2 * ROUNDS
    with stores[0].engine.connect() as conn:
        marked = conn.execute(select(func.count()).select_from(schema.tables)
                              .where(schema.tables.c.rated.is_(True))).scalar_one()
    assert marked == ROUNDS


def test_games_of_the_same_accounts_ending_at_once_keep_every_change(
        stores: list[Store]) -> None:
    """Three games (x-y, y-z, z-x) end at the same moment on two servers, round after round:
    each account's count of games is every game it played (no change overwritten), even for
    accounts rated for the first time at once."""
    pairs = [("x", "y"), ("y", "z"), ("z", "x")]
    points = Result(("S0",), "points", {"points": [15, 9]})
    for number in range(ROUNDS // 2):
        for index, pair in enumerate(pairs):
            finished_table(stores[0], f"g{number}_{index}", pair)

        def rate(index: int, number: int = number) -> bool:
            return update_ratings(stores[index % 2], "austerity", seats(pairs[index]), points,
                                  f"g{number}_{index}")

        assert at_once(3, rate) == [True, True, True]
    games = stores[0].ratings("austerity", ["x", "y", "z"])
    assert {player: values[2] for player, values in games.items()} == {
        player: ROUNDS for player in "xyz"}
    assert history(stores[0]) == 2 * 3 * (ROUNDS // 2)
