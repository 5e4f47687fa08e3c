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
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NoReturn

from cardtable import __version__, load_game
from cardtable.agents.external_cli import ForfeitNotice, bot_spec, external_seat, is_exec
from cardtable.agents.registry import make_seat
from cardtable.cli.game_options import terminal_for_full_screen
from cardtable.cli.main import say
from cardtable.cli.streams import silence_stdout
from cardtable.engine.error_line import print_error
from cardtable.engine.errors import GameError, GameParamsError, RecordError
from cardtable.engine.game_registry import description
from cardtable.engine.match import Seat
from cardtable.engine.option_refusals import (
    delay_refusal,
    delay_seconds,
    seed_refusal,
    seed_value,
)
from cardtable.engine.record import RecordWriteError, RecordWriter, open_error_message
from cardtable.engine.record_target import check_record_target
from cardtable.games.caravan.bots import BOTS, as_caravan_bot
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.deck import (
    check_deck_size,
    check_samples,
    read_deck_file,
)
from cardtable.games.caravan.errors import DeckError
from cardtable.games.caravan.record import GameRecorder, load_replay
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.rules_assembly import check_random_decks
from cardtable.games.caravan.state import CaravanState
from cardtable.ui.plain.caravan import PlainCaravan
from cardtable.ui.plain.console import Console
from cardtable.ui.seat_kinds import bot_refusal
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
    # Raised through argparse (which only catches its own errors, TypeError and ValueError),
    # so that the message is the one every program gives, at the moment argparse reads it.
    value = seed_value(text)
    if value is None:
        raise StartupError(seed_refusal("--seed", text))
    return value


class _Delay(argparse.Action):
    """``--delay``: what is not a number of seconds is refused as argparse reads it; a
    negative number later, in its place among the checks (§8), with the same message kept in
    ``delay_text``."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        text = str(values)
        value = delay_seconds(text)
        if value is None:
            raise StartupError(delay_refusal("--delay", text))
        namespace.delay, namespace.delay_text = value, text


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
    players.add_argument("-d", "--delay", metavar="SECONDS", action=_Delay, default=None,
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


def _negative_delay(options: argparse.Namespace) -> None:
    if options.delay is not None and options.delay < 0:
        raise StartupError(delay_refusal("--delay", options.delay_text))


def _invalid_number_message(rules: SeatRules, field: str) -> str | None:
    """The deck-size or samples message for a ``-c``/``-s`` value that is not an integer."""
    if field == "deck_size":
        return check_deck_size(SeatRules(replace(rules.abc, deck_size=0),
                                         replace(rules.def_, deck_size=0)))
    return check_samples(SeatRules(replace(rules.abc, samples=0), replace(rules.def_, samples=0)))


def _bot_names(options: argparse.Namespace, game: Any) -> tuple[str, str]:
    for name in (options.bot, options.bot_abc, options.bot_def):
        # The rule bots, and any registry spec (``ismcts:iters=500``), its options checked.
        refusal = None if name is None or name.lower() in BOTS else bot_refusal(game, name)
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
    _negative_delay(options)
    _bot_names(options, load_game("caravan"))
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


def _load(options: argparse.Namespace, cards: int | None, samples: int | None) -> Any:
    """The game of the options, through ``load_game`` (the game's description): its rules
    (preset, rules file, -c, -s, -i, then --rule), first seat and, between two bots, the
    length cap games between bots get. The random decks are checked later, in their place
    among the checks (§8), as the deck files decide which seats deal one."""
    params: dict[str, Any] = {"rules": options.rules, "rules_file": options.rules_file,
                              "rule": list(options.rule), "random_decks": ()}
    if cards is not None:
        params["deck_size"] = cards
    if samples is not None:
        params["samples"] = samples
    if options.imbalanced:
        params["sampling"] = "imbalanced"
    if options.first.strip() in ("1", "2"):  # anything else is refused after --pvp --bvb
        params["first"] = int(options.first.strip()) - 1
    if options.bvb:
        params.update(description("caravan").bot_params)
    try:
        return load_game("caravan", **params)
    except GameParamsError as error:
        raise StartupError(error.message) from None


def _run_game(options: argparse.Namespace, console: Console) -> int:
    cards = _integer(options.cards)
    samples = _integer(options.samples)
    loaded = _load(options, cards, samples)
    rules: SeatRules = loaded.rules
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
    _negative_delay(options)
    bot_names = _bot_names(options, loaded)
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
    first: int = loaded.first
    if _full_screen(options):
        from cardtable.ui.tui.caravan_app import run_caravan

        kinds = tuple("human" if humans[seat] else f"bot:{bot_names[seat]}" for seat in (0, 1))
        try:
            return run_caravan(rules, (kinds[0], kinds[1]), options.seed, first,
                               1.0 if options.delay is None else options.delay,
                               (decks[0], decks[1]), options.record, options.ascii)
        except GameError as error:  # a program that cannot start, before the screen opens
            raise StartupError(error.message) from None
    game = CaravanState.new(rules, options.seed, first, decks)
    shell = PlainCaravan(console, humans, options.delay or 0.0)
    seats: dict[str, Seat] = {}
    players: dict[str, str] = {}
    for seat in (0, 1):
        if humans[seat]:
            seats[SEATS[seat]] = shell.human(seat)
            players[SEATS[seat]] = "human"
        elif is_exec(bot_names[seat]):
            try:
                seats[SEATS[seat]] = external_seat(loaded, bot_names[seat],
                                                   SEATS[seat], game.seed, options.record)
            except GameError as error:
                raise StartupError(error.message) from None
            players[SEATS[seat]] = f"bot:{bot_names[seat]}"
        else:
            made = make_seat(loaded, bot_names[seat], SEATS[seat], game.seed)
            seats[SEATS[seat]] = shell.bot(as_caravan_bot(seat, made, bot_names[seat]))
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
    return terminal_for_full_screen(options.plain)


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


def replay_main(argv: list[str]) -> int:
    """``cardtable replay FILE [OPTIONS]`` of a Caravan record: ``caravan --replay FILE
    [OPTIONS]`` (the description's ``replay_app``)."""
    return main(["--replay", *argv])


if __name__ == "__main__":
    sys.exit(main())
