"""Ratings per game (openskill's Plackett-Luce model, 2 to 10 players), updated when a game
between named players ends. Bots and seats without a name take no part; the named players are
ranked among themselves by the result (Obsession by its placings, the others winners first)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.engine.protocol import Result
from cardtable.web.store import SeatRow, Store


def ranks(seats: Sequence[SeatRow], result: Result) -> list[int]:
    """A rank per seat (lower is better; equal ranks are ties)."""
    names = [seat.seat for seat in seats]
    placings = result.details.get("placings")
    if isinstance(placings, list) and placings:
        # Obsession: 1-based seat numbers in the order the seats went out; the rest tie last.
        order = {names[number - 1]: place for place, number in enumerate(placings)
                 if isinstance(number, int) and 1 <= number <= len(names)}
        return [order.get(name, len(names)) for name in names]
    winners = set(result.winners)
    return [0 if name in winners else 1 for name in names]


def update_ratings(store: Store, game: str, seats: Sequence[SeatRow], result: Result) -> bool:
    """Rate the game if at least two distinct named players took part; True when rated."""
    from openskill.models import PlackettLuce

    seat_ranks = ranks(seats, result)
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
    new = model.rate(teams, ranks=[rated[player] for player in players])
    store.save_ratings(game, {
        player: (team[0].mu, team[0].sigma, known.get(player, (0.0, 0.0, 0))[2] + 1)
        for player, team in zip(players, new, strict=True)
    })
    return True
