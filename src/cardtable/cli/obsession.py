"""``obsession`` (also ``cardtable obsession``): play, record and replay Obsession in line mode.

Exit status: 0 the game ended (or ended before input did), 1 invalid options or files,
3 input ended before the game did, 4 replay mismatch or a record cut short, 130 interrupted,
143 and 129 SIGTERM and SIGHUP (handled like Ctrl-C).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from cardtable import __version__
from cardtable.agents.external_cli import bot_spec, external_seat, is_exec
from cardtable.agents.registry import known_spec, make_seat
from cardtable.cli.game_options import UsageError, add_param_options, delay_option, seed_option
from cardtable.cli.main import say
from cardtable.cli.streams import silence_stdout
from cardtable.engine.bounded_read import FileTooLarge
from cardtable.engine.error_line import print_error
from cardtable.engine.errors import GameError, GameParamsError, RecordError
from cardtable.engine.match import (
    BotPause,
    MatchAbandoned,
    MatchListener,
    Seat,
    forfeit_message,
    play_match,
)
from cardtable.engine.record import (
    RecordWriteError,
    RecordWriter,
    not_finished_message,
    open_error_message,
    other_game_message,
    read_lines,
)
from cardtable.engine.record_target import check_record_target
from cardtable.games.obsession.bots import BOT_NAMES, make_bot
from cardtable.games.obsession.game import ObsessionGame
from cardtable.games.obsession.params import PARAMS, humans_param
from cardtable.games.obsession.record import (
    SEAT_KINDS,
    Checker,
    LoadedRecord,
    RecordCutShort,
    RecordListener,
    ReplayMismatch,
    Script,
    header,
    load,
    not_a_record,
)
from cardtable.games.obsession.render import forfeit_places
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import ObsessionState, seat_name
from cardtable.ui.plain.console import Console
from cardtable.ui.plain.obsession import (
    QUIT_CAUSE,
    HumanSeat,
    ReplayConsole,
    ReplaySeat,
    Table,
)
from cardtable.ui.seat_kinds import bot_refusal
from cardtable.ui.stop_signals import Stopped, say_stopped, stop_cause, stop_signals, stop_status

PROG = "obsession"
EXIT_OK, EXIT_USAGE, EXIT_EOF, EXIT_MISMATCH, EXIT_INTERRUPTED = 0, 1, 3, 4, 130

DESCRIPTION = """Play Obsession: get rid of your hand, then your face-up (visible) cards, then your
face-down (hidden) cards; the last player left with cards loses. The game opens the
full-screen interface when standard input and output are terminals, else it runs in plain
line mode (text in, text out, works through pipes); --plain selects the line mode."""

EPILOG = """Selections are card numbers separated by anything that is not a digit (4,5 or 4 5);
'moves' lists your legal moves (F2 on the full screen), 'help' or '?' shows how to play
(? or F1 on the full screen), 'quit' or 'exit' leaves the game.
--record never replaces an existing file without --overwrite, nor the --replay file.
Exit status: 0 game over or quit, 1 invalid option or file, 3 input ended first, 4 replay
mismatch or a record cut short, 130 interrupted, 143 and 129 stopped by SIGTERM or SIGHUP
(recorded like Ctrl-C). See docs/obsession.md for the rules."""


class _Exit(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """argparse that reports problems as exceptions: one line on stderr and status 1."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _Exit(status)


CLI_DEFAULTS = {"humans": 1}
"""Where the command line's default differs from ``load_game``'s: a person plays unless told
otherwise (humans take the first seats, bots the rest)."""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    # --players, --humans, --run-kill, ...: the game's parameters, with their limits and
    # messages (games/obsession/params.py).
    add_param_options(parser, PARAMS, CLI_DEFAULTS)
    add("--bot", metavar="NAME", default="obsessed",
        help=f"policy of the bot seats: {' or '.join(BOT_NAMES)}, a search bot "
        "(ismcts, ismcts:iters=N, ismcts:time=SECONDS), or exec:COMMAND for a program "
        "(docs/bots.md) (default obsessed)")
    add("--seats", metavar="LIST",
        help="explicit comma list such as human,obsessed,random; overrides --players, "
             "--humans and --bot")
    add("--seed", metavar="S",
        help="integer >= 0 seeding the shuffle and the bots (default: random)")
    add("--plain", action="store_true",
        help="plain line mode even on a terminal (the full screen is the default there)")
    add("--ascii", action="store_true",
        help="full screen: ASCII only (suit letters, plain borders; NO_COLOR turns colour off)")
    add("--record", metavar="FILE",
        help="write a JSON Lines record of the game to FILE (an existing record is kept "
             "unless --overwrite is given)")
    add("--overwrite", action="store_true", help="let --record replace an existing file")
    add("--replay", metavar="FILE", help="replay a record, checking every line")
    add("--quiet", action="store_true", help="bots-only games: print only the final placings")
    add("--delay", metavar="SECONDS",
        help="pause before each bot play (default 1 when the output is a terminal, else 0)")
    add("-v", "--version", action="store_true", help="print the version and exit")
    return parser


@dataclass(frozen=True)
class Options:
    rules: Rules
    seats: tuple[str, ...]
    seed: int
    record: str | None
    replay: str | None
    quiet: bool
    delay: float | None
    plain: bool = False
    ascii_only: bool = False
    overwrite: bool = False


def _param(args: argparse.Namespace, name: str) -> Any:
    """The option of the game's parameter ``name`` checked by the parameter (its message)."""
    param = next(param for param in PARAMS if param.name == name)
    if name == "humans":
        param = humans_param(_param(args, "players"))
    try:
        return param.check(getattr(args, name))
    except GameParamsError as error:
        raise UsageError(error.message) from None


def parse_options(argv: Sequence[str]) -> Options | None:
    """The options, or None for --version; raises UsageError for invalid ones."""
    args = build_parser().parse_args(list(argv))
    if args.version:
        return None
    if args.seats is not None:
        kinds = tuple(bot_spec(kind.strip()) for kind in args.seats.split(","))
        if not all(kind in SEAT_KINDS or known_spec("obsession", kind) for kind in kinds):
            raise UsageError(f"--seats must list {', '.join(SEAT_KINDS)} separated by commas "
                             f"(got '{args.seats}')")
        if not 2 <= len(kinds) <= 10:
            raise UsageError(f"--seats must name 2 to 10 seats (got {len(kinds)})")
        players = len(kinds)
    else:
        players = _param(args, "players")
        humans = _param(args, "humans")
        if args.bot not in BOT_NAMES and not is_exec(args.bot):
            # A search bot of the registry (``ismcts:iters=500``): its options checked too.
            refusal = bot_refusal(ObsessionGame.load(players=2), args.bot)
            if refusal is not None:
                raise UsageError(refusal)
        bot = bot_spec(args.bot) if is_exec(args.bot) else args.bot
        kinds = ("human",) * humans + (bot,) * (players - humans)
    kill_order = _param(args, "kill_order")
    rules = Rules(players=players, run_kill=_param(args, "run_kill"), kill_order=kill_order,
                  max_plays=_param(args, "max_plays"), repeat_limit=_param(args, "repeat_limit"))
    seed = seed_option(args.seed)
    delay = delay_option(args.delay)
    if args.quiet and "human" in kinds and args.replay is None:
        raise UsageError("--quiet is for bots-only games (use --humans 0)")
    return Options(rules, kinds, seed, args.record, args.replay, args.quiet, delay,
                   args.plain, args.ascii, args.overwrite)


def main(argv: list[str] | None = None) -> int:
    try:
        options = parse_options(sys.argv[1:] if argv is None else argv)
    except UsageError as error:
        print_error(PROG, str(error))
        return EXIT_USAGE
    except _Exit as done:
        return EXIT_USAGE if done.status else EXIT_OK
    if options is None:
        return say(f"{PROG} (cardtable) {__version__}")
    if sys.stdout is None:
        return EXIT_USAGE  # a closed standard output (``>&-``): nowhere to play
    try:
        if options.replay is not None:
            return replay(options)
        if _full_screen(options):
            return play_full_screen(options)
        return play(options)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, without a traceback at exit.
        silence_stdout()
        return EXIT_USAGE


def _full_screen(options: Options) -> bool:
    """The full screen is for a person at a terminal: both ends a TTY, no --plain, --quiet."""
    streams = (sys.stdin, sys.stdout)
    return (not options.plain and not options.quiet
            and all(stream is not None and stream.isatty() for stream in streams))


def play_full_screen(options: Options) -> int:
    refusal = _record_refusal(options)
    if refusal is not None:
        return _fail(refusal)
    try:
        from cardtable.ui.tui.obsession_app import run_obsession
    except ImportError:
        # Textual is an optional extra; without it the line mode still plays.
        return play(options)
    try:
        return run_obsession(options.rules, options.seats, options.seed, options.delay,
                             options.record, options.ascii_only)
    except GameError as error:  # a program that cannot start, before the screen opens
        return _fail(error.message)


def _fail(message: str) -> int:
    print_error(PROG, message)
    return EXIT_USAGE


def _record_refusal(options: Options) -> str | None:
    """Why ``--record`` may not write its file (one the command reads, or an existing record
    without ``--overwrite``), checked before anything is opened for writing; or None."""
    if options.record is None:
        return None
    return check_record_target(options.record, [("the --replay file", options.replay)],
                               options.overwrite)


def _open_record(path: str | None) -> RecordWriter | None:
    if path is None:
        return None
    try:
        return RecordWriter(path)
    except OSError as error:
        raise UsageError(open_error_message(path, error)) from None


def play(options: Options) -> int:
    refusal = _record_refusal(options)
    if refusal is not None:
        return _fail(refusal)
    # A closed standard input (``<&-``) reads as an immediate end of input.
    console = Console(stdin=sys.stdin if sys.stdin is not None else io.StringIO())
    humans = tuple(kind == "human" for kind in options.seats)
    game = ObsessionState.new(options.rules, humans, options.seed)
    pass_screens = sum(humans) >= 2
    delay = options.delay
    if delay is None:
        # Pauses are for someone watching a terminal; piped output gets none.
        delay = 1.0 if sys.stdout.isatty() else 0.0
    seats: dict[str, Seat] = {}
    for index, kind in enumerate(options.seats):
        if kind == "human":
            seats[seat_name(index)] = HumanSeat(console, pass_screens=pass_screens,
                                                legal=game.legal_actions)
        elif is_exec(kind):
            try:
                seats[seat_name(index)] = external_seat(
                    ObsessionGame(options.rules, sum(humans)), kind, seat_name(index),
                    options.seed, options.record)
            except GameError as error:
                return _fail(error.message)
        else:
            seats[seat_name(index)] = (
                make_bot(kind, index, options.seed) if kind in BOT_NAMES else
                make_seat(ObsessionGame(options.rules, sum(humans)), kind, seat_name(index),
                          options.seed))
    try:
        writer = _open_record(options.record)
    except UsageError as error:
        return _fail(str(error))
    listeners: list[MatchListener] = []
    try:
        if writer is not None:
            listeners.append(RecordListener(writer.write,
                                            header(game, options.seed, options.seats)))
        listeners.append(Table(console, humans, quiet=options.quiet))
        bots = [seat_name(index) for index, human in enumerate(humans) if not human]
        listeners.append(BotPause(bots, delay))  # after the table has shown whose turn it is
        return run(game, seats, listeners, console, options.quiet)
    except RecordWriteError as error:
        # What was written stays in the file; the game cannot go on unrecorded.
        return _fail(error.message)
    finally:
        if writer is not None:
            writer.close()


def run(game: ObsessionState, seats: dict[str, Seat], listeners: list[MatchListener],
        console: Console,
        quiet: bool, replaying: bool = False) -> int:
    """Play ``game`` to its end; Ctrl-C, SIGTERM and SIGHUP record the interruption (cause
    ``interrupt``, ``sigterm``, ``sighup``) and return 128 plus the signal's number."""
    if not quiet:
        console.say(f"@@@ Starting a new game with {game.players} players")
    try:
        with stop_signals():
            result = play_match(game, seats, tuple(listeners))
        forfeited = forfeit_message(result)
        if forfeited is not None:
            console.say(f"!!! {forfeited}")
            for line in forfeit_places(game, result):
                console.say(line)
    except MatchAbandoned as abandoned:
        if replaying:
            # The record of an unfinished game has been shown to its end: as in Caravan.
            console.say(f"!!! {not_finished_message(abandoned.cause)}")
            return EXIT_OK
        if abandoned.cause == QUIT_CAUSE:
            console.say("!!! Game abandoned")
            return EXIT_OK
        console.say("!!! End of input, game abandoned")
        return EXIT_EOF
    except KeyboardInterrupt as stopped:
        interrupted = MatchAbandoned(game.to_move or "", stop_cause(stopped))
        for listener in listeners:
            with contextlib.suppress(RecordError):
                listener.on_abandon(game, interrupted)
        with contextlib.suppress(OSError, ValueError):
            console.say()
            console.say("!!! Interrupted")
        if isinstance(stopped, Stopped):
            say_stopped(stopped, PROG)
        return stop_status(stopped)
    return EXIT_OK


def replay(options: Options) -> int:
    path = options.replay
    assert path is not None
    refusal = _record_refusal(options)
    if refusal is not None:
        return _fail(refusal)
    try:
        lines = read_lines(path)
    except FileTooLarge as error:
        print_error(PROG, f"--replay: cannot read '{path}' ({error.reason})")
        return EXIT_USAGE
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        print_error(PROG, f"--replay: cannot read '{path}' ({reason or error})")
        return EXIT_USAGE
    other = other_game_message(path, lines, "obsession") or not_a_record(path, lines)
    if other is not None:
        return _fail(other)
    try:
        loaded = load(lines, path)
    except ReplayMismatch as mismatch:
        print(f"!!! {mismatch.message}")
        return EXIT_MISMATCH
    if _full_screen(options) and options.record is None:
        status = replay_full_screen(loaded, options)
        if status is not None:
            return status
    script = Script(loaded)
    console = ReplayConsole(script)
    try:
        humans = tuple(kind == "human" for kind in loaded.seats)
        game = ObsessionState(loaded.rules, loaded.deck, humans)
        pass_screens = sum(humans) >= 2
        seats: dict[str, Any] = {
            seat_name(index): ReplaySeat(script, console, humans[index], pass_screens)
            for index in range(loaded.rules.players)
        }
        checker = Checker(loaded)
        listeners: list[MatchListener] = [
            RecordListener(checker, header(game, loaded.seed, loaded.seats))]
        try:
            writer = _open_record(options.record)
        except UsageError as error:
            return _fail(str(error))
        try:
            if writer is not None:
                listeners.append(RecordListener(writer.write,
                                                header(game, loaded.seed, loaded.seats)))
            listeners.append(Table(console, humans, quiet=options.quiet,
                                   pass_screens=pass_screens))
            status = run(game, seats, listeners, console, options.quiet, replaying=True)
        except RecordWriteError as error:
            return _fail(error.message)
        finally:
            if writer is not None:
                writer.close()
        if status != EXIT_OK:
            return status  # interrupted while showing the record: the rest was not checked
        checker.finish()
    except ReplayMismatch as mismatch:
        console.say(f"!!! {mismatch.message}")
        return EXIT_MISMATCH
    except RecordCutShort as cut:
        # The transcript shows the game as far as the record goes; then why it stops.
        print_error(PROG, cut.message)
        return EXIT_MISMATCH
    return status


def replay_full_screen(loaded: LoadedRecord, options: Options) -> int | None:
    """Show a replay on the full screen (None without Textual: the line mode shows it).

    The whole record is checked first; a record that does not replay is refused as in the
    line mode, before the screen opens.
    """
    try:
        from cardtable.ui.tui.obsession_replay import run_obsession_replay
    except ImportError:
        return None
    from cardtable.games.obsession.checked_replay import check_replay

    try:
        checked = check_replay(loaded)
    except ReplayMismatch as mismatch:
        print(f"!!! {mismatch.message}")
        return EXIT_MISMATCH
    return run_obsession_replay(checked, 1.0 if options.delay is None else options.delay,
                                options.ascii_only)


def replay_main(argv: list[str]) -> int:
    """``cardtable replay FILE [OPTIONS]`` of an Obsession record: ``obsession --replay FILE
    [OPTIONS]`` (the description's ``replay_app``)."""
    return main(["--replay", *argv])
