"""Ratings per game (openskill's Plackett-Luce model, 2 to 10 players), updated when a game
between accounts ends. Ratings belong to accounts: bots, guests (a name without a password) and
seats without a name play but take no part; the accounts are ranked among themselves by the
game's places (``description.places``, the one ranking of tournaments and RL rewards too:
Obsession's placings, Austerity's points, the others' winners first). Each change of an
account's rating is also kept in its rating history (``rating_history``: the table, the time,
mu and sigma), which the person's page draws. A game is rated once, however many servers see it
end (``tables.rated``)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert

from cardtable.engine.description import ranks_of
from cardtable.engine.game_registry import description
from cardtable.engine.protocol import Result
from cardtable.web import schema
from cardtable.web.accounts import accounts_among
from cardtable.web.store import SeatRow, Store


def ranks(game: str, seats: Sequence[SeatRow], result: Result) -> list[int]:
    """A rank per seat (lower is better; equal ranks are ties): the game's places."""
    return description(game).places(result, [seat.seat for seat in seats])


def rated_ranks(places: Sequence[int]) -> list[int]:
    """The places of the rated players as ranks among themselves (``[1, 3]`` → ``[0, 1]``),
    ties kept."""
    return ranks_of([-float(place) for place in places])


def shown_rating(mu: float, sigma: float) -> float:
    """The rating a page shows: mu - 3 sigma (a new account starts at 0)."""
    return round(mu - 3 * sigma, 2)


def update_ratings(store: Store, game: str, seats: Sequence[SeatRow], result: Result,
                   table_id: str, at: float | None = None) -> bool:
    """Rate the game at table ``table_id`` if at least two distinct accounts took part; True
    when rated by this call. A game is rated once: when another call (another server that
    finished the same game) rated it first, nothing is written and the answer is False."""
    seat_ranks = ranks(game, seats, result)
    named = [seat.player_id for seat in seats
             if seat.kind == "human" and seat.player_id is not None]
    accounts = accounts_among(store, named)
    rated: dict[str, int] = {}
    for seat, rank in zip(seats, seat_ranks, strict=True):
        if seat.kind == "human" and seat.player_id in accounts and seat.player_id not in rated:
            rated[seat.player_id] = rank
    if not 2 <= len(rated) <= 10 or result.reason == "quit":
        return False
    return save_ratings(store, game, table_id, rated, time.time() if at is None else at)


def save_ratings(store: Store, game: str, table_id: str, rated: Mapping[str, int],
                 at: float) -> bool:
    """Rate the accounts ``rated`` (player id → rank) for the game at ``table_id``, their new
    ratings and rows of history in one transaction; False (nothing written) when the table's
    game was rated already.

    The transaction begins by marking the table rated (``tables.rated``), so of two servers
    finishing the same game only the first writes; the players' ratings are then read locked
    (in id order: two games sharing players never wait for each other crosswise), so a game
    ending at the same time with the same player does not overwrite this one's change."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    players = sorted(rated)
    ratings = schema.ratings
    with store.engine.begin() as conn:
        if not _mark_rated(conn, table_id):
            return False
        if conn.dialect.name == "postgresql":
            # A first game for two new accounts at once: their rows exist before they are
            # locked, so neither insert can fail the other's transaction.
            fresh = pg_insert(ratings).values([
                {"player_id": player, "game": game, "mu": model.mu, "sigma": model.sigma,
                 "games": 0} for player in players])
            conn.execute(fresh.on_conflict_do_nothing(index_elements=["player_id", "game"]))
        known = {row.player_id: (row.mu, row.sigma, row.games) for row in conn.execute(
            select(ratings).where(ratings.c.game == game, ratings.c.player_id.in_(players))
            .order_by(ratings.c.player_id).with_for_update())}
        teams: list[list[Any]] = []
        for player in players:
            mu, sigma, _games = known.get(player, (model.mu, model.sigma, 0))
            teams.append([model.rating(mu=mu, sigma=sigma)])
        order = rated_ranks([rated[player] for player in players])
        new = model.rate(teams, ranks=[float(rank) for rank in order])
        for player, team in zip(players, new, strict=True):
            mu, sigma = team[0].mu, team[0].sigma
            games = known.get(player, (0.0, 0.0, 0))[2] + 1
            if player in known:
                conn.execute(update(ratings)
                             .where(ratings.c.player_id == player, ratings.c.game == game)
                             .values(mu=mu, sigma=sigma, games=games))
            else:
                conn.execute(insert(ratings).values(player_id=player, game=game, mu=mu,
                                                    sigma=sigma, games=games))
            conn.execute(insert(schema.rating_history).values(
                player_id=player, game=game, table_id=table_id, at=at, mu=mu, sigma=sigma))
    return True


def _mark_rated(conn: Connection, table_id: str) -> bool:
    """Mark the table's game rated, in the rating's transaction; False when it was already
    (another server rated it). A table id with no table (ratings of a game kept elsewhere)
    is rated as asked."""
    tables = schema.tables
    done = conn.execute(update(tables).where(tables.c.id == table_id,
                                             tables.c.rated.is_(False))
                        .values(rated=True))
    if done.rowcount:
        return True
    return conn.execute(select(tables.c.id).where(tables.c.id == table_id)).first() is None


def leaderboard(store: Store, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The game's rated accounts, best first (ties by name)."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(schema.players.c.name, schema.ratings.c.mu, schema.ratings.c.sigma,
                   schema.ratings.c.games)
            .join(schema.players, schema.players.c.id == schema.ratings.c.player_id)
            .where(schema.ratings.c.game == game, schema.players.c.password_hash.is_not(None))
        ).all()
    board = [{"name": row.name, "rating": shown_rating(row.mu, row.sigma),
              "mu": round(row.mu, 3), "sigma": round(row.sigma, 3), "games": row.games}
             for row in rows]
    board.sort(key=lambda entry: (-entry["rating"], entry["name"]))
    return board[:limit]
