"""Ratings per game (openskill's Plackett-Luce model, 2 to 10 players), updated when a game
between named players ends. Bots and seats without a name take no part; the named players are
ranked among themselves by the game's places (``description.places``, the one ranking of
tournaments and RL rewards too: Obsession's placings, Austerity's points, the others'
winners first)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.engine.description import ranks_of
from cardtable.engine.game_registry import description
from cardtable.engine.protocol import Result
from cardtable.web.store import SeatRow, Store


def ranks(game: str, seats: Sequence[SeatRow], result: Result) -> list[int]:
    """A rank per seat (lower is better; equal ranks are ties): the game's places."""
    return description(game).places(result, [seat.seat for seat in seats])


def rated_ranks(places: Sequence[int]) -> list[int]:
    """The places of the rated players as ranks among themselves (``[1, 3]`` → ``[0, 1]``),
    ties kept."""
    return ranks_of([-float(place) for place in places])


def update_ratings(store: Store, game: str, seats: Sequence[SeatRow], result: Result) -> bool:
    """Rate the game if at least two distinct named players took part; True when rated."""
    from openskill.models import PlackettLuce

    seat_ranks = ranks(game, seats, result)
    rated: dict[str, int] = {}
    for seat, rank in zip(seats, seat_ranks, strict=True):
        if seat.kind == "human" and seat.player_id is not None and seat.player_id not in rated:
            rated[seat.player_id] = rank
    if not 2 <= len(rated) <= 10 or result.reason == "quit":
        return False
    model = PlackettLuce()
    known = store.ratings(game, list(rated))
    players = list(rated)
    teams: list[list[Any]] = []
    for player in players:
        mu, sigma, _games = known.get(player, (model.mu, model.sigma, 0))
        teams.append([model.rating(mu=mu, sigma=sigma)])
    order = rated_ranks([rated[player] for player in players])
    new = model.rate(teams, ranks=[float(rank) for rank in order])
    store.save_ratings(game, {
        player: (team[0].mu, team[0].sigma, known.get(player, (0.0, 0.0, 0))[2] + 1)
        for player, team in zip(players, new, strict=True)
    })
    return True
