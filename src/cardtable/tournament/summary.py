"""The summary of a tournament: counts, win rates with Wilson intervals, ratings, the SPRT.

Games are taken in schedule order, so the summary (openskill ratings included, which depend on
the order of games) is the same however many processes or machines played them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.tournament.schedule import Config
from cardtable.tournament.stats import Z95, bradley_terry, sprt, wilson_interval


@dataclass(frozen=True)
class SprtSetting:
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05


def outcome(line: dict[str, Any], chair: int) -> str:
    """``"win"`` (sole first place), ``"draw"`` (first place shared, or no winner) or
    ``"loss"`` for the entrant in ``chair`` of a results line."""
    ranks = line["result"]["ranks"]
    if ranks[chair] != 0:
        return "loss"
    return "win" if ranks.count(0) == 1 else "draw"


def _rate(wins: int, draws: int, games: int) -> float:
    return (wins + draws / 2) / games if games else 0.0


def sprt_counts(config: Config, lines: Sequence[dict[str, Any]]) -> tuple[int, int, int]:
    """Wins, draws and losses of the first ``--seat`` against the second."""
    first = config.entrants[0].label
    counts = {"win": 0, "draw": 0, "loss": 0}
    for line in lines:
        counts[outcome(line, line["seats"].index(first))] += 1
    return counts["win"], counts["draw"], counts["loss"]


def summarise(config: Config, lines: Sequence[dict[str, Any]],
              sprt_setting: SprtSetting | None = None, planned: int | None = None,
              stopped: str | None = None) -> dict[str, Any]:
    """The summary as the JSON object ``--json`` prints. ``lines`` in schedule order."""
    labels = [entrant.label for entrant in config.entrants]
    index = {label: number for number, label in enumerate(labels)}
    stats = {label: {"games": 0, "wins": 0, "draws": 0, "losses": 0, "first_games": 0,
                     "first_wins": 0, "first_draws": 0, "places": 0, "top": 0, "last": 0}
             for label in labels}
    pair_scores: dict[tuple[int, int], list[float]] = {}
    first_chair = [0, 0, 0]
    moves = 0
    seconds = 0.0
    for line in lines:
        seats = line["seats"]
        ranks = line["result"]["ranks"]
        moves += line["moves"]
        seconds += line.get("time", 0.0)
        worst = max(ranks)
        for chair, label in enumerate(seats):
            result = outcome(line, chair)
            entry = stats[label]
            entry["games"] += 1
            entry[{"win": "wins", "draw": "draws", "loss": "losses"}[result]] += 1
            entry["places"] += ranks[chair]
            entry["top"] += ranks[chair] == 0
            if worst > 0 and ranks[chair] == worst:
                entry["last"] += 1
            if chair == 0:
                entry["first_games"] += 1
                entry["first_wins"] += result == "win"
                entry["first_draws"] += result == "draw"
                first_chair[("win", "draw", "loss").index(result)] += 1
        if config.players == 2:
            a, b = index[seats[0]], index[seats[1]]
            points = {"win": 1.0, "draw": 0.5, "loss": 0.0}[outcome(line, 0)]
            if a > b:
                a, b, points = b, a, 1.0 - points
            pair = pair_scores.setdefault((a, b), [0.0, 0.0])
            pair[0] += points
            pair[1] += 1
    players: list[dict[str, Any]] = []
    for label in labels:
        entry = stats[label]
        games = entry["games"]
        win_rate = _rate(entry["wins"], entry["draws"], games)
        low, high = wilson_interval(entry["wins"] + entry["draws"] / 2, games)
        first_rate = _rate(entry["first_wins"], entry["first_draws"], entry["first_games"])
        player: dict[str, Any] = {
            "name": label,
            "spec": config.spec_of(label),
            "games": games,
            "wins": entry["wins"],
            "draws": entry["draws"],
            "losses": entry["losses"],
            "win_rate": round(win_rate, 6),
            "ci95": [round(low, 6), round(high, 6)],
            "first_seat_games": entry["first_games"],
            "first_seat_win_rate": round(first_rate, 6),
            "elo": None,
            "elo_ci95": None,
        }
        if config.players > 2:
            player["mean_place"] = round(1 + entry["places"] / games, 6) if games else None
            player.update(_place_rates("first", entry["top"], games))
            player.update(_place_rates("last", entry["last"], games))
        players.append(player)
    summary: dict[str, Any] = {
        "game": config.game,
        "players_per_game": config.players,
        "games": len(lines),
        "planned": planned if planned is not None else len(lines),
        "seed": config.seed,
        "first_seat": {"wins": first_chair[0], "draws": first_chair[1],
                       "losses": first_chair[2],
                       "win_rate": round(_rate(first_chair[0], first_chair[1], len(lines)), 6)},
        "moves_per_game": round(moves / len(lines), 3) if lines else 0.0,
        "seconds_per_game": round(seconds / len(lines), 6) if lines else 0.0,
        "players": players,
    }
    if stopped is not None:
        summary["stopped"] = stopped
    if config.players == 2:
        _add_elo(players, pair_scores)
        summary["pairings"] = _pairings(labels, pair_scores)
    elif lines:
        summary["rating"] = "openskill"
        _add_openskill(players, labels, lines)
    if sprt_setting is not None:
        wins, draws, losses = sprt_counts(config, lines)
        test = sprt(wins, draws, losses, sprt_setting.elo0, sprt_setting.elo1,
                    sprt_setting.alpha, sprt_setting.beta)
        summary["sprt"] = {
            "elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta,
            "llr": round(test.llr, 6), "bounds": [round(test.lower, 6), round(test.upper, 6)],
            "verdict": test.verdict, "wins": wins, "draws": draws, "losses": losses,
        }
    return summary


def _place_rates(place: str, count: int, games: int) -> dict[str, Any]:
    """``{place}_places`` (a count), ``{place}_place_rate`` and ``{place}_place_ci95`` (its
    95 % Wilson interval)."""
    low, high = wilson_interval(count, games)
    return {f"{place}_places": count,
            f"{place}_place_rate": round(count / games, 6) if games else 0.0,
            f"{place}_place_ci95": [round(low, 6), round(high, 6)]}


def _add_elo(players: list[dict[str, Any]],
             pair_scores: dict[tuple[int, int], list[float]]) -> None:
    played = {pair: (score, games) for pair, (score, games) in pair_scores.items() if games}
    connected = {player for pair in played for player in pair}
    if len(connected) < len(players):  # someone has not played yet
        return
    fit = bradley_terry(len(players), played, Z95)
    for player, elo, (low, high) in zip(players, fit.elo, fit.ci95, strict=True):
        player["elo"] = round(elo, 2)
        player["elo_ci95"] = [round(low, 2), round(high, 2)]


def _pairings(labels: list[str],
              pair_scores: dict[tuple[int, int], list[float]]) -> list[dict[str, Any]]:
    rows = []
    for (a, b), (score, games) in sorted(pair_scores.items()):
        low, high = wilson_interval(score, games)
        rows.append({"a": labels[a], "b": labels[b], "games": int(games),
                     "a_score": round(score / games, 6),
                     "ci95": [round(low, 6), round(high, 6)]})
    return rows


def _add_openskill(players: list[dict[str, Any]], labels: list[str],
                   lines: Sequence[dict[str, Any]]) -> None:
    """Plackett–Luce ratings (openskill), updated game by game in schedule order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    for line in lines:
        teams = [[ratings[label]] for label in line["seats"]]
        rated = model.rate(teams, ranks=[float(rank) for rank in line["result"]["ranks"]])
        for label, (rating,) in zip(line["seats"], rated, strict=True):
            ratings[label] = rating
    for player in players:
        rating = ratings[player["name"]]
        player["openskill"] = {"mu": round(rating.mu, 4), "sigma": round(rating.sigma, 4),
                               "ordinal": round(rating.ordinal(), 4)}
