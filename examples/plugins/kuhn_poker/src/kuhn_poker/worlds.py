"""Sampled worlds: a state that agrees with one seat's observation, the unseen card dealt.

A seat sees its own card and the history; the other card is one of the two left, each as
likely as the other (no action of Kuhn poker rules a card out before the showdown, where it is
shown and kept).
"""

from __future__ import annotations

from cardtable.engine.randomness import GameRandom

from kuhn_poker.rules import CARDS
from kuhn_poker.state import KuhnState, Observation


def world_of(observation: Observation, seed: int | str) -> KuhnState:
    """A state whose ``observation(observation.seat)`` equals ``observation``."""
    number = observation.number
    own = CARDS.index(observation.card)
    if observation.other_card is not None:
        other = CARDS.index(observation.other_card)
    else:
        other = GameRandom(seed).choice([card for card in range(len(CARDS)) if card != own])
    cards = (own, other) if number == 0 else (other, own)
    return KuhnState(cards, observation.history)
