"""``cardtable austerity simulate ...`` (many games in one process) and ``cardtable austerity hub``.

``hub`` is an alias of the ``austerity`` program. ``simulate`` checks its options here and
reports every problem as one error line with exit status 1 (``--help`` shows the usage);
unusable deck files give the hub's own messages and statuses (3, 4).
"""

from __future__ import annotations

import json
import sys

from cardtable.cli.streams import silence_stdout
from cardtable.engine.error_line import print_error
from cardtable.engine.option_refusals import unknown_bot_message
from cardtable.games.austerity.codec import parse_argument
from cardtable.games.austerity.deck import DeckError, load_deck
from cardtable.games.austerity.rules import Card
from cardtable.games.austerity.simulate import (
    DEFAULT_MAX_TURNS,
    PERMUTE_LIMIT,
    SEATINGS,
    Summary,
    count_permutations,
    plan,
    plan_size,
    play_game,
    run,
    seatings,
)
from cardtable.games.austerity.strategies import STRATEGIES
from cardtable.ui.progress import Progress

USAGE = """\
usage: cardtable austerity simulate --deck FILE [--deck FILE ...] --tokens LIST --points LIST
           --players NAME,NAME[,...] [--seating fixed|rotate|permute] [--max-turns N]
           [--json] [--transcript]
       cardtable austerity hub [--timeout SECONDS] [--record FILE] [--] tokens points deck \
player player [player ...]
LIST: comma-separated numbers or inclusive ranges, e.g. 3-10 or 5,10,15.
NAME: shenzi, banzai or ed (2 to 26 players)."""

EXIT_OPTIONS = 1
PROG = "cardtable austerity"
SIMULATE = f"{PROG} simulate"
HINT = f"see '{PROG} --help'"


class OptionError(Exception):
    """A bad simulate option; the message names the option and the problem."""

    hint = True
    """Whether the message sends to the help (not when it says what is allowed already)."""


class UnknownPlayer(OptionError):
    """A player of ``--players`` that is no strategy: the unknown bot's refusal of every
    program."""

    hint = False


def parse_list(option: str, text: str) -> list[range]:
    """``3-10,15`` -> ``[range(3, 11), range(15, 16)]``; numbers follow the hub's rule."""
    ranges = []
    for item in text.split(","):
        low_text, dash, high_text = item.partition("-")
        low = parse_argument(low_text)
        high = parse_argument(high_text) if dash else low
        if low < 0 or high < 0:
            raise OptionError(f"{option}: '{item}' is not a number or a range A-B")
        if high < low:
            raise OptionError(f"{option}: range '{item}' is empty")
        ranges.append(range(low, high + 1))
    return ranges


def parse_simulate(argv: list[str]) -> dict[str, object]:
    """The options as a dict; raises :class:`OptionError` on the first problem."""
    options: dict[str, object] = {"decks": [], "seating": "rotate", "max_turns": DEFAULT_MAX_TURNS,
                                  "json": False, "transcript": False}
    with_value = {"--deck", "--tokens", "--points", "--players", "--seating", "--max-turns"}
    seen: set[str] = set()
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("--json", "--transcript"):
            options[arg[2:]] = True
            continue
        if arg not in with_value:
            raise OptionError(f"unknown option '{arg}'")
        if not args:
            raise OptionError(f"{arg} needs a value")
        value = args.pop(0)
        if arg != "--deck" and arg in seen:
            raise OptionError(f"{arg} given twice")
        seen.add(arg)
        if arg == "--deck":
            decks = options["decks"]
            assert isinstance(decks, list)
            decks.append(value)
        elif arg == "--tokens":
            options["tokens"] = parse_list(arg, value)
        elif arg == "--points":
            options["points"] = parse_list(arg, value)
        elif arg == "--players":
            names = value.split(",")
            unknown = [name for name in names if name not in STRATEGIES]
            if unknown:
                raise UnknownPlayer(unknown_bot_message(unknown[0], "austerity",
                                                             list(STRATEGIES)))
            if not 2 <= len(names) <= 26:
                raise OptionError("--players: 2 to 26 players are needed")
            options["players"] = names
        elif arg == "--seating":
            if value not in SEATINGS:
                raise OptionError(f"--seating: '{value}' is not one of {', '.join(SEATINGS)}")
            options["seating"] = value
        else:
            turns = parse_argument(value)
            if turns < 1:
                raise OptionError(f"--max-turns: '{value}' is not a positive number")
            options["max_turns"] = turns
    required = {"decks": "--deck", "tokens": "--tokens", "points": "--points",
                "players": "--players"}
    for key, option in required.items():
        if not options.get(key):
            raise OptionError(f"{option} is required")
    lineup = options["players"]
    assert isinstance(lineup, list)
    if options["seating"] == "permute" and count_permutations(lineup) > PERMUTE_LIMIT:
        raise OptionError(f"--seating permute: more than {PERMUTE_LIMIT} orderings")
    return options


def simulate(argv: list[str]) -> int:
    if argv in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    try:
        options = parse_simulate(argv)
    except OptionError as error:
        print_error(SIMULATE, f"{error} ({HINT})" if error.hint else str(error))
        return EXIT_OPTIONS
    paths = options["decks"]
    tokens = options["tokens"]
    points = options["points"]
    names = options["players"]
    seating = options["seating"]
    max_turns = options["max_turns"]
    assert isinstance(paths, list) and isinstance(tokens, list) and isinstance(points, list)
    assert isinstance(names, list) and isinstance(seating, str) and isinstance(max_turns, int)
    decks: list[list[Card]] = []
    for path in paths:
        try:
            decks.append(load_deck(path))
        except DeckError as error:
            print_error(SIMULATE, error.message)
            return error.status
    lineups = seatings(names, seating)
    total = plan_size(decks, tokens, points, lineups)
    if options["transcript"]:
        if total != 1:
            print_error(SIMULATE, f"--transcript needs exactly one game "
                                  f"(these options give {total})")
            return EXIT_OPTIONS
        deck, token_count, target, lineup = next(plan(decks, tokens, points, lineups))
        lines: list[str] = []
        result = play_game(deck, token_count, target, lineup, max_turns, transcript=lines)
        sys.stdout.write("".join(lines))
        sys.stdout.flush()
        if not result.finished:
            print_error(SIMULATE, f"game unfinished after {result.turns} turns")
            return 1
        return 0
    with Progress(total, "games") as progress:
        summary: Summary = run(plan(decks, tokens, points, lineups), max_turns, progress.advance)
    if options["json"]:
        print(json.dumps(summary.as_dict(), separators=(",", ":")))
    else:
        sys.stdout.write(summary.table())
    return 0


def main(argv: list[str]) -> int:
    """``cardtable austerity simulate|hub ...``."""
    if not argv:
        print_error(PROG, f"a command is needed: simulate or hub ({HINT})")
        return EXIT_OPTIONS
    if argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if argv[0] == "simulate":
        try:
            return simulate(argv[1:])
        except BrokenPipeError:
            silence_stdout()
            return 1
    if argv[0] == "player":
        from cardtable.cli.austerity_strategy import player

        return player(argv[1:])
    if argv[0] == "hub":
        from cardtable.games.austerity.hub import main as hub_main

        return hub_main(argv[1:])
    print_error(PROG, f"unknown command '{argv[0]}' (allowed: simulate, hub, player; {HINT})")
    return EXIT_OPTIONS
