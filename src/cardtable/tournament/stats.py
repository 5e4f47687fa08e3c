"""The statistics of a tournament, in plain Python: Wilson intervals, a Bradley–Terry Elo fit
with confidence intervals, and the GSPRT of chess engine testing.

Every function is pure: counts in, numbers out. See docs/tournaments.md for the formulas.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The 97.5 % quantile of the standard normal law: a two-sided 95 % interval."""

ELO_PER_NAT = 400.0 / math.log(10.0)
"""Elo points per unit of log-odds (natural logarithm)."""


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``(0.0, 1.0)`` for no trials).

    ``successes`` may be fractional (a draw counted as half a win).
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # The interval always holds p; min/max only undo rounding at p = 0 or 1.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def elo_of_score(score: float) -> float:
    """The Elo difference that gives an expected score ``score`` (0 < score < 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_of_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (the logistic curve)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


# --- Bradley–Terry ---------------------------------------------------------------------------

@dataclass(frozen=True)
class EloFit:
    """Elo of each player (mean 0) and the 95 % interval of each, from a Bradley–Terry fit.

    ``prior`` is the number of virtual draws added to every pairing that was played (0 unless
    some player won or lost every game, where the fit would have no finite answer).
    """

    elo: tuple[float, ...]
    ci95: tuple[tuple[float, float], ...]
    prior: float


def bradley_terry(
    count: int, scores: Mapping[tuple[int, int], tuple[float, float]], z: float = Z95
) -> EloFit:
    """Fit ``count`` players to pairwise results ``{(i, j): (score_i, games)}`` (a draw is half a
    point; each pair once, ``i < j``) by maximum likelihood (Hunter's MM iteration), with
    intervals from the inverse Fisher information under the constraint that ratings sum to 0.
    """
    prior = 0.0
    if _degenerate(count, scores):
        prior = 1.0
    wins = [0.0] * count  # points of each player, virtual draws included
    games: dict[tuple[int, int], float] = {}
    for (i, j), (score_i, played) in scores.items():
        if played <= 0:
            continue
        total = played + prior
        games[(i, j)] = total
        wins[i] += score_i + prior / 2
        wins[j] += played - score_i + prior / 2
    strength = [1.0] * count
    for _ in range(10_000):
        new = []
        for player in range(count):
            denominator = 0.0
            for (i, j), total in games.items():
                if player in (i, j):
                    denominator += total / (strength[i] + strength[j])
            new.append(wins[player] / denominator if denominator > 0 else 1.0)
        mean_log = sum(math.log(value) for value in new) / count
        new = [value / math.exp(mean_log) for value in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-12:
            break
    log_strength = [math.log(value) for value in strength]
    # Fisher information of the log-strengths: a weighted graph Laplacian.
    information = [[0.0] * count for _ in range(count)]
    for (i, j), total in games.items():
        p = strength[i] / (strength[i] + strength[j])
        weight = total * p * (1 - p)
        information[i][i] += weight
        information[j][j] += weight
        information[i][j] -= weight
        information[j][i] -= weight
    covariance = _laplacian_pseudo_inverse(information)
    elo = tuple(ELO_PER_NAT * value for value in log_strength)
    ci95 = []
    for player in range(count):
        spread = z * ELO_PER_NAT * math.sqrt(max(0.0, covariance[player][player]))
        ci95.append((elo[player] - spread, elo[player] + spread))
    return EloFit(elo, tuple(ci95), prior)


def _degenerate(count: int, scores: Mapping[tuple[int, int], tuple[float, float]]) -> bool:
    """True when some player scored all or none of its points: the MLE is at infinity."""
    points = [0.0] * count
    played = [0.0] * count
    for (i, j), (score_i, games) in scores.items():
        points[i] += score_i
        points[j] += games - score_i
        played[i] += games
        played[j] += games
    return any(games > 0 and (point <= 0 or point >= games)
               for point, games in zip(points, played, strict=True))


def _laplacian_pseudo_inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """The Moore–Penrose inverse of a connected graph's Laplacian: ``(L + J/n)⁻¹ − J/n``."""
    size = len(matrix)
    shifted = [[matrix[i][j] + 1.0 / size for j in range(size)] for i in range(size)]
    inverse = _invert(shifted)
    return [[inverse[i][j] - 1.0 / size for j in range(size)] for i in range(size)]


def _invert(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """Gauss–Jordan inversion with partial pivoting (small matrices: one row per player)."""
    size = len(matrix)
    rows = [list(row) + [1.0 if i == j else 0.0 for j in range(size)]
            for i, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        if abs(rows[pivot][column]) < 1e-300:
            raise ValueError("singular matrix (players not connected by games)")
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for row in range(size):
            if row != column and rows[row][column] != 0.0:
                factor = rows[row][column]
                rows[row] = [a - factor * b for a, b in zip(rows[row], rows[column], strict=True)]
    return [row[size:] for row in rows]


# --- SPRT -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Sprt:
    """The state of a sequential test of ``elo1`` against ``elo0`` after some games."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    llr: float
    lower: float
    upper: float

    @property
    def verdict(self) -> str | None:
        """``"H1"`` (the first seat is at least ``elo1`` stronger), ``"H0"`` (at most ``elo0``),
        or None while the test goes on."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio: ``(ln(β/(1−α)), ln((1−β)/α))``."""
    return (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


OUTCOME_SCORES = (1.0, 0.5, 0.0)
"""A win, a draw and a loss, as scores."""


def _most_likely_log_likelihood(counts: tuple[int, int, int], score: float) -> float:
    """The log-likelihood of ``counts`` under the win/draw/loss rates that make them most
    likely among those whose expected score is ``score`` (0 < score < 1).

    Those rates are ``f / (1 + λ (v − score))`` (``f`` the observed frequencies, ``v`` the
    outcome scores), ``λ`` found by bisection where the expected score is ``score``; an outcome
    not seen is given the rest of the probability, which the bisection's bounds allow.
    """
    total = sum(counts)
    seen = [(count, count / total, value)
            for count, value in zip(counts, OUTCOME_SCORES, strict=True) if count]
    low = -1 / max(value - score for value in OUTCOME_SCORES)
    high = -1 / min(value - score for value in OUTCOME_SCORES)
    for _ in range(100):
        middle = (low + high) / 2
        if sum(f * (v - score) / (1 + middle * (v - score)) for _, f, v in seen) > 0:
            low = middle
        else:
            high = middle
    lam = (low + high) / 2
    return sum(count * math.log(f / (1 + lam * (v - score))) for count, f, v in seen)


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The generalised log-likelihood ratio of ``elo1`` against ``elo0`` (logistic Elo) for a
    trinomial result: the likelihood of the results under the most likely win/draw/loss rates
    whose expected score is ``elo1``'s, over the same under ``elo0``'s; 0 before any game.

    Near the hypotheses it equals fishtest's normal approximation
    ``N (s1 − s0) (2 s̄ − s0 − s1) / (2 σ²)``; unlike it, a one-sided run (every game won, say)
    counts as Wald's test of a coin would, ``ln(s1 / s0)`` a win, instead of deciding after a
    game or two on a variance that is nearly 0.
    """
    counts = (wins, draws, losses)
    if sum(counts) == 0:
        return 0.0
    return (_most_likely_log_likelihood(counts, score_of_elo(elo1))
            - _most_likely_log_likelihood(counts, score_of_elo(elo0)))


def sprt(wins: int, draws: int, losses: int, elo0: float, elo1: float,
         alpha: float = 0.05, beta: float = 0.05) -> Sprt:
    """The test's state after ``wins``/``draws``/``losses`` of the first seat."""
    lower, upper = sprt_bounds(alpha, beta)
    return Sprt(elo0, elo1, alpha, beta, sprt_llr(wins, draws, losses, elo0, elo1), lower, upper)
