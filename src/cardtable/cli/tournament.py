"""``cardtable tournament GAME --seat NAME --seat NAME ... --games N``: bots against bots.

Thin: parse the words, build the configuration (``tournament.setup``), run it
(``tournament.runner``) and print the summary. Exit statuses: 0 done, 1 bad command line,
2 cannot run as asked (``--out``, ``--plot``, Ray), 3 a game failed, 130 interrupted, 143
and 129 stopped by SIGTERM or SIGHUP (see docs/tournaments.md).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

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
    add("game", metavar="GAME", help=_games_text())
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
    _add_game_options(parser.add_argument_group(
        "the games' parameters (each for the games named in its help)"))
    return parser


def _games_text() -> str:
    """``caravan, obsession or austerity``: the known games."""
    from cardtable.engine.game_registry import names

    known = names()
    return ", ".join(known[:-1]) + " or " + known[-1] if len(known) > 1 else "".join(known)


METAVARS = {"int": "N", "file": "PATH", "text": "TEXT"}


def _add_game_options(group: argparse._ArgumentGroup) -> None:
    """An option for every parameter a tournament of some game takes (the games'
    descriptions), its value kept as text for the game's own check, and ``--rule FIELD=VALUE``
    after the parameters of the first game with free rule fields. A parameter whose option is
    one of the command's own is not offered."""
    from cardtable.engine.game_registry import descriptions
    from cardtable.tournament.setup import RULE, owners_text, tournament_params

    taken = tournament_params()
    rule_games = [game for game in descriptions() if game.rule_fields]
    rule_after = [name for name, games in taken.items()
                  if rule_games and any(game is rule_games[0] for game, _param in games)]
    if rule_games and not rule_after:
        _add_rule(group, RULE, owners_text(rule_games))
    for name, games in taken.items():
        first = games[0][1]
        metavar = "|".join(first.choices) if first.kind == "choice" else METAVARS[first.kind]
        # A parameter named as one of the command's own options is not offered.
        with contextlib.suppress(argparse.ArgumentError):
            group.add_argument(first.option, dest=f"param_{name}", metavar=metavar,
                               help=_param_help(name, games))
        if rule_after and name == rule_after[-1]:
            _add_rule(group, RULE, owners_text(rule_games))


def _add_rule(group: argparse._ArgumentGroup, option: str, owners: str) -> None:
    group.add_argument(option, metavar="FIELD=VALUE", dest="rule", action="append", default=[],
                       help=f"{owners}: a rule field beyond these options (repeatable)")


def _param_help(name: str, games: list[Any]) -> str:
    """``Obsession/Austerity: the number of players (default: the number of seats)``."""
    from cardtable.tournament.setup import owners_text

    descriptions = [game for game, _param in games]
    first = games[0][1]
    text = f"{owners_text(descriptions)}: {first.help}"
    if any(game.players_param == name for game in descriptions):
        return text + " (default: the number of seats)"
    if first.kind == "int" and all(param.allowed == first.allowed for _game, param in games):
        text += f": {first.allowed}"  # the other kinds' metavar says it
    defaults = {str(value) for game in descriptions
                for value in [{**game.bot_params, **game.table_params}.get(name)]
                if value is not None}
    if len(defaults) == 1:
        text += f" (default {defaults.pop()})"
    return text


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
    given = {name[len("param_"):]: value for name, value in vars(options).items()
             if name.startswith("param_")}
    params = game_params(options.game.lower(), given, rule=getattr(options, "rule", []),
                         entrants=len(options.seat))
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
        *_given_files(options), ("standard output", STANDARD_OUTPUT),
        ("standard error", STANDARD_ERROR)]
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


def _given_files(options: argparse.Namespace) -> list[tuple[str, str | Path | None]]:
    """The files the games' parameters name (``--rules-file``, ``--deck``): the command may
    write none of them."""
    from cardtable.tournament.setup import tournament_params

    return [(f"the {games[0][1].option} file", getattr(options, f"param_{name}", None))
            for name, games in tournament_params().items()
            if any(param.kind == "file" for _game, param in games)]


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
