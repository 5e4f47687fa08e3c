"""Austerity's observation as a fixed-length ``uint8`` vector, built from
``state.observation(seat)`` alone (the whole table: Austerity hides only the deck's order).
docs/rl.md has the layout; :func:`feature_names` names every entry.

Seats are relative to the observer (``seat0`` observes, ``seat1`` plays next, ...); colours are
in the protocol's order P B Y R. Numbers above 255 are shown as 255.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cardtable.games.austerity.rules import COLOURS, MARKET_LIMIT

if TYPE_CHECKING:
    from cardtable.games.austerity.game import AusterityGame
    from cardtable.games.austerity.state import Observation

CAP = 255
CARD_FIELDS = ("present", *(f"colour_{c}" for c in COLOURS), "points",
               *(f"cost_{c}" for c in COLOURS))


class AusterityEncoder:
    """Encodes observations of games with one number of players."""

    def __init__(self, game: AusterityGame) -> None:
        self.players = len(game.seats)
        self.names = feature_names(self.players)
        self.size = len(self.names)
        self.low = np.zeros(self.size, dtype=np.uint8)
        self.high = np.array([self._high(name) for name in self.names], dtype=np.uint8)

    def _high(self, name: str) -> int:
        field = name.rsplit(".", 1)[-1]
        if field in ("my_turn", "present") or field.startswith("colour_"):
            return 1
        if field == "to_move":
            return self.players
        return CAP

    def encode(self, obs: Observation) -> np.ndarray:
        players = self.players
        me = obs.seat
        to_move = obs.to_move
        out = [1 if to_move == me else 0,
               players if to_move is None else (to_move - me) % players,
               min(obs.target, CAP)]
        out += [min(pile, CAP) for pile in obs.piles]
        for offset in range(players):
            seat = (me + offset) % players
            out += [min(value, CAP) for value in obs.tokens[seat]]
            out.append(min(obs.wilds[seat], CAP))
            out += [min(value, CAP) for value in obs.discounts[seat]]
            out.append(min(obs.points[seat], CAP))
        for card in obs.market:
            colours = [0, 0, 0, 0]
            colours[card.colour] = 1
            out += [1, *colours, min(card.value, CAP), *(min(c, CAP) for c in card.cost)]
        out += [0] * (len(CARD_FIELDS) * (MARKET_LIMIT - len(obs.market)))
        return np.frombuffer(bytearray(out), dtype=np.uint8)

    def legal_mask(self, obs: Observation) -> None:
        """The state's own mask is used (``state.legal_mask()``)."""
        return None


def feature_names(players: int) -> list[str]:
    """The name of every entry of the vector, in order."""
    names = ["my_turn", "to_move", "target", *(f"pile.{colour}" for colour in COLOURS)]
    for offset in range(players):
        names += [f"seat{offset}.tokens.{colour}" for colour in COLOURS]
        names += [f"seat{offset}.wilds"]
        names += [f"seat{offset}.discount.{colour}" for colour in COLOURS]
        names += [f"seat{offset}.points"]
    for position in range(MARKET_LIMIT):
        names += [f"market{position}.{field}" for field in CARD_FIELDS]
    return names
