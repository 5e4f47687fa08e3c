"""Cross-checks with the known values of Kuhn poker, computed through the engine.

The expected chips of ``P1`` are found by exact enumeration (``fractions.Fraction``): every
deal, then every action with the probability the players' strategies give it, each step taken
by ``state.apply`` and each strategy asked from the seat's observation. No formula of the game
enters: the rules under test are the engine's.

The simulation of uniformly random play runs a small number of games by default; set
``CARDTABLE_KUHN_FULL=1`` (or cardtable's own ``CARDTABLE_FULL=1``, which asks every test for
its full counts) for the full 100,000 (as ``CARDTABLE_FUZZ_EXAMPLES`` runs a longer fuzzing
campaign). The games are seeded 0, 1, 2, ..., so a run is the same every time.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from fractions import Fraction

import pytest
from cardtable.agents.registry import make_seat
from cardtable.engine.match import play_match
from cardtable.engine.randomness import derived_random

from kuhn_poker.bots import THIRD, Equilibrium, bet_probability
from kuhn_poker.game import KuhnGame
from kuhn_poker.rules import CARDS, Action
from kuhn_poker.state import KuhnState, Observation

GAME = KuhnGame.load()
FULL = any(os.environ.get(name, "").strip() not in ("", "0")
           for name in ("CARDTABLE_KUHN_FULL", "CARDTABLE_FULL"))
SIMULATED_GAMES = 100_000 if FULL else 4_000
Z_999 = 3.2905267314918945
"""The two-sided 99.9 % quantile of the normal distribution."""

Strategy = Callable[[Observation], Fraction]
"""The probability that the seat to move bets, from its observation."""


def moments(strategies: tuple[Strategy, Strategy]) -> tuple[Fraction, Fraction]:
    """The exact mean and mean square of ``P1``'s chips when each seat plays its strategy."""
    mean = square = Fraction(0)
    deals = [(a, b) for a in range(len(CARDS)) for b in range(len(CARDS)) if a != b]

    def walk(state: KuhnState, chance: Fraction) -> None:
        nonlocal mean, square
        result = state.result
        if result is not None:
            chips = result.details["chips"][0]
            mean += chance * chips
            square += chance * chips * chips
            return
        seat = state.to_move
        assert seat is not None
        bet = strategies[state.seat_number(seat)](state.observation(seat))
        for action, probability in ((Action.BET, bet), (Action.PASS, 1 - bet)):
            if probability:
                child = state.clone()
                child.apply(action)
                walk(child, chance * probability)

    for cards in deals:
        walk(KuhnState(cards), Fraction(1, len(deals)))
    return mean, square


def equilibrium(alpha: Fraction) -> Strategy:
    def strategy(seen: Observation) -> Fraction:
        return bet_probability(seen.number, CARDS.index(seen.card), seen.history, alpha)
    return strategy


def uniform(seen: Observation) -> Fraction:
    return Fraction(1, len(seen.legal_actions()))


@pytest.mark.parametrize("alpha", [Fraction(0), Fraction(1, 18), Fraction(1, 9), Fraction(1, 6),
                                   Fraction(1, 4), THIRD])
def test_the_equilibrium_family_gives_p1_minus_one_eighteenth(alpha: Fraction) -> None:
    mean, _ = moments((equilibrium(alpha), equilibrium(alpha)))
    assert mean == Fraction(-1, 18)


def test_p2_gains_nothing_by_leaving_the_equilibrium_against_it() -> None:
    """Every pure strategy of ``P2`` (a bet-or-pass choice per card and history) wins at most
    what the equilibrium wins against ``P1``'s equilibrium: 1/18."""
    alpha = Fraction(1, 6)
    spots = [(card, history) for card in CARDS for history in ("p", "b")]
    best = None
    for choice in range(2 ** len(spots)):
        bets = {spot: Fraction((choice >> index) & 1) for index, spot in enumerate(spots)}

        def pure(seen: Observation, bets: dict[tuple[str, str], Fraction] = bets) -> Fraction:
            return bets[(seen.card, seen.history)]

        mean, _ = moments((equilibrium(alpha), pure))
        best = -mean if best is None else max(best, -mean)
    assert best == Fraction(1, 18)


def test_uniform_play_is_worth_an_eighth_of_a_chip_to_p1() -> None:
    # By hand: the histories come with chances pp 1/4, pbp 1/8, pbb 1/8, bp 1/4, bb 1/4; the
    # showdowns are even, so P1 keeps bp's +1 and pbp's -1: 1/4 - 1/8. The squares: 1/4 + 1/8
    # + 4/8 + 1/4 + 4/4.
    mean, square = moments((uniform, uniform))
    assert (mean, square) == (Fraction(1, 8), Fraction(17, 8))


def test_simulated_uniform_play_agrees_with_the_exact_value() -> None:
    """Random bots through the match loop: the mean of ``P1``'s chips over the games lies within
    the 99.9 % interval around the exact value."""
    mean, square = moments((uniform, uniform))
    sigma = math.sqrt(float(square - mean * mean))
    total = 0
    for seed in range(SIMULATED_GAMES):
        state = GAME.new_state(seed)
        seats = {seat: make_seat(GAME, "random", seat, seed) for seat in state.seats}
        result = play_match(state, seats)
        total += result.details["chips"][0]
    observed = total / SIMULATED_GAMES
    margin = Z_999 * sigma / math.sqrt(SIMULATED_GAMES)
    assert abs(observed - float(mean)) <= margin, (observed, float(mean), margin)


def test_the_equilibrium_bot_plays_its_pure_choices() -> None:
    def choices(alpha: Fraction, seat: str, card: int, history: str) -> set[Action]:
        bot = Equilibrium(derived_random(1, "bot", seat), alpha)
        cards = (card, (card + 1) % 3) if seat == "P1" else ((card + 1) % 3, card)
        seen = KuhnState(cards, history).observation(seat)
        return {bot.choose(seen) for _ in range(200)}

    assert choices(Fraction(0), "P1", 0, "") == {Action.PASS}
    assert choices(THIRD, "P1", 2, "") == {Action.BET}
    assert choices(THIRD, "P1", 0, "") == {Action.PASS, Action.BET}
    assert choices(Fraction(1, 6), "P1", 1, "") == {Action.PASS}
    assert choices(Fraction(1, 6), "P2", 2, "b") == {Action.BET}
    assert choices(Fraction(1, 6), "P2", 0, "b") == {Action.PASS}
    assert choices(Fraction(1, 6), "P2", 0, "p") == {Action.PASS, Action.BET}


@pytest.mark.parametrize(("spec", "alpha"), [
    ("equilibrium", Fraction(1, 6)), ("equilibrium:alpha=0", Fraction(0)),
    ("equilibrium:alpha=1/3", THIRD), ("equilibrium:alpha=0.25", Fraction(1, 4)),
])
def test_alpha_is_an_option(spec: str, alpha: Fraction) -> None:
    bot = make_seat(GAME, spec, "P1", 3)
    assert isinstance(bot, Equilibrium) and bot.alpha == alpha


@pytest.mark.parametrize(("spec", "message"), [
    ("equilibrium:alpha=0.5", "The bot 'equilibrium' takes alpha from 0 to 1/3 (got '0.5')."),
    ("equilibrium:alpha=x", "The bot 'equilibrium' takes alpha from 0 to 1/3 (got 'x')."),
    ("equilibrium:alpha=1/0", "The bot 'equilibrium' takes alpha from 0 to 1/3 (got '1/0')."),
    ("equilibrium:beta=1", "The bot 'equilibrium' takes no option 'beta' (options: alpha)."),
    ("always-bet:x=1", "The bot 'always-bet' takes no option 'x'."),
])
def test_bad_bot_options_are_refused_in_one_line(spec: str, message: str) -> None:
    from cardtable.engine.description import UnknownBot

    with pytest.raises(UnknownBot) as caught:
        make_seat(GAME, spec, "P1", 3)
    assert str(caught.value) == message
