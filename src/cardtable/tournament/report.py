"""The summary as text for people, and as a PNG plot of the ratings with their intervals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardtable.engine.one_line import one_line
from cardtable.tournament.errors import TournamentError


def _percent(value: float) -> str:
    return f"{100 * value:5.1f}%"


def text(summary: dict[str, Any]) -> str:
    players = summary["players"]
    two = summary["players_per_game"] == 2
    width = max([len("seat")] + [len(player["name"]) for player in players])
    head = (f"{'seat':<{width}}  {'games':>6} {'wins':>6} {'draws':>6} {'losses':>6}  "
            f"{'win rate':>8}  {'95% CI':<15}  {'as first':>8}")
    head += "  Elo (95% CI)" if two else "  openskill mu±sigma  place     1st    last"
    lines = [f"{summary['game']}: {summary['games']} of {summary['planned']} games, "
             f"{summary['players_per_game']} players a game, seed {summary['seed']}"]
    if summary.get("stopped") == "sprt":
        lines[0] += " (stopped by the SPRT)"
    lines += ["", head]
    ranked = sorted(players, key=lambda player: -player["win_rate"])
    for player in ranked:
        low, high = player["ci95"]
        row = (f"{player['name']:<{width}}  {player['games']:>6} {player['wins']:>6} "
               f"{player['draws']:>6} {player['losses']:>6}  {_percent(player['win_rate']):>8}  "
               f"[{_percent(low)},{_percent(high)}]  "
               f"{_percent(player['first_seat_win_rate']):>8}")
        if two and player["elo"] is not None:
            elo_low, elo_high = player["elo_ci95"]
            row += f"  {player['elo']:+7.1f} [{elo_low:+.1f}, {elo_high:+.1f}]"
        elif not two and "openskill" in player:
            rating = player["openskill"]
            row += (f"  {rating['mu']:6.2f}±{rating['sigma']:.2f}  {player['mean_place']:.2f}  "
                    f"{_percent(player['first_place_rate'])}  "
                    f"{_percent(player['last_place_rate'])}")
        lines.append(row)
    first = summary["first_seat"]
    lines += ["", f"first seat overall: {_percent(first['win_rate']).strip()} "
                  f"({first['wins']} wins, {first['draws']} draws, {first['losses']} losses); "
                  f"{summary['moves_per_game']:.1f} moves and "
                  f"{1000 * summary['seconds_per_game']:.1f} ms a game"]
    for pairing in summary.get("pairings", []):
        low, high = pairing["ci95"]
        lines.append(f"  {pairing['a']} vs {pairing['b']}: {pairing['games']} games, "
                     f"{pairing['a']} scores {_percent(pairing['a_score']).strip()} "
                     f"[{_percent(low).strip()}, {_percent(high).strip()}]")
    test = summary.get("sprt")
    if test is not None:
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[test["verdict"]]
        lines.append(f"SPRT elo0={test['elo0']:g} elo1={test['elo1']:g} "
                     f"(alpha={test['alpha']:g}, beta={test['beta']:g}): LLR {test['llr']:.3f} "
                     f"in ({test['bounds'][0]:.3f}, {test['bounds'][1]:.3f}): {verdict} "
                     f"after {test['wins'] + test['draws'] + test['losses']} games "
                     f"(W {test['wins']}, D {test['draws']}, L {test['losses']})")
    return "\n".join(lines)


def plot(summary: dict[str, Any], path: Path) -> None:
    """Ratings with their 95 % intervals (Elo) or mu ± 2 sigma (openskill) as a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise TournamentError("--plot needs matplotlib: pip install 'cardtable[tournament]'.",
                              TournamentError.CANNOT_RUN) from None
    players = summary["players"]
    two = summary["players_per_game"] == 2
    names, centres, lows, highs = [], [], [], []
    for player in players:
        if two and player["elo"] is not None:
            centre = player["elo"]
            low, high = player["elo_ci95"]
        elif not two and "openskill" in player:
            centre = player["openskill"]["mu"]
            low = centre - 2 * player["openskill"]["sigma"]
            high = centre + 2 * player["openskill"]["sigma"]
        else:
            continue
        names.append(player["name"])
        centres.append(centre)
        lows.append(centre - low)
        highs.append(high - centre)
    order = sorted(range(len(names)), key=lambda index: centres[index])
    figure, axes = plt.subplots(figsize=(7, 1.2 + 0.5 * max(1, len(names))))
    axes.errorbar([centres[i] for i in order], range(len(order)),
                  xerr=[[lows[i] for i in order], [highs[i] for i in order]],
                  fmt="o", capsize=4)
    axes.set_yticks(range(len(order)), [names[i] for i in order])
    axes.set_xlabel("Elo (Bradley–Terry, 95 % interval)" if two
                    else "openskill mu (± 2 sigma)")
    axes.set_title(f"{summary['game']}: {summary['games']} games")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    try:
        figure.savefig(path, format="png")
    except OSError as error:
        raise TournamentError(f"Cannot write plot '{one_line(str(path))}': "
                              f"{error.strerror}.", TournamentError.CANNOT_RUN) from None
    finally:
        plt.close(figure)
