"""What a person's page shows: their finished games (newest first, a page at a time, each with
its replay), their rating in each game and the history of those ratings.

Games at private tables are not listed, and the rating history does not name their tables (a
private table is seen by its link only). Only accounts have ratings; a guest's page lists
their games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select

from cardtable.engine import game_registry
from cardtable.engine.errors import GameParamsError
from cardtable.engine.protocol import Result
from cardtable.web import schema
from cardtable.web.ratings import shown_rating
from cardtable.web.store import Store

GAMES_PER_PAGE = 20
HISTORY_SHOWN = 500
"""The most recent changes of rating a page shows (per person, all games)."""

Json = dict[str, Any]


def title_of(game: str) -> str:
    try:
        return game_registry.description(game).title
    except GameParamsError:  # a game no longer installed: its name
        return game


def place_of(game: str, result: Json | None, seats: Sequence[str], seat: str) -> int | None:
    """The 1-based place of ``seat`` by the game's places, None when it cannot be told."""
    if not result or seat not in seats:
        return None
    try:
        places = game_registry.description(game).places(
            Result(tuple(result.get("winners") or ()), str(result.get("reason", "")),
                   dict(result.get("details") or {})), list(seats))
    except (GameParamsError, LookupError, TypeError, ValueError):
        return None
    return places[list(seats).index(seat)] + 1


def person(store: Store, name: str, page: int = 1) -> Json | None:
    """The page of the player named ``name`` (any case), or None when there is none."""
    with store.engine.connect() as conn:
        row = conn.execute(select(schema.players)
                           .where(func.lower(schema.players.c.name) == name.lower())).first()
        if row is None:
            return None
        player_id = row.id
        ratings = conn.execute(select(schema.ratings)
                               .where(schema.ratings.c.player_id == player_id)).all()
        history = conn.execute(select(schema.rating_history, schema.tables.c.private)
                               .join(schema.tables,
                                     schema.tables.c.id == schema.rating_history.c.table_id)
                               .where(schema.rating_history.c.player_id == player_id)
                               .order_by(schema.rating_history.c.at.desc(),
                                         schema.rating_history.c.id.desc())
                               .limit(HISTORY_SHOWN)).all()
    games, more = finished_games(store, player_id, page)
    return {
        "name": row.name,
        "account": row.password_hash is not None,
        "since": row.created,
        "ratings": sorted(({"game": rating.game, "title": title_of(rating.game),
                            "rating": shown_rating(rating.mu, rating.sigma),
                            "mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3),
                            "games": rating.games} for rating in ratings),
                          key=lambda entry: entry["game"]),
        # A private table's game counts, but its table is not named.
        "history": [{"game": entry.game, "at": entry.at,
                     "table": None if entry.private else entry.table_id,
                     "rating": shown_rating(entry.mu, entry.sigma),
                     "mu": round(entry.mu, 3), "sigma": round(entry.sigma, 3)}
                    for entry in reversed(history)],
        "games": games,
        "page": page,
        "more": more,
    }


def finished_games(store: Store, player_id: str, page: int) -> tuple[list[Json], bool]:
    """One page of the player's finished public games, newest first, and whether more
    follow."""
    import json

    tables, seats = schema.tables, schema.seats
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(tables.c.id, tables.c.game, tables.c.finished, tables.c.result, seats.c.seat)
            .join(seats, seats.c.table_id == tables.c.id)
            .where(seats.c.player_id == player_id, tables.c.status == "finished",
                   tables.c.private.is_(False))
            .order_by(tables.c.finished.desc(), tables.c.id)
            .limit(GAMES_PER_PAGE + 1).offset((page - 1) * GAMES_PER_PAGE)).all()
        more = len(rows) > GAMES_PER_PAGE
        rows = rows[:GAMES_PER_PAGE]
        ids = sorted({row.id for row in rows})
        everyone = conn.execute(select(seats.c.table_id, seats.c.seat, seats.c.name,
                                       seats.c.kind)
                                .where(seats.c.table_id.in_(ids))
                                .order_by(seats.c.table_id, seats.c.position)).all() if ids \
            else []
    at_table: dict[str, list[Any]] = {}
    for seat in everyone:
        at_table.setdefault(seat.table_id, []).append(seat)
    games: list[Json] = []
    seen: set[str] = set()
    for row in rows:
        if row.id in seen:  # (one person in two seats of a table: listed once)
            continue
        seen.add(row.id)
        result = json.loads(row.result) if row.result else None
        table_seats = at_table.get(row.id, [])
        names = [seat.seat for seat in table_seats]
        games.append({
            "table": row.id, "game": row.game, "title": title_of(row.game),
            "finished": row.finished, "seat": row.seat,
            "place": place_of(row.game, result, names, row.seat), "of": len(names),
            "reason": None if result is None else result.get("reason"),
            "others": [{"seat": seat.seat,
                        "name": seat.name if seat.kind == "human" else seat.kind}
                       for seat in table_seats if seat.seat != row.seat],
            "replay": f"/replay/{row.id}",
        })
    return games, more
