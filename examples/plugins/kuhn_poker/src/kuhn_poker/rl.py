"""Kuhn poker's part of cardtable's reinforcement-learning environments
(``cardtable.envs.env("kuhn_poker")``), named by the description's ``rl_environment``.

Only the environments import this module (it needs numpy, cardtable's ``rl`` extra). The
observation vector is OpenSpiel's information state tensor of ``kuhn_poker``, 11 entries of 0 or
1: the observing player (2), its card (J, Q, K), then for each of the three possible actions
whether it was a pass or a bet. The rewards are the chips won (OpenSpiel's returns), not places.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kuhn_poker.rules import CARDS, SEATS
from kuhn_poker.state import KuhnState, Observation

ROUNDS = 3
"""The most actions a game has (``pbb``, ``pbp``)."""


NAMES = (*(f"player_{number}" for number in range(len(SEATS))),
         *(f"card_{card}" for card in CARDS),
         *(f"action_{round_ + 1}_{word}" for round_ in range(ROUNDS) for word in ("pass", "bet")))
"""The entries of the vector, in order."""


class InformationStateEncoder:
    """OpenSpiel's ``information_state_tensor`` of Kuhn poker, from a seat's observation."""

    size = len(NAMES)

    def __init__(self) -> None:
        self.names = list(NAMES)
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.ones(self.size, dtype=np.float32)

    def encode(self, observation: Observation) -> np.ndarray:
        vector = np.zeros(self.size, dtype=np.float32)
        vector[observation.number] = 1
        vector[len(SEATS) + CARDS.index(observation.card)] = 1
        for round_, letter in enumerate(observation.history):
            vector[len(SEATS) + len(CARDS) + 2 * round_ + "pb".index(letter)] = 1
        return vector

    def legal_mask(self, observation: Observation) -> np.ndarray:
        """Both actions while the seat is to act, none otherwise: the seat sees it."""
        legal = observation.legal_actions()
        mask = np.zeros(2, dtype=np.int8)
        mask[[int(action) for action in legal]] = 1
        return mask


class KuhnPokerPart:
    max_steps = None
    """Every game ends within three actions."""

    def encoder(self, game: Any) -> InformationStateEncoder:
        return InformationStateEncoder()

    def rewards(self, game: Any, result: Any) -> list[float]:
        """The chips each seat won or lost; a game without chips (a forfeit): +1 and -1."""
        chips = result.details.get("chips")
        if isinstance(chips, list) and len(chips) == len(SEATS):
            return [float(value) for value in chips]
        return [1.0 if seat in result.winners else -1.0 for seat in SEATS]

    def render(self, state: KuhnState, seat: int) -> str:
        from kuhn_poker.views import observation_json, view_lines

        view = observation_json(state.observation(seat))
        return "\n".join([f"=== {view['seat']}", *view_lines(view)])


PART = KuhnPokerPart()
