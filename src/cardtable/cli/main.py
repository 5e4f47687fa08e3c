"""``cardtable COMMAND ...``: one entry point for every game and tool."""

from __future__ import annotations

import importlib
import sys

from cardtable import __version__
from cardtable.cli.streams import silence_stdout

# command -> (module, function, one-line description). Modules are imported only when used,
# so that every command starts fast.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "caravan": ("cardtable.cli.caravan", "main", "play Caravan (see: caravan --help)"),
    "obsession": ("cardtable.cli.obsession", "main", "play Obsession (see: obsession --help)"),
    "tournament": ("cardtable.cli.tournament", "main",
                   "bots against bots, with ratings: cardtable tournament GAME --seat ..."),
    "bench": ("cardtable.cli.bench", "main", "measure game speed: cardtable bench GAME"),
    "austerity": ("cardtable.cli.austerity", "main",
                  "Austerity tools: cardtable austerity simulate ..."),
    "serve": ("cardtable.cli.serve", "main", "the web server: play in the browser"),
    "play": ("cardtable.cli.play", "main", "play any game in the terminal: cardtable play GAME"),
    "replay": ("cardtable.cli.records", "replay_main",
               "replay any game's record, checking every line: cardtable replay FILE"),
    "records": ("cardtable.cli.records", "main",
                "records of the former formats: cardtable records upgrade FILE ..."),
}

USAGE = "usage: cardtable COMMAND [ARGS ...]"


def help_text() -> str:
    from textwrap import wrap

    from cardtable.engine.game_registry import descriptions

    width = max(len(name) for name in COMMANDS)
    lines = [USAGE, "       cardtable            (no arguments: the launcher)", "",
             "commands:"]
    lines += [f"  {name:<{width}}  {info[2]}" for name, info in COMMANDS.items()]
    games = descriptions()
    lines += ["", "games: " + ", ".join(described.name for described in games)]
    lines += ["", "Run 'cardtable COMMAND --help' for the options of a command."]
    titles = ", ".join(described.title for described in games)
    lines += wrap("'cardtable' with no arguments on a terminal opens the full-screen launcher: "
                  f"choose a game ({titles}) and its table, then play it (the full-screen "
                  "extra, Textual, is needed; elsewhere it prints this help).", 88,
                  break_on_hyphens=False)
    return "\n".join(lines)


def say(text: str) -> int:
    """Print ``text`` (help, version): 0, or 1 quietly when the reader went away (``| head``)."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        silence_stdout()
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        if sys.stdin is not None and sys.stdout is not None \
                and sys.stdin.isatty() and sys.stdout.isatty():
            try:
                from cardtable.ui.tui.launcher import main as launcher
            except ImportError:  # the full screen is an optional extra (Textual)
                pass
            else:
                return launcher()
        return say(help_text())
    if args[0] in ("-h", "--help"):
        return say(help_text())
    if args[0] in ("-v", "--version"):
        return say(__version__)
    entry = COMMANDS.get(args[0])
    if entry is None:
        from cardtable.engine.error_line import print_error

        print_error("cardtable", f"unknown command '{args[0]}' (allowed: {', '.join(COMMANDS)}).")
        return 1
    module = importlib.import_module(entry[0])
    try:
        result: int = getattr(module, entry[1])(args[1:])
    except BrokenPipeError:
        # The reader of the output went away (e.g. piped into head): nothing more to say.
        silence_stdout()
        return 1
    return result


if __name__ == "__main__":
    sys.exit(main())
