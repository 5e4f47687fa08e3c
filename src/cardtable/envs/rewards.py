"""Final rewards: a game's result as one number per seat.

Every seat gets ``1 - 2 * place / (players - 1)`` for its 0-based place: first +1, last -1,
evenly spaced between. Seats that tie share the mean of the places they occupy, so two tied
seats of a two-player game get 0 each and the rewards of a game always add up to 0.
"""

from __future__ import annotations

from collections.abc import Sequence


def place_rewards(places: Sequence[float]) -> list[float]:
    """Rewards for 0-based ``places`` (one per seat; tied seats already share a mean place)."""
    players = len(places)
    if players < 2:
        return [0.0] * players
    return [1.0 - 2.0 * place / (players - 1) for place in places]


def shared_places(scores: Sequence[float]) -> list[float]:
    """0-based places for ``scores`` (higher is better); ties share the mean of their places."""
    order = sorted(scores, reverse=True)
    places: list[float] = []
    for score in scores:
        first = order.index(score)
        tied = order.count(score)
        places.append(first + (tied - 1) / 2)
    return places


def winners_rewards(seats: Sequence[str], winners: Sequence[str]) -> list[float]:
    """Winners ahead of everyone else (no winner: a draw, 0 for all)."""
    if not winners:
        return [0.0] * len(seats)
    return place_rewards(shared_places([1.0 if seat in winners else 0.0 for seat in seats]))


def placing_rewards(players: int, placings: Sequence[int]) -> list[float]:
    """Rewards for ``placings``, the 0-based seats in finishing order (all of them)."""
    places = [0.0] * players
    for place, seat in enumerate(placings):
        places[seat] = float(place)
    return place_rewards(places)
