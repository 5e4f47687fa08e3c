"""What the launcher knows of one game: its column of the form, how the form's values make a
table to play, and how that table is played.

A game with a terminal table of its own names a function returning its :class:`GameForm` in its
description (``terminal_app``, ``"package.module:function"``); any other game gets the generic
form, drawn from its parameters and bots, and is played on the generic terminal table
(:func:`cardtable.ui.tui.generic_launch.game_form` gives each game its form). The launcher
itself never asks a game's name for anything but a label.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from textual.app import ComposeResult

from cardtable.engine.description import Param
from cardtable.engine.errors import GameParamsError
from cardtable.engine.game_registry import description
from cardtable.ui.tui.tally import WinTally

PROGRAM = "exec"
"""The value of "program (exec:)" in the seat lists: the seat runs the Program box's command."""
PROGRAM_CHOICE = ("program (exec:)", PROGRAM)
SEED, RECORD, PROGRAMS = "seed", "record", "program"
"""The shared fields a game may use besides the delay and the ASCII box."""


@dataclass(frozen=True)
class Shared:
    """The form's shared fields, checked, and every field's value as typed (the game's own
    fields are read from ``values`` by their ids)."""

    seed: int | None
    delay: float
    ascii_only: bool
    record: str | None
    values: Mapping[str, Any]


class LaunchTable(Protocol):
    """A table ready to play, made by a :class:`GameForm` from the form."""

    def programs(self) -> dict[str, str]:
        """``{seat: COMMAND}`` for each seat a program plays (started only when played)."""
        ...

    def hello(self, seat: str) -> dict[str, Any]:
        """The ``hello`` the program at ``seat`` will be greeted with (docs/bots.md)."""
        ...

    def play(self, seed: int, delay: float, record: str | None, ascii_only: bool,
             tally: WinTally | None) -> tuple[int, bool]:
        """Play one game on the full screen; (exit status, play again?). Raises the
        ``GameError`` of a program that cannot start, before the screen opens."""
        ...

    def next_table(self) -> LaunchTable:
        """The table Ctrl+R plays next (the same one, or the seats rotated)."""
        ...


class GameForm(Protocol):
    """One game's part of the launcher."""

    name: str
    label: str
    """The game in the Game list."""
    uses: frozenset[str]
    """The shared fields the game uses (:data:`SEED`, :data:`RECORD`, :data:`PROGRAMS`)."""

    def compose(self) -> ComposeResult:
        """The game's column: a label and a field per row (ids unique in the form)."""
        ...

    def table(self, shared: Shared) -> LaunchTable:
        """The table the form's values describe; raises ValueError with the message to show."""
        ...


def field_value(param: Param, label: str, value: object) -> Any:
    """``value`` of a form field for ``param``, checked by the parameter; a refusal is the
    parameter's one message, named as the form names the field (``Players must be an integer
    from 2 to 10 (got '12')``), as a ValueError."""
    try:
        return param.check(value)
    except GameParamsError as error:
        message = error.message
        if message.startswith(param.option):
            message = label + message[len(param.option):]
        raise ValueError(message) from None


def program_spec(values: Mapping[str, Any], who: str) -> str:
    """``exec:COMMAND`` for a seat set to "program (exec:)" (``who`` names it in messages),
    from the Program box; raises ValueError when the box is empty or cannot be read. The
    program is not started here."""
    from cardtable.agents.external import split_command
    from cardtable.agents.registry import UnknownBot

    command = str(values.get(PROGRAMS, "") or "").strip()
    if not command:
        raise ValueError(f"{who} plays a program: type its command in the Program box.")
    try:
        split_command(command)
    except UnknownBot as error:
        raise ValueError(error.message) from None
    return f"{PROGRAM}:{command}"


def external_adapter(name: str) -> Any:
    """The game's face for programs (its description's), or None."""
    found = description(name).external()
    if found is not None:
        return found
    try:  # the bot protocol's own table, for a description that does not give its adapter
        table = importlib.import_module("cardtable.agents.external_games")
    except ImportError:
        return None
    adapter = getattr(table, "adapter", None)
    return None if adapter is None else adapter(name)


def hello(game: Any, seat: str) -> dict[str, Any]:
    """The ``hello`` a program at ``seat`` of the loaded ``game`` is greeted with, as the table
    will send it: the game, the seats, the rules, the clock."""
    from cardtable.agents.external import PROTOCOL, Limits

    limits = Limits.from_environment()
    clock = {"move_ms": limits.move_ms, "hard_ms": limits.hard_ms, "warnings": 0,
             "max_warnings": limits.warnings}
    adapter = external_adapter(game.name)
    rules = {} if adapter is None else adapter.rules_json(game)
    return {"type": "hello", "protocol": PROTOCOL, "game": game.name, "seat": seat,
            "seats": list(game.seats), "rules": rules, "clock": clock}


def check_record_path(path: str) -> None:
    """Raise ValueError with the line mode's message when ``path`` cannot be written."""
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        raise ValueError(
            f"Cannot open record file '{path}': {error.strerror or error}.") from None
