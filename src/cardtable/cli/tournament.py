"""``cardtable tournament GAME --seat NAME --seat NAME ... --games N``: bots against bots.

Thin: parse the words, build the configuration (``tournament.setup``), run it
(``tournament.runner``) and print the summary. Exit statuses: 0 done, 1 bad command line,
2 cannot run as asked (``--out``, ``--plot``, Ray), 3 a game failed, 130 interrupted, 143
and 129 stopped by SIGTERM or SIGHUP (see docs/tournaments.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import NoReturn

from cardtable.engine.one_line import print_error

PROG = "cardtable tournament"
STANDARD_OUTPUT = "/dev/stdout"
STANDARD_ERROR = "/dev/stderr"
MAX_JOBS = 256
MAX_GAMES = 10_000_000

DESCRIPTION = """\
Round robin (or gauntlet) between bots: two-player games in pairs of the same deal with the
seats swapped, larger games in every rotation of the same deal. Prints win rates with 95 %
Wilson intervals, Bradley-Terry Elo (two players) or openskill ratings (three or more)."""

EPILOG = """\
examples:
  cardtable tournament caravan --seat random --seat normal --seat friendly --games 400
  cardtable tournament caravan --seat normal --seat friendly --games 2000 --sprt 0,50
  cardtable tournament obsession --players 4 --seat obsessed --seat random --seat random \\
      --seat random --games 200 --out four.jsonl --jobs 2

exit status: 0 done, 1 bad command line, 2 cannot run as asked (--out, --plot, Ray), 3 a
game failed, 130 interrupted, 143 and 129 stopped by SIGTERM or SIGHUP (the games played so
far stay in --out; rerun to resume)."""


class _Exit(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


class _Parser(argparse.ArgumentParser):
    """Syntax errors as one line and status 1."""

    def error(self, message: str) -> NoReturn:
        print_error(PROG, message[0].upper() + message[1:] + ("" if message.endswith(".")
                                                               else "."))
        raise _Exit(1)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _Exit(status)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG, allow_abbrev=False,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("game", metavar="GAME", help="caravan, obsession or austerity")
    add("--seat", metavar="NAME", action="append", default=[],
        help="a bot by name, with options as NAME:KEY=VALUE,... (repeat: two or more)")
    add("--games", metavar="N", type=int, required=True,
        help="games per pairing (per table of --players seats), rounded up to whole deals")
    add("--seed", metavar="S", type=int, default=1, help="tournament seed (default 1)")
    add("--gauntlet", metavar="NAME", help="only the games of this seat against the others")
    add("--jobs", metavar="J", type=int, default=1, help="processes (Ray: CPUs) to play on")
    add("--backend", choices=("local", "ray"), default="local",
        help="local processes (default) or Ray")
    add("--address", metavar="ADDR",
        help="Ray: address of a running cluster (default: start one on this machine)")
    add("--out", metavar="FILE", help="append each game to FILE (JSON lines); rerun to resume")
    add("--json", action="store_true", help="print the summary as one JSON object")
    add("--plot", metavar="PNG", help="draw the ratings with their intervals")
    add("--sprt", metavar="ELO0,ELO1",
        help="two seats: stop once the SPRT decides (alpha = beta = 0.05)")
    rules = parser.add_argument_group("rules (as the games' own commands take them)")
    rules.add_argument("--rules", metavar="PRESET", help="Caravan rules preset")
    rules.add_argument("--rule", metavar="[abc.|def.]FIELD=VALUE", action="append", default=[],
                       help="Caravan rule field (repeatable)")
    rules.add_argument("--rules-file", metavar="PATH", help="Caravan rules from a TOML file")
    rules.add_argument("--players", metavar="N",
                       help="Obsession/Austerity: players a game (default: the number of seats)")
    rules.add_argument("--run-kill", metavar="L", help="Obsession: run length that kills")
    rules.add_argument("--kill-order", metavar="ORDER", help="Obsession: effect-first|kill-first")
    rules.add_argument("--max-plays", metavar="M", help="Obsession: stalemate after M plays")
    rules.add_argument("--repeat-limit", metavar="R", help="Obsession: repetition guard")
    rules.add_argument("--deck", metavar="PATH", help="Austerity: deck file")
    rules.add_argument("--tokens", metavar="T", help="Austerity: tokens per pile")
    rules.add_argument("--points", metavar="P", help="Austerity: points to win")
    rules.add_argument("--deal", metavar="DEAL",
                       help="Austerity: shuffled (default: the deck shuffled from each deal's "
                            "seed) or file (the deck file's order in every game)")
    return parser


def _check_extras(ratings: bool, plot: bool, out: bool) -> None:
    """Refuse before playing, not after, when the summary needs an extra that is missing (or
    ``--out``, whose lines are checked by pydantic's schema)."""
    import importlib.util

    from cardtable.tournament.errors import TournamentError

    for needed, module, what in ((ratings, "openskill", "Ratings of three or more players"),
                                 (plot, "matplotlib", "--plot"), (out, "pydantic", "--out")):
        try:
            missing = needed and importlib.util.find_spec(module) is None
        except (ImportError, ValueError):
            missing = True
        if missing:
            raise TournamentError(f"{what} need{'s' if what.startswith('--') else ''} {module}: "
                                  "pip install 'cardtable[tournament]'.",
                                  TournamentError.CANNOT_RUN)


def _run(argv: list[str]) -> int:
    options = build_parser().parse_args(argv)
    from cardtable.tournament.errors import TournamentError
    from cardtable.tournament.setup import game_params, make_config, parse_sprt

    if options.games < 1:
        raise TournamentError(f"--games must be at least 1 (got {options.games}).")
    if not 1 <= options.jobs <= MAX_JOBS:
        raise TournamentError(f"--jobs must be from 1 to {MAX_JOBS} (got {options.jobs}).")
    if options.seed < 0:
        raise TournamentError(f"--seed must be 0 or more (got {options.seed}).")
    if options.address is not None and options.backend != "ray":
        raise TournamentError("--address is for --backend ray.")
    params = game_params(
        options.game.lower(), rules=options.rules, rule=options.rule,
        rules_file=options.rules_file, players=options.players, entrants=len(options.seat),
        extra={"run_kill": options.run_kill, "kill_order": options.kill_order,
               "max_plays": options.max_plays, "repeat_limit": options.repeat_limit,
               "deck": options.deck, "tokens": options.tokens, "points": options.points,
               "deal": options.deal})
    config = make_config(options.game.lower(), params, options.seat, options.gauntlet,
                         options.seed)
    from cardtable.tournament.schedule import count

    planned = count(config, options.games)
    if planned > MAX_GAMES:
        raise TournamentError(f"--games {options.games} makes {planned:,} games; at most "
                              f"{MAX_GAMES:,} in one tournament.")
    setting = parse_sprt(options.sprt, config) if options.sprt is not None else None
    out = Path(options.out) if options.out is not None else None
    plot = Path(options.plot) if options.plot is not None else None
    from cardtable.tournament.results import check_writable

    # No file the command writes may be another file it reads or writes (through links too).
    files: list[tuple[str, str | Path | None]] = [
        ("the --rules-file file", options.rules_file), ("the --deck file", options.deck),
        ("standard output", STANDARD_OUTPUT), ("standard error", STANDARD_ERROR)]
    if out is not None:
        check_writable(out, others=[*files, ("the --plot file", plot)])
    if plot is not None:
        check_writable(plot, "plot", others=[*files, ("the --out file", out)])
    _check_extras(config.players > 2, plot is not None, out is not None)
    from cardtable.tournament.backends import make_backend
    from cardtable.tournament.report import text
    from cardtable.tournament.runner import run, terminal_progress

    backend = make_backend(options.backend, options.jobs, options.address)
    outcome = run(config, options.games, backend, out, setting, terminal_progress)
    if plot is not None:
        from cardtable.tournament.report import plot as draw

        draw(outcome.summary, plot)
    if options.json:
        print(json.dumps(outcome.summary), flush=True)
    else:
        print(text(outcome.summary), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    from cardtable.tournament.errors import TournamentError, interrupted
    from cardtable.ui.stop_signals import stop_signals

    try:
        # SIGTERM and SIGHUP stop a tournament as Ctrl+C does: the workers are ended and the
        # games played so far stay in --out (status 143 and 129).
        with stop_signals():
            return _run(sys.argv[1:] if argv is None else argv)
    except _Exit as stop:
        return stop.status
    except TournamentError as error:
        print_error(PROG, error.message)
        return error.status
    except KeyboardInterrupt as stop:  # before or after the games
        stopped = interrupted(stop)
        print_error(PROG, stopped.message)
        return stopped.status


if __name__ == "__main__":
    sys.exit(main())
