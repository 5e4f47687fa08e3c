"""``caravan [options]`` (also ``cardtable caravan``): play, record and replay Caravan.

Exit status: 0 the game finished or a player quit; 1 bad options, rules, deck or record
files, a record that does not replay, a record that cannot be written; 3 input ended
before the game was over; 130 interrupted (Ctrl-C); 143 and 129 SIGTERM and SIGHUP, handled
like Ctrl-C. Every startup problem is one line on
standard error, checked in the order of the specification (§8).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import math
import sys
from dataclasses import replace
from typing import NoReturn

from cardtable import __version__
from cardtable.agents.external_cli import ForfeitNotice, bot_spec, external_seat, is_exec
from cardtable.cli.delay import MAX_DELAY_SECONDS, too_long_text
from cardtable.cli.error_line import print_error
from cardtable.cli.main import say
from cardtable.cli.streams import silence_stdout
from cardtable.engine.errors import GameError, RecordError
from cardtable.engine.match import Seat
from cardtable.engine.record import RecordWriteError, RecordWriter, open_error_message
from cardtable.engine.record_target import check_record_target
from cardtable.engine.seed_option import SEED_ALLOWED, seed_value
from cardtable.games.caravan.bots import BOTS, known_bot, make_bot
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.deck import (
    check_deck_size,
    check_samples,
    read_deck_file,
)
from cardtable.games.caravan.errors import DeckError, RulesError
from cardtable.games.caravan.game import CaravanGame
from cardtable.games.caravan.record import GameRecorder, load_replay
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.rules_assembly import assemble_rules, check_random_decks
from cardtable.games.caravan.stalemate import table_rules
from cardtable.games.caravan.state import CaravanState
from cardtable.ui.plain.caravan import PlainCaravan
from cardtable.ui.plain.console import Console
from cardtable.ui.stop_signals import say_stopped, stop_cause, stop_signals, stop_status

PROG = "caravan"
EXIT_BAD_START = 1
EXIT_INTERRUPTED = 130
DEFAULT_BOT = "normal"

DESCRIPTION = """\
Play Caravan, the card game of Fallout: New Vegas, in the terminal: you (ABC, bottom)
against a bot (DEF, top) unless --pvp or --bvb says otherwise. Moves are typed in the
notation P<hand><caravan>[slot], D<hand>, C<caravan>[hand] (e.g. P2B, P4F3, D3, CA, CB4);
'help' or '?' shows how to play under the rules in play, 'moves' lists your legal moves,
'quit' or 'exit' leaves the game."""

EPILOG = f"""\
rules presets: {", ".join(PRESETS)} (see docs/caravan.md for the differences).
bots: {", ".join(BOTS)}, ismcts (tree search: ismcts:iters=N, ismcts:time=SECONDS; see
docs/bots-search.md).
--record never replaces an existing file without --overwrite, nor a file it reads.
exit status: 0 game finished or quit; 1 bad options, rules, deck or record files, or a
record that does not replay; 3 input ended before the game was over; 130 interrupted;
143 and 129 stopped by SIGTERM or SIGHUP (recorded like Ctrl-C)."""


class CaravanArgumentParser(argparse.ArgumentParser):
    """Reports a syntax error as a :class:`StartupError`: one line on standard error, status 1."""

    def error(self, message: str) -> NoReturn:
        raise StartupError(message)


class StartupError(Exception):
    """One line to print on standard error before exiting with status 1."""


def _seed(text: str) -> int:
    value = seed_value(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"seed must be {SEED_ALLOWED}, not '{text}'")
    return value


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isnan(value) or value == -math.inf:
        raise argparse.ArgumentTypeError(f"delay must be a number of seconds, not '{text}'")
    if value > MAX_DELAY_SECONDS:  # also "inf" and numbers too long for a float
        raise argparse.ArgumentTypeError(f"delay must be {too_long_text()}, not '{text}'")
    return value


def build_parser() -> CaravanArgumentParser:
    parser = CaravanArgumentParser(
        prog=PROG,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    parser.add_argument("-v", "--version", action="store_true",
                        help="print the cardtable version and exit")
    players = parser.add_argument_group("players")
    players.add_argument("--pvp", action="store_true", help="human vs human (PL1 = ABC, PL2 = DEF)")
    players.add_argument("--bvb", action="store_true", help="bot vs bot (BOT1 = ABC, BOT2 = DEF)")
    players.add_argument("-b", "--bot", metavar="NAME",
                         help=f"bot for every bot seat: {', '.join(BOTS)}, or exec:COMMAND for a "
                         f"program (docs/bots.md) (default: {DEFAULT_BOT})")
    players.add_argument("--bot-abc", metavar="NAME", help="ABC's bot in --bvb (default: --bot)")
    players.add_argument("--bot-def", metavar="NAME",
                         help="DEF's bot in --bvb and human vs bot (default: --bot)")
    players.add_argument("-d", "--delay", metavar="SECONDS", type=_delay, default=None,
                         help="pause before each bot move and between replayed moves "
                              "(default: 1 on the full screen, 0 in line mode)")
    players.add_argument("-f", "--first", metavar="1|2", default="1",
                         help="1 = ABC moves first, 2 = DEF (default: 1)")
    rules = parser.add_argument_group("rules and decks")
    rules.add_argument("--rules", metavar="PRESET",
                       help=f"rules preset: {', '.join(PRESETS)} (default: power)")
    rules.add_argument("--rule", metavar="[abc.|def.]FIELD=VALUE", action="append", default=[],
                       help="override one rule field for both seats or one seat (repeatable)")
    rules.add_argument("--rules-file", metavar="PATH", help="rules from a TOML file")
    rules.add_argument("-c", "--cards", metavar="N",
                       help="deck size of both seats (default: the preset's)")
    rules.add_argument("-s", "--samples", metavar="N",
                       help="number of sample decks (52 cards + Jokers) each random deck is "
                            "drawn from (default: the preset's)")
    rules.add_argument("-i", "--imbalanced", action="store_true",
                       help="imbalanced sampling: each card comes from a sample deck chosen at "
                            "random; without it, sampling is balanced (round robin over the "
                            "sample decks), unless the preset pools them")
    rules.add_argument("--deck", metavar="PATH", help="custom deck file for both seats")
    rules.add_argument("--deck-abc", metavar="PATH", help="custom deck file for ABC")
    rules.add_argument("--deck-def", metavar="PATH", help="custom deck file for DEF")
    rules.add_argument("--seed", metavar="N", type=_seed,
                       help="integer >= 0 seeding all randomness (default: random)")
    files = parser.add_argument_group("records and interface")
    files.add_argument("--record", metavar="FILE",
                       help="write a record of the game (JSON Lines); an existing record is "
                            "kept unless --overwrite is given")
    files.add_argument("--overwrite", action="store_true",
                       help="let --record replace an existing file")
    files.add_argument("--replay", metavar="FILE",
                       help="play back a record (ignores rule, deck and player options)")
    files.add_argument("--plain", action="store_true",
                       help="line mode; chosen anyway when stdin or stdout is not a terminal")
    files.add_argument("--ascii", action="store_true",
                       help="full screen: ASCII only (suits as letters, plain borders)")
    return parser


def _integer(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(text.strip(), 10)
    except ValueError:
        return None


def _invalid_number_message(rules: SeatRules, field: str) -> str | None:
    """The deck-size or samples message for a ``-c``/``-s`` value that is not an integer."""
    if field == "deck_size":
        return check_deck_size(SeatRules(replace(rules.abc, deck_size=0),
                                         replace(rules.def_, deck_size=0)))
    return check_samples(SeatRules(replace(rules.abc, samples=0), replace(rules.def_, samples=0)))


def _bot_names(options: argparse.Namespace) -> tuple[str, str]:
    for name in (options.bot, options.bot_abc, options.bot_def):
        # An exec: spec is not tried here: trying it would start the program.
        refusal = None if name is None or is_exec(name) else known_bot(name)
        if refusal is not None:
            raise StartupError(refusal)
    default = options.bot or DEFAULT_BOT
    return (bot_spec(options.bot_abc or default), bot_spec(options.bot_def or default))


def _common_checks(options: argparse.Namespace) -> None:
    if options.pvp and options.bvb:
        raise StartupError("Game cannot be both Player vs Player and Bot vs Bot.")
    if options.first.strip() not in ("1", "2"):
        raise StartupError("First player must be either 1 or 2.")


def _run_replay(options: argparse.Namespace, console: Console) -> int:
    _common_checks(options)
    if options.delay is not None and options.delay < 0:
        raise StartupError("Bot delay cannot be a negative number.")
    _bot_names(options)
    if options.record is not None:
        raise StartupError("Options --replay and --record cannot be combined.")
    try:
        replay = load_replay(options.replay)
    except RecordError as error:
        raise StartupError(error.message) from None
    if _full_screen(options):
        from cardtable.ui.tui.caravan_replay import run_caravan_replay

        return run_caravan_replay(replay, 1.0 if options.delay is None else options.delay,
                                  options.ascii)
    humans = (replay.players["ABC"] == "human", replay.players["DEF"] == "human")
    shell = PlainCaravan(console, humans, options.delay or 0.0, reveal=True)
    try:
        with stop_signals():
            return shell.replay(replay)
    except KeyboardInterrupt as stopped:
        say_stopped(stopped, PROG)
        return stop_status(stopped)


def _run_game(options: argparse.Namespace, console: Console) -> int:
    cards = _integer(options.cards)
    samples = _integer(options.samples)
    try:
        rules = assemble_rules(options.rules, options.rules_file, options.rule, cards, samples,
                               options.imbalanced)
    except RulesError as error:
        raise StartupError(error.message) from None
    _common_checks(options)
    deck_paths = (options.deck_abc or options.deck, options.deck_def or options.deck)
    random_seats = [seat for seat in (0, 1) if deck_paths[seat] is None]
    if options.cards is not None and cards is None:
        message = _invalid_number_message(rules, "deck_size")
    else:
        message = check_deck_size(rules, random_seats)
    if message is None:
        if options.samples is not None and samples is None:
            message = _invalid_number_message(rules, "samples")
        else:
            message = check_samples(rules, random_seats)
    if message is not None:
        raise StartupError(message)
    if options.delay is not None and options.delay < 0:
        raise StartupError("Bot delay cannot be a negative number.")
    bot_names = _bot_names(options)
    decks: list[list[int] | None] = []
    for seat in (0, 1):
        path = deck_paths[seat]
        try:
            decks.append(None if path is None else read_deck_file(path, rules.of(seat), seat))
        except DeckError as error:
            raise StartupError(error.message) from None
    # Deck size and samples passed above; the one check a record's replay makes too.
    message = check_random_decks(rules, random_seats)
    if message is not None:
        raise StartupError(message)
    if options.record is not None:
        reads = [(f"the {option} file", getattr(options, option[2:].replace("-", "_")))
                 for option in ("--rules-file", "--deck", "--deck-abc", "--deck-def")]
        message = check_record_target(options.record, reads, options.overwrite)
        if message is not None:
            raise StartupError(message)

    humans = (not options.bvb, options.pvp)
    first = int(options.first.strip()) - 1
    if _full_screen(options):
        from cardtable.ui.tui.caravan_app import run_caravan

        kinds = tuple("human" if humans[seat] else f"bot:{bot_names[seat]}" for seat in (0, 1))
        try:
            return run_caravan(rules, (kinds[0], kinds[1]), options.seed, first,
                               1.0 if options.delay is None else options.delay,
                               (decks[0], decks[1]), options.record, options.ascii)
        except GameError as error:  # a program that cannot start, before the screen opens
            raise StartupError(error.message) from None
    game = CaravanState.new(table_rules(rules, humans), options.seed, first, decks)
    shell = PlainCaravan(console, humans, options.delay or 0.0)
    seats: dict[str, Seat] = {}
    players: dict[str, str] = {}
    for seat in (0, 1):
        if humans[seat]:
            seats[SEATS[seat]] = shell.human(seat)
            players[SEATS[seat]] = "human"
        elif is_exec(bot_names[seat]):
            try:
                seats[SEATS[seat]] = external_seat(CaravanGame(rules, first), bot_names[seat],
                                                   SEATS[seat], game.seed, options.record)
            except GameError as error:
                raise StartupError(error.message) from None
            players[SEATS[seat]] = f"bot:{bot_names[seat]}"
        else:
            seats[SEATS[seat]] = shell.bot(make_bot(bot_names[seat], seat, game.seed,
                                                         CaravanGame(rules, first)))
            players[SEATS[seat]] = f"bot:{bot_names[seat]}"

    recorder: GameRecorder | None = None
    writer: RecordWriter | None = None
    if options.record is not None:
        try:
            writer = RecordWriter(options.record)
        except OSError as error:
            raise StartupError(open_error_message(options.record, error)) from None
        sources = ("random" if decks[0] is None else "file",
                   "random" if decks[1] is None else "file")
        recorder = GameRecorder(writer, options.record, players, sources)
    try:
        # SIGTERM and SIGHUP end the game as Ctrl-C does (with their own cause and status).
        with stop_signals():
            if recorder is not None:
                recorder.start(game)
            notice = ForfeitNotice(shell.say)
            return shell.play(game, seats, (notice,) if recorder is None else (recorder, notice))
    except KeyboardInterrupt as stopped:
        if recorder is not None:
            with contextlib.suppress(RecordWriteError):
                recorder.abandon(game, stop_cause(stopped))
        say_stopped(stopped, PROG)
        return stop_status(stopped)
    finally:
        if writer is not None:
            writer.close()


def _full_screen(options: argparse.Namespace) -> bool:
    """The full-screen interface is used on a terminal unless --plain asks for lines."""
    if options.plain or not all(stream is not None and stream.isatty()
                                for stream in (sys.stdin, sys.stdout)):
        return False
    return importlib.util.find_spec("textual") is not None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    try:
        options = parser.parse_args(args)
    except StartupError as error:
        print_error(PROG, str(error))
        return EXIT_BAD_START
    except SystemExit as leaving:
        return leaving.code if isinstance(leaving.code, int) else EXIT_BAD_START
    if options.version:
        return say(__version__)
    if sys.stdout is None:
        return EXIT_BAD_START  # a closed standard output (``>&-``): nowhere to play
    console = Console()
    try:
        if options.replay is not None:
            return _run_replay(options, console)
        return _run_game(options, console)
    except StartupError as error:
        print_error(PROG, str(error))
        return EXIT_BAD_START
    except RecordWriteError as error:
        print_error(PROG, error.message)
        return EXIT_BAD_START
    except KeyboardInterrupt:
        print_error(PROG, "Game interrupted.")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of our output went away (e.g. piped into head): nothing more to say.
        silence_stdout()
        return EXIT_BAD_START


if __name__ == "__main__":
    sys.exit(main())
