"""``cardtable`` with no arguments on a terminal: choose a game and its table, then play it.

The games are the registered ones (``cardtable.games``), each with its column of the form: a
game with a terminal table of its own gives its column and plays there (Caravan, Obsession;
Austerity, whose table of the player programs' strategies is watched); any other game (a
plug-in) gets a column drawn from its description and the generic terminal table
(:mod:`launch`). Only the chosen game's column is shown.

After a game, Ctrl+R plays again (a fresh seed; Austerity rotates the seats) and Esc returns
here, where the wins of the table so far are shown; Esc here leaves.

A seat may be "program (exec:)": a program in any language (docs/bots.md), started with the
command typed in the Program box. A command that cannot be read is refused on the form, one
that cannot start when the game opens (back on the form, with the message).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import os
import signal
import subprocess
import threading
from dataclasses import dataclass, field
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from cardtable.engine.errors import GameError
from cardtable.engine.game_registry import description, descriptions
from cardtable.engine.option_refusals import (
    delay_refusal,
    delay_seconds,
    seed_refusal,
    seed_value,
)
from cardtable.engine.randomness import fresh_seed
from cardtable.ui.stop_signals import Stopped, say_stopped, stop_signals_for_app, stop_status
from cardtable.ui.tui.common import EXIT_INTERRUPTED, NO_COLOUR_CSS, TableApp, without_colour
from cardtable.ui.tui.generic_launch import game_form
from cardtable.ui.tui.launch import (
    PROGRAMS,
    RECORD,
    SEED,
    GameForm,
    LaunchTable,
    Shared,
)
from cardtable.ui.tui.record_question import ConfirmOverwrite, free_record, records_to_replace
from cardtable.ui.tui.result_lines import tally_entry
from cardtable.ui.tui.tally import WinTally
from cardtable.ui.tui.theme import FOCUS_CSS

SHARED_FIELDS = (SEED, RECORD, PROGRAMS)
"""The shared fields a game may leave unused (the others: the delay, the ASCII box)."""


@dataclass(frozen=True)
class Choice:
    """A game ready to start, as chosen on the launcher: the game's table (its form's), and
    the shared fields."""

    game: str
    seed: int | None
    delay: float
    ascii_only: bool
    table: Any
    """The game's :class:`~cardtable.ui.tui.launch.LaunchTable`."""
    record: str | None = None
    overwrite: bool = False
    """The player agreed to replace existing record files."""
    form: dict[str, Any] = field(default_factory=dict)
    """The launcher's fields as they were typed, shown again when the player comes back."""

    def next_game(self) -> Choice:
        """What Ctrl+R plays: a fresh seed, the table the game plays next."""
        table: LaunchTable = self.table
        return dataclasses.replace(self, seed=None, table=table.next_table())


def forms() -> list[GameForm]:
    """Every registered game's part of the launcher, in the games' order."""
    return [game_form(described) for described in descriptions()]


def numbered(path: str, game: int) -> str:
    """Where the ``game``-th game of one launch is recorded: ``path`` for the first, then
    ``game-2.jsonl``, ``game-3.jsonl``, ... beside it, so that playing again keeps every record."""
    if game <= 1:
        return path
    stem, dot, suffix = path.rpartition(".")
    if not dot or "/" in suffix or not stem or stem.endswith("/"):
        return f"{path}-{game}"
    return f"{stem}-{game}.{suffix}"


PROGRAM_CHECK_SECONDS = 5.0
"""How long the launcher waits for a program's ``ready`` when it checks the program's game."""


def program_game(command: str, hello: dict[str, Any]) -> str | None:
    """The game a program says it plays: start ``command`` (the Program box's), say ``hello``
    and read its ``ready`` (docs/bots.md: its optional ``game``), then end it. None when the
    answer names no game, or when there is no answer in time (the game's own start reports
    a program that cannot start or answer)."""
    from cardtable.agents.external import split_command
    from cardtable.agents.registry import UnknownBot

    try:
        words = split_command(command)
        process = subprocess.Popen(words, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, process_group=0)
    except (OSError, UnknownBot):
        return None
    lines: list[bytes] = []

    def read() -> None:
        assert process.stdout is not None
        with contextlib.suppress(OSError, ValueError):
            lines.append(process.stdout.readline(1 << 20))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert process.stdin is not None
        with contextlib.suppress(OSError):
            process.stdin.write(json.dumps(hello).encode() + b"\n")
            process.stdin.flush()
        reader.join(PROGRAM_CHECK_SECONDS)
    finally:
        with contextlib.suppress(OSError):
            process.stdin.close()  # type: ignore[union-attr]
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(5)
    try:
        ready = json.loads(lines[0]) if lines else None
    except ValueError:
        return None
    game = ready.get("game") if isinstance(ready, dict) else None
    return game if isinstance(game, str) else None


def check_program_game(choice: Choice) -> None:
    """Refuse (ValueError with the form's message) a table whose program says it plays
    another game (a Caravan program for Obsession's bots, say)."""
    table: LaunchTable = choice.table
    title = description(choice.game).title
    checked: set[str] = set()
    for seat, command in table.programs().items():
        if command in checked:
            continue
        checked.add(command)
        game = program_game(command, table.hello(seat))
        if game is not None and game.strip().lower() != choice.game:
            article = "an" if title.startswith(("A", "E", "I", "O", "U")) else "a"
            raise ValueError(f"The program plays {game[:20]}, not {title}: choose {article} "
                             f"{title} program.")


def build_choice(values: dict[str, Any]) -> Choice:
    """The chosen game from the form's values; raises ValueError with a message to show."""
    name = str(values["game"])
    form = game_form(description(name))
    seed: int | None = None
    if SEED in form.uses:
        seed_text = str(values.get(SEED, "") or "")
        if seed_text.strip():
            seed = seed_value(seed_text)
            if seed is None:
                raise ValueError(seed_refusal("Seed", seed_text))
    delay_text = str(values.get("delay", "1")).strip() or "1"
    delay = delay_seconds(delay_text)
    if delay is None or delay < 0:
        raise ValueError(delay_refusal("Bot delay", delay_text))
    ascii_only = bool(values.get("ascii", False))
    record = (str(values.get(RECORD, "") or "").strip() or None) if RECORD in form.uses else None
    table = form.table(Shared(seed, delay, ascii_only, record, values))
    return Choice(name, seed, delay, ascii_only, table, record)


def hint_for(widget: Widget | None) -> str:
    """The line under the form: how to move, what Enter does on ``widget`` (the field with
    the keyboard), how to start and how to leave."""
    if isinstance(widget, Select):
        if widget.expanded:
            return "Up/Down choose · Enter picks · Esc closes the list"
        return "Enter opens this list · Tab to Play, then Enter, starts · Esc quits"
    if isinstance(widget, Checkbox):
        return "Enter or Space ticks · Tab to Play, then Enter, starts · Esc quits"
    if isinstance(widget, Button) and widget.id == "quit":
        return "Tab moves between fields · Enter quits · Esc quits"
    return "Tab moves between fields · Enter starts · Esc quits"


class MarkedCheckbox(Checkbox):
    """A checkbox whose mark shows its state (``X`` or blank): readable without colour."""

    def __init__(self, label: str, value: bool = False, *, id: str | None = None) -> None:
        super().__init__(label, value, id=id)
        self.BUTTON_INNER = "X" if value else " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = "X" if self.value else " "
        super().watch_value()
        self.refresh()


class LauncherApp(App[Choice | None]):
    """The form: the shared settings, the chosen game's column, Play or Esc."""

    TITLE = "cardtable"
    CSS = """
    Screen { align: center top; }
    #form { width: 80; height: auto; max-height: 100%; }
    #title { height: 1; text-align: center; text-style: bold; }
    Grid { grid-size: 2; grid-columns: 15 1fr; grid-rows: 1; grid-gutter: 0 0; height: auto; }
    Grid Label { padding: 0 1; }
    Input { border: none; height: 1; padding: 0 1; background: $boost; }
    Select { height: 1; }
    SelectCurrent { border: none; height: 1; padding: 0 1; background: $boost; }
    SelectOverlay { max-height: 8; }
    .column { width: 100%; height: auto; border: round $foreground 40%; }
    #tally { height: auto; text-align: center; }
    #shared { height: auto; border: round $foreground 40%; }
    Checkbox { border: none; height: 1; padding: 0 1; }
    #buttons { height: 1; align: center middle; }
    Button { border: none; height: 1; min-width: 12; margin: 0 2; }
    #message { height: 1; color: $error; text-align: center; }
    #hint { height: 1; color: $text-muted; text-align: center; }
    """ + FOCUS_CSS + NO_COLOUR_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Quit", priority=True),
        Binding("ctrl+q", "leave", "Quit", show=False, priority=True),
        Binding("ctrl+c", f"leave({EXIT_INTERRUPTED})", "Quit", show=False, priority=True),
    ]

    def __init__(self, last: Choice | None = None, tally: WinTally | None = None,
                 message: str | None = None) -> None:
        super().__init__()
        without_colour(self)
        self.last = last
        self.tally = tally
        self.message = message
        """Why the last choice could not be played (a program that cannot start), or None."""
        self.status = 0
        """130 after Ctrl+C (nothing was being played: the launcher leaves at once)."""
        self.forms = {form.name: form for form in forms()}

    @staticmethod
    def column_id(name: str) -> str:
        from cardtable.ui.tui.generic_launch import field_prefix

        return "column-" + field_prefix(name)

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static("cardtable: choose a game", id="title")
            with Grid(id="shared"):
                yield Label("Game")
                yield Select([(form.label, name) for name, form in self.forms.items()],
                             value=next(iter(self.forms)), allow_blank=False, id="game")
                yield Label("Seed")
                yield Input(placeholder="empty = random", id="seed", restrict=r"[0-9]*")
                yield Label("Bot delay (s)")
                yield Input("1", id="delay", restrict=r"[0-9.]*")
                yield Label("Record to")
                yield Input(placeholder="optional .jsonl file", id="record")
            for name, form in self.forms.items():
                with Grid(classes="column", id=self.column_id(name)):
                    yield from form.compose()
            with Grid(classes="column", id="programs"):
                yield Label("Command")
                yield Input(placeholder="for program seats", id="program")
            yield MarkedCheckbox("ASCII suits (S H D C) and borders", id="ascii")
            yield Static("", id="tally")
            yield Static("", id="message")
            with Horizontal(id="buttons"):
                yield Button("Play", variant="primary", id="play")
                yield Button("Quit", id="quit")
            yield Static(hint_for(None), id="hint")

    def on_mount(self) -> None:
        for name in self.forms:
            self.query_one(f"#{self.column_id(name)}", Grid).border_title = (
                f" {description(name).title} ")
        self.query_one("#shared", Grid).border_title = " Game "
        self.query_one("#programs", Grid).border_title = " Program (docs/bots.md) "
        last = self.last
        if last is not None:
            self.query_one("#game", Select).value = last.game
            self.query_one("#delay", Input).value = f"{last.delay:g}"
            self.query_one("#ascii", Checkbox).value = last.ascii_only
            for widget in self.query("Select, Input, Checkbox"):
                if widget.id in last.form:  # every field as the player left it
                    widget.value = last.form[widget.id]  # type: ignore[attr-defined]
        if self.tally is not None:
            self.query_one("#tally", Static).update(self.tally.line())
        if self.message is not None:
            self.query_one("#message", Static).update(self.message)
        self.sync_fields()
        self.query_one("#play", Button).focus()
        self.watch(self.screen, "focused", self.show_hint)

    def show_hint(self, focused: Widget | None = None) -> None:
        """Say what Enter does where the keyboard is (on a list it opens the list)."""
        if self.screen is not self.screen_stack[0]:
            return
        widget = focused or self.focused
        if widget is not None and isinstance(widget.parent, Select):
            widget = widget.parent  # the open list of a drop-down
        self.query_one("#hint", Static).update(hint_for(widget))

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "game":
            self.sync_fields()
        self.show_hint()

    def sync_fields(self) -> None:
        """Only the chosen game's column shows; the shared fields it does not use are off."""
        game = str(self.query_one("#game", Select).value)
        form = self.forms[game]
        for name in self.forms:
            column = self.query_one(f"#{self.column_id(name)}", Grid)
            column.display = name == game
            for widget in column.query("Input, Select"):
                widget.disabled = name != game
        for field_id in SHARED_FIELDS:
            self.query_one(f"#{field_id}", Widget).disabled = field_id not in form.uses
        self.query_one("#programs", Grid).display = PROGRAMS in form.uses

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for widget in self.query("Select, Input, Checkbox"):
            if widget.id is not None:
                out[widget.id] = getattr(widget, "value", None)
        return out

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a text field plays, as Enter on Play does."""
        self.play()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "quit":
            self.exit(None)
            return
        self.play()

    def play(self) -> None:
        """Check the form, then start the chosen game."""
        values = self.values()
        try:
            choice = dataclasses.replace(build_choice(values), form=values)
            check_program_game(choice)
        except ValueError as error:
            self.query_one("#message", Static).update(str(error))
            return
        existing = [] if choice.record is None else records_to_replace(choice.record, numbered)
        if not existing:
            self.start(choice)
            return

        def answer(replace: bool | None) -> None:
            if replace:
                self.start(dataclasses.replace(choice, overwrite=True))
            else:
                self.query_one("#message", Static).update(
                    "The record files were kept: choose another record file.")

        self.push_screen(ConfirmOverwrite(existing), answer)

    def start(self, choice: Choice) -> None:
        """Leave the form for ``choice`` (anything to confirm was asked before this)."""
        self.exit(choice)

    def action_leave(self, status: int = 0) -> None:
        """Esc or Ctrl+Q leave with 0, Ctrl+C with 130; nothing is being played here. On the
        question about existing record files, Esc answers no."""
        if isinstance(self.screen, ConfirmOverwrite):
            self.screen.dismiss(False)
            return
        if status == 0:
            for select in self.query(Select):
                if select.expanded:  # Esc on an open list closes it; the form stays
                    select.expanded = False
                    select.focus()
                    return
        self.status = status
        self.exit(None)


def play_choice(choice: Choice, game: int = 1,
                tally: WinTally | None = None) -> tuple[int, bool]:
    """Play the chosen game once (the ``game``-th of this choice, which numbers its record);
    returns (status, play again?). ``tally`` holds the wins of the earlier games (the
    Austerity screen shows it at the end)."""
    seed = fresh_seed() if choice.seed is None else choice.seed
    record = None
    if choice.record is not None:
        record = (numbered(choice.record, game) if choice.overwrite
                  else free_record(choice.record, game, numbered))
    table: LaunchTable = choice.table
    return table.play(seed, choice.delay, record, choice.ascii_only, tally)


def count_win(tally: WinTally) -> None:
    """Add the game that just closed to ``tally`` (unfinished games are not counted)."""
    app = TableApp.last_closed
    TableApp.last_closed = None
    entry = None if app is None else tally_entry(app)
    if entry is not None:
        tally.add(*entry)


def main() -> int:
    """Run the launcher until the player leaves it; returns the exit status (0, or 130 after
    Ctrl+C, or the status of a game that did not end normally)."""
    last: Choice | None = None
    tally: WinTally | None = None
    message: str | None = None
    while True:
        form = LauncherApp(last, tally, message)
        message = None
        with stop_signals_for_app(functools.partial(form.exit, None)) as received:
            choice = form.run()
        if received:  # SIGTERM or SIGHUP: the screen is closed, say why and stop
            say_stopped(Stopped(received[0]), "cardtable")
            return stop_status(Stopped(received[0]))
        if choice is None:
            return form.status
        last = choice
        tally = WinTally()  # a new table: its own count of wins
        again = True
        played = 0
        while again:
            played += 1
            try:
                status, again = play_choice(choice, played, tally)
            except GameError as error:  # a program that cannot start: say so on the form
                message = error.message
                break
            count_win(tally)
            if status:
                return status
            # Play again: the same table with a fresh seed (Austerity: the seats rotated).
            choice = choice.next_game()
