"""``cardtable play GAME [options]``: any registered game at the generic terminal table.

The game is asked only through its description: its parameters are the options (``--players``,
``--run-kill`` ...), its seats are filled by ``--seat`` (``human``, a bot, ``exec:COMMAND``), and
it is played through the state protocol, on the full screen on a terminal, else in line mode.
Games with a command line of their own (``caravan``, ``obsession``) are best played there; a
game from outside (a plug-in, docs/plugins.md) is played here.

Exit status: 0 the game ended or a player quit; 1 bad options, or a program that cannot start;
3 input ended before the game did; 130 interrupted, 143 and 129 SIGTERM and SIGHUP.
"""

from __future__ import annotations

import argparse
import sys
from textwrap import fill
from typing import Any, NoReturn

from cardtable import __version__
from cardtable.cli.game_options import (
    UsageError,
    add_param_options,
    checked_options,
    delay_option,
    seed_option,
    terminal_for_full_screen,
)
from cardtable.cli.main import say
from cardtable.engine.description import GameDescription
from cardtable.engine.error_line import print_error
from cardtable.engine.errors import GameError
from cardtable.engine.game_registry import description, descriptions
from cardtable.ui.plain.console import Console
from cardtable.ui.plain.generic import play_plain
from cardtable.ui.seat_kinds import Seating, close_seats, seated
from cardtable.ui.stop_signals import say_stopped, stop_signals, stop_status

PROG = "cardtable play"
EXIT_USAGE = 1

EPILOG = """\
--seat names the player of each seat in turn: human, a bot (its name or spec, e.g.
ismcts:iters=500) or exec:COMMAND for a program (docs/bots.md); without --seat a person
takes the first seat and the game's first bot the others. A game whose number of seats is a
parameter gets as many seats as --seat names. On a person's turn the view of the seat and
its legal moves are shown, numbered: type a number or the move in the game's notation;
'moves' lists them, 'help' or '?' shows how to play, 'quit' or 'exit' leaves the game.
Exit status: 0 game over or quit, 1 bad options, 3 input ended first, 130 interrupted."""


def usage() -> str:
    games = ", ".join(described.name for described in descriptions())
    return (f"usage: {PROG} GAME [--seat KIND ...] [--seed N] [--delay SECONDS] [--plain] "
            f"[GAME'S OPTIONS]\ngames: {games}\n"
            f"Run '{PROG} GAME --help' for the options of a game.")


def game_params(described: GameDescription) -> list[Any]:
    """The parameters offered as options: all but those that say who sits (the seats do)."""
    return [param for param in described.params if param.name not in described.seat_params]


class _Parser(argparse.ArgumentParser):
    """Its syntax errors are :class:`UsageError`: one line, under the command's name."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser(described: GameDescription) -> argparse.ArgumentParser:
    parser = _Parser(
        prog=f"{PROG} {described.name}", epilog=EPILOG,
        description=fill(f"{described.title}: {described.summary}", 88),
        formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    add = parser.add_argument
    add("--seat", metavar="KIND", action="append",
        help="the player of the next seat: human, a bot or exec:COMMAND (repeatable)")
    add("--seed", metavar="N", help="integer >= 0 seeding the deal and the bots "
        "(default: random)")
    add("--delay", metavar="SECONDS",
        help="pause before each bot move (default 1 on a terminal, else 0)")
    add("--plain", action="store_true",
        help="line mode even on a terminal (the full screen is the default there)")
    add("--ascii", action="store_true", help="full screen: ASCII only")
    add("-v", "--version", action="store_true", help="print the cardtable version and exit")
    rules = parser.add_argument_group(f"{described.title}'s parameters")
    add_param_options(rules, game_params(described), fill=False)
    return parser


def _setup(described: GameDescription, options: argparse.Namespace
           ) -> tuple[Seating, int, float | None]:
    """The table, seed and delay of the options; raises :class:`UsageError`."""
    seed = seed_option(options.seed)
    delay = delay_option(options.delay)
    kinds = options.seat
    try:
        params = checked_options(options, game_params(described))
        if kinds is not None and all(kind.strip().lower() != "human" for kind in kinds):
            # A game between bots gets the game's length caps unless given.
            params = {**described.bot_params, **params}
        table = seated(described, params, kinds)
    except GameError as error:
        raise UsageError(error.message) from None
    return table, seed, delay


def full_screen(options: argparse.Namespace) -> bool:
    """The full screen is for a person at a terminal (and needs Textual)."""
    return terminal_for_full_screen(options.plain)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        if not args:
            print_error(PROG, f"a game is needed (see '{PROG} --help')")
            return EXIT_USAGE
        return say(usage())
    try:
        described = description(args[0])
    except GameError as error:
        print_error(PROG, error.message)
        return EXIT_USAGE
    try:
        options = build_parser(described).parse_args(args[1:])
        if options.version:
            return say(__version__)
        table, seed, delay = _setup(described, options)
    except SystemExit as leaving:  # --help
        return leaving.code if isinstance(leaving.code, int) else EXIT_USAGE
    except UsageError as error:
        print_error(PROG, str(error))
        return EXIT_USAGE
    if full_screen(options):
        from cardtable.ui.tui.generic_app import play_generic

        try:
            status, _ = play_generic(table, seed, 1.0 if delay is None else delay,
                                     options.ascii)
        except GameError as error:  # a program that cannot start, before the screen opens
            print_error(PROG, error.message)
            return EXIT_USAGE
        return status
    return play_lines(table, seed, (1.0 if sys.stdout.isatty() else 0.0)
                      if delay is None else delay)


def play_lines(table: Seating, seed: int, delay: float) -> int:
    """The line mode: the game to its end, or to Ctrl-C, SIGTERM or SIGHUP."""
    try:
        bots = table.bots(seed)
    except GameError as error:
        print_error(PROG, error.message)
        return EXIT_USAGE
    try:
        with stop_signals():
            return play_plain(table.described, table.new_state(seed),
                              dict(zip(table.seats, table.kinds, strict=True)), bots, Console(),
                              delay)
    except KeyboardInterrupt as stopped:
        say_stopped(stopped, PROG)
        return stop_status(stopped)
    finally:
        close_seats(bots)
