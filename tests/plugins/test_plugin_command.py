"""``cardtable NAME ...``: a game's own command comes from its description (``command``), for the
built-in games as for a game from outside; a game that names none has no command of its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardtable.cli.main import main
from cardtable.engine import game_registry
from cardtable.engine.description import GameCommand, GameDescription

ALLOWED = ("(allowed: caravan, obsession, tournament, bench, austerity, serve, play, replay, "
           "records).")
COMMANDS = """commands:
  caravan     play Caravan (see: caravan --help)
  obsession   play Obsession (see: obsession --help)
  tournament  bots against bots, with ratings: cardtable tournament GAME --seat ...
  bench       measure game speed: cardtable bench GAME
  austerity   Austerity tools: cardtable austerity simulate ...
  serve       the web server: play in the browser
  play        play any game in the terminal: cardtable play GAME
  replay      replay any game's record, checking every line: cardtable replay FILE
  records     records of the former formats: cardtable records upgrade FILE ...
"""

heard: list[list[str]] = []


def echo(args: list[str]) -> int:
    """The command of the test games: remembers its arguments, returns 7."""
    heard.append(args)
    return 7


class Echoing(GameDescription):
    title = "Echo"

    def __init__(self, name: str, command: GameCommand | None) -> None:
        self.name = name
        self.command = command


@pytest.fixture
def registered() -> Iterator[list[str]]:
    """Register the test games given to it; forget them afterwards."""
    names: list[str] = []
    heard.clear()
    yield names
    for name in names:
        game_registry.unregister(name)


def add(names: list[str], name: str, command: GameCommand | None) -> None:
    game_registry.register(Echoing(name, command))
    names.append(name)


def test_the_help_lists_the_built_in_games_commands_among_cardtables_own(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert COMMANDS in capsys.readouterr().out


def test_a_game_that_names_no_command_has_none(capsys: pytest.CaptureFixture[str]) -> None:
    assert game_registry.description("kuhn_poker").command is None
    assert main(["kuhn_poker"]) == 1
    assert capsys.readouterr().err == f"cardtable: unknown command 'kuhn_poker' {ALLOWED}\n"


def test_a_game_from_outside_that_names_a_command_has_it(
        registered: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    add(registered, "echo_play", GameCommand(f"{__name__}:echo", "play Echo"))
    add(registered, "echo_tools", GameCommand(f"{__name__}:echo", "Echo tools", plays=False))
    assert main(["echo_play", "--seed", "3"]) == 7
    assert main(["echo_tools"]) == 7
    assert heard == [["--seed", "3"], []]
    assert main(["--help"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("commands:") + 1
    listed = [line.split()[0] for line in lines[start:lines.index("", start)]]
    # A command that plays its game comes with the others that do, tools after bench.
    assert listed == ["caravan", "obsession", "echo_play", "tournament", "bench", "austerity",
                      "echo_tools", "serve", "play", "replay", "records"]
    assert "  echo_play   play Echo" in lines and "  echo_tools  Echo tools" in lines


def test_cardtables_own_command_keeps_its_name(
        registered: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    add(registered, "records", GameCommand(f"{__name__}:echo", "not the records"))
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert COMMANDS in out and "not the records" not in out
    assert main(["records"]) == 1 and heard == []
    assert capsys.readouterr().err.startswith("cardtable records: a command is needed")


def test_a_command_that_cannot_be_loaded_is_one_error_line(
        registered: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    add(registered, "echo_lost", GameCommand("no_such_module_here:main", "lost"))
    assert main(["echo_lost"]) == 1
    assert capsys.readouterr().err == (
        "cardtable: the game 'echo_lost' names the command 'no_such_module_here:main', which "
        "cannot be loaded (ModuleNotFoundError: No module named 'no_such_module_here').\n")
