"""``cardtable COMMAND ...``: one entry point for every game and tool."""

from __future__ import annotations

import sys

from cardtable import __version__
from cardtable.cli.streams import silence_stdout
from cardtable.engine.import_path import imported

# command -> ("module:function", one-line description): cardtable's own commands, in the order
# of its help. Each game's own command (its description's ``command``) is named by the game's
# name and listed with them: one that plays the game first, one giving a game's tools after
# GAME_TOOLS_AFTER. Modules are imported only when used, so that every command starts fast.
TOOLS: dict[str, tuple[str, str]] = {
    "tournament": ("cardtable.cli.tournament:main",
                   "bots against bots, with ratings: cardtable tournament GAME --seat ..."),
    "bench": ("cardtable.cli.bench:main", "measure game speed: cardtable bench GAME"),
    "serve": ("cardtable.cli.serve:main", "the web server: play in the browser"),
    "play": ("cardtable.cli.play:main", "play any game in the terminal: cardtable play GAME"),
    "replay": ("cardtable.cli.records:replay_main",
               "replay any game's record, checking every line: cardtable replay FILE"),
    "records": ("cardtable.cli.records:main",
                "records of the former formats: cardtable records upgrade FILE ..."),
}
GAME_TOOLS_AFTER = "bench"


def commands() -> dict[str, tuple[str, str]]:
    """Every command, in the order of the help: cardtable's own and the games' (a game's
    command of the name of one of cardtable's own is left out: that name keeps its meaning)."""
    from cardtable.engine.game_registry import descriptions

    games = [(described.name, described.command) for described in descriptions()
             if described.command is not None and described.name not in TOOLS]
    found = {name: (command.function, command.summary) for name, command in games
             if command.plays}
    for name, entry in TOOLS.items():
        found[name] = entry
        if name == GAME_TOOLS_AFTER:
            found.update((name, (command.function, command.summary)) for name, command in games
                         if not command.plays)
    return found


USAGE = "usage: cardtable COMMAND [ARGS ...]"


def help_text() -> str:
    from textwrap import wrap

    from cardtable.engine.game_registry import descriptions

    listed = commands()
    width = max(len(name) for name in listed)
    lines = [USAGE, "       cardtable            (no arguments: the launcher)", "",
             "commands:"]
    lines += [f"  {name:<{width}}  {summary}" for name, (_, summary) in listed.items()]
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
    # cardtable's own commands are found without reading the games' registry.
    entry = TOOLS.get(args[0]) or commands().get(args[0])
    if entry is None:
        from cardtable.engine.error_line import print_error

        allowed = ", ".join(commands())
        print_error("cardtable", f"unknown command '{args[0]}' (allowed: {allowed}).")
        return 1
    try:
        function = imported(entry[0])
    except (ImportError, AttributeError, ValueError) as error:
        if args[0] in TOOLS:
            raise
        from cardtable.engine.error_line import print_error

        print_error("cardtable", f"the game '{args[0]}' names the command '{entry[0]}', which "
                    f"cannot be loaded ({type(error).__name__}: {error}).")
        return 1
    try:
        result: int = function(args[1:])
    except BrokenPipeError:
        # The reader of the output went away (e.g. piped into head): nothing more to say.
        silence_stdout()
        return 1
    return result


if __name__ == "__main__":
    sys.exit(main())
