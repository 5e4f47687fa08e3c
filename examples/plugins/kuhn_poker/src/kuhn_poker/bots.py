"""Kuhn poker's own bots: ``always-bet`` and ``equilibrium`` (cardtable adds ``random``,
``ismcts`` and ``exec:`` for every game).

``equilibrium`` plays the Nash equilibrium family of Kuhn poker (Kuhn 1950; the one OpenSpiel's
Kuhn poker examples use): as ``P1`` it bets a Jack with probability ``alpha``, a King with
``3 * alpha``, never a Queen, and after checking calls a bet with a Queen with ``alpha + 1/3``
(always with a King, never with a Jack); as ``P2`` it bets a King and calls with it, bluffs a
Jack after a check with 1/3, checks a Queen and calls a bet with it with 1/3. ``alpha`` is an
option in [0, 1/3] (default 1/6: ``equilibrium:alpha=0.1``, ``alpha=1/9``); every ``alpha``
gives ``P1`` the game's value, -1/18 chip a game, whatever ``P2`` plays against it.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from cardtable.engine.description import Bot, BotSpec, UnknownBot, no_options
from cardtable.engine.errors import IllegalAction
from cardtable.engine.one_line import one_line, shortened
from cardtable.engine.randomness import derived_random

from kuhn_poker.rules import CARDS, Action
from kuhn_poker.state import Observation

THIRD = Fraction(1, 3)
DEFAULT_ALPHA = Fraction(1, 6)
JACK, QUEEN, KING = range(len(CARDS))


def bet_probability(player: int, card: int, history: str, alpha: Fraction) -> Fraction:
    """How likely the equilibrium bets (or calls) as ``player`` (0 or 1) holding ``card`` after
    ``history``; ``alpha`` is ``P1``'s parameter, in [0, 1/3]."""
    if player == 0:
        if history == "":
            return {JACK: alpha, QUEEN: Fraction(0), KING: 3 * alpha}[card]
        return {JACK: Fraction(0), QUEEN: alpha + THIRD, KING: Fraction(1)}[card]  # after "pb"
    if history == "p":
        return {JACK: THIRD, QUEEN: Fraction(0), KING: Fraction(1)}[card]
    return {JACK: Fraction(0), QUEEN: THIRD, KING: Fraction(1)}[card]  # after "b"


class _Bot:
    """A bot proposes only legal actions: a refusal is a bug to surface."""

    name = ""

    def rejected(self, error: IllegalAction) -> None:
        raise RuntimeError(f"bot {self.name} proposed an illegal action: {error}")


class AlwaysBet(_Bot):
    """Bets, and calls every bet."""

    name = "always-bet"

    def choose(self, observation: Observation) -> Action:
        return Action.BET


class Equilibrium(_Bot):
    """The equilibrium family (module docstring), drawing from its own seeded generator."""

    name = "equilibrium"

    def __init__(self, rng: random.Random, alpha: Fraction = DEFAULT_ALPHA) -> None:
        self.rng = rng
        self.alpha = alpha

    def choose(self, observation: Observation) -> Action:
        chance = bet_probability(observation.number, CARDS.index(observation.card),
                                 observation.history, self.alpha)
        return Action.BET if self.rng.random() < chance else Action.PASS


def parse_alpha(spec: BotSpec) -> Fraction:
    """The ``alpha`` option of ``equilibrium`` (a decimal or a fraction, 0 to 1/3), or
    :class:`UnknownBot` with one line."""
    for key in spec.options:
        if key != "alpha":
            raise UnknownBot(f"The bot '{spec.name}' takes no option '{key}' (options: alpha).")
    text = spec.options.get("alpha")
    if text is None:
        return DEFAULT_ALPHA
    try:
        alpha = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        alpha = Fraction(-1)
    if not 0 <= alpha <= THIRD:
        shown = shortened(one_line(text), 20)
        raise UnknownBot(f"The bot '{spec.name}' takes alpha from 0 to 1/3 (got '{shown}').")
    return alpha


def _always_bet(game: Any, spec: BotSpec, seat: str, seed: int | str) -> AlwaysBet:
    no_options(spec)
    return AlwaysBet()


def _equilibrium(game: Any, spec: BotSpec, seat: str, seed: int | str) -> Equilibrium:
    return Equilibrium(derived_random(seed, "bot", seat), parse_alpha(spec))


def described_bots() -> list[Bot]:
    return [Bot("always-bet", _always_bet, "bets and calls every time", instant=True),
            Bot("equilibrium", _equilibrium, "a Nash equilibrium (option alpha, 0 to 1/3, "
                "P1's bluffing rate)", instant=True)]
