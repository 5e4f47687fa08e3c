"""Final rewards: a game's places as one number per seat.

The places are the game's one ranking (``description.places(result, seats)``: 0-based, tied
seats sharing the best place of their group, as in tournaments and ratings). Every seat gets
``1 - 2 * place / (players - 1)``: first +1, last -1, evenly spaced between. A tied group shares
the mean of the places it occupies, so two tied seats of a two-player game get 0 each and the
rewards of a game always add up to 0.
"""

from __future__ import annotations

from collections.abc import Sequence


def shared_places(places: Sequence[int]) -> list[float]:
    """Places where ties share the best place of their group (``[0, 0, 2]``) as the mean of
    the places each group occupies (``[0.5, 0.5, 2.0]``)."""
    return [place + (places.count(place) - 1) / 2 for place in places]


def place_rewards(places: Sequence[int]) -> list[float]:
    """The rewards of 0-based ``places`` (one per seat, ties sharing the best place of their
    group)."""
    players = len(places)
    if players < 2:
        return [0.0] * players
    return [1.0 - 2.0 * place / (players - 1) for place in shared_places(places)]
