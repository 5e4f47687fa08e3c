"""The tournament's statistics against published values and independent computations."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.tournament.stats import (
    ELO_PER_NAT,
    Z95,
    bradley_terry,
    elo_of_score,
    score_of_elo,
    sprt,
    sprt_bounds,
    sprt_llr,
    wilson_interval,
)

# Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
# methods", Statistics in Medicine 17 (1998), Table I, method 3 (score interval, no
# continuity correction).
NEWCOMBE = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("successes", "trials", "low", "high"), NEWCOMBE)
def test_wilson_interval_matches_newcombe_1998(successes: int, trials: int, low: float,
                                               high: float) -> None:
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_of_no_trials_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_holds_the_observed_rate(successes: int, trials: int) -> None:
    successes = min(successes, trials)
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_elo_of_a_75_percent_score_is_190_85() -> None:
    # The logistic Elo table: 75 % is 190.85 points, 64 % about 100.
    assert elo_of_score(0.75) == pytest.approx(190.8485, abs=1e-4)
    assert score_of_elo(100.0) == pytest.approx(0.6401, abs=1e-4)
    assert score_of_elo(elo_of_score(0.3)) == pytest.approx(0.3)


def test_bradley_terry_two_players_is_the_logistic_elo_with_its_classical_interval() -> None:
    fit = bradley_terry(2, {(0, 1): (75.0, 100.0)})
    assert fit.prior == 0
    assert fit.elo[0] - fit.elo[1] == pytest.approx(elo_of_score(0.75), abs=1e-6)
    assert fit.elo[0] + fit.elo[1] == pytest.approx(0.0, abs=1e-9)
    # Two players: the difference's standard error is that of the log-odds, 1/sqrt(n p q);
    # with ratings summing to 0, each rating carries half of it.
    half_width = Z95 * ELO_PER_NAT / math.sqrt(100 * 0.75 * 0.25) / 2
    low, high = fit.ci95[0]
    assert (high - low) / 2 == pytest.approx(half_width, rel=1e-6)
    assert (low + high) / 2 == pytest.approx(fit.elo[0])


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 60), min_size=3, max_size=3),
       st.lists(st.integers(1, 60), min_size=3, max_size=3))
def test_bradley_terry_reproduces_every_players_score(wins: list[int], losses: list[int]) -> None:
    """The maximum-likelihood condition: each player's expected score equals its score."""
    pairs = [(0, 1), (0, 2), (1, 2)]
    scores = {pair: (float(won), float(won + lost)) for pair, won, lost in zip(pairs, wins, losses,
                                                                            strict=True)}
    fit = bradley_terry(3, scores)
    for player in range(3):
        actual = expected = 0.0
        for (i, j), (score, games) in scores.items():
            if player not in (i, j):
                continue
            other = j if player == i else i
            actual += score if player == i else games - score
            expected += games * score_of_elo(fit.elo[player] - fit.elo[other])
        assert expected == pytest.approx(actual, abs=1e-6)


def test_bradley_terry_stays_finite_when_a_player_wins_everything() -> None:
    fit = bradley_terry(2, {(0, 1): (10.0, 10.0)})
    assert fit.prior > 0
    assert all(math.isfinite(value) for value in fit.elo)
    assert fit.elo[0] > 200


def test_sprt_bounds_for_five_percent_errors() -> None:
    # The bounds every engine-testing tool prints for alpha = beta = 0.05: (-2.94, 2.94).
    low, high = sprt_bounds(0.05, 0.05)
    assert low == pytest.approx(-2.944439, abs=1e-6)
    assert high == pytest.approx(2.944439, abs=1e-6)


def _normal_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """fishtest's normal approximation: N (s1 - s0) (2 s - s0 - s1) / (2 var)."""
    n = wins + draws + losses
    w, d = wins / n, draws / n
    score = w + d / 2
    variance = w + d / 4 - score ** 2
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    return n * (s1 - s0) * (2 * score - s0 - s1) / (2 * variance)


def test_sprt_llr_by_hand() -> None:
    # W 100, D 50, L 70: score 0.52273, per-game variance 0.23812; s0 = 0.5,
    # s1 = L(10) = 0.514387: the normal approximation gives 1.0239, the exact ratio 1.0002.
    assert _normal_llr(100, 50, 70, 0, 10) == pytest.approx(1.0239, abs=1e-3)
    assert sprt_llr(100, 50, 70, 0, 10) == pytest.approx(1.0002, abs=1e-3)


def test_a_one_sided_run_counts_as_wald_s_test_of_a_coin() -> None:
    # Every game won: each win multiplies the likelihood ratio by s1 / s0, so against elo 0
    # and 100 (s1 = 0.640) the test needs 12 straight wins, never one or two.
    s1 = score_of_elo(100)
    for wins in (1, 5, 12):
        assert sprt_llr(wins, 0, 0, 0, 100) == pytest.approx(wins * math.log(s1 / 0.5))
        assert sprt_llr(0, 0, wins, 0, 100) == pytest.approx(wins * math.log((1 - s1) / 0.5))
    assert sprt(11, 0, 0, 0, 100).verdict is None
    assert sprt(12, 0, 0, 0, 100).verdict == "H1"
    assert sprt(0, 3, 0, 0, 100).llr < 0  # draws only: a score of 0.5 is H0's


def _exact_llr(counts: tuple[int, int, int], elo0: float, elo1: float) -> float:
    """The generalised likelihood ratio of the trinomial itself: the maximum likelihood
    under "expected score = s" (solved by bisection on the Lagrange multiplier)."""
    values = (1.0, 0.5, 0.0)
    total = sum(counts)
    observed = [count / total for count in counts]

    def constrained(s: float) -> list[float]:
        low = -1 / max(value - s for value in values) + 1e-12
        high = -1 / min(value - s for value in values) - 1e-12
        for _ in range(200):
            middle = (low + high) / 2
            gap = sum(p * (v - s) / (1 + middle * (v - s)) for p, v in zip(observed, values,
                                                                           strict=True))
            if gap > 0:
                low = middle
            else:
                high = middle
        return [p / (1 + low * (v - s)) for p, v in zip(observed, values, strict=True)]

    p0, p1 = constrained(score_of_elo(elo0)), constrained(score_of_elo(elo1))
    return sum(count * math.log(b / a) for count, a, b in zip(counts, p0, p1, strict=True))


@pytest.mark.parametrize("counts", [(100, 50, 70), (300, 10, 250), (40, 200, 35), (95, 2, 90)])
def test_sprt_llr_is_the_exact_trinomial_glr(counts: tuple[int, int, int]) -> None:
    """The ratio is the trinomial's own (solved here independently), and near the hypotheses,
    where the test decides, fishtest's normal approximation is within 3 % of it."""
    exact = _exact_llr(counts, 0, 10)
    assert sprt_llr(*counts, 0, 10) == pytest.approx(exact, rel=1e-6, abs=1e-9)
    assert _normal_llr(*counts, 0, 10) == pytest.approx(exact, rel=0.03, abs=0.01)


def test_sprt_decides_both_ways() -> None:
    assert sprt(300, 0, 100, 0, 50).verdict == "H1"
    assert sprt(100, 0, 300, 0, 50).verdict == "H0"
    assert sprt(10, 0, 10, 0, 50).verdict is None
    assert sprt(0, 0, 0, 0, 50).llr == 0.0
