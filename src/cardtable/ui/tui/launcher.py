"""``cardtable`` with no arguments on a terminal: choose a game and its table, then play
(Caravan, Obsession) or watch (Austerity: a table of the player programs' strategies).

After a game, Ctrl+R plays again (a fresh seed; Austerity rotates the seats) and Esc returns
here, where the wins of the table so far are shown; Esc here leaves.

A Caravan seat or Obsession's bots may be "program (exec:)": a program in any language
(docs/bots.md), started with the command typed in the Program box. A command that cannot be
read is refused on the form, one that cannot start when the game opens (back on the form, with
the message).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import math
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

from cardtable.agents.external_cli import EXEC_PREFIX, is_exec
from cardtable.cli.delay import MAX_DELAY_SECONDS, too_long_text
from cardtable.engine.errors import GameError
from cardtable.engine.randomness import fresh_seed
from cardtable.engine.record_target import check_record_target
from cardtable.engine.seed_option import seed_value
from cardtable.games.caravan.bots import BOTS as CARAVAN_BOTS
from cardtable.games.caravan.deck import (
    check_deck_size,
    check_samples,
    check_supply,
    read_deck_file,
)
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.rules_assembly import assemble_rules
from cardtable.games.obsession.bots import BOT_NAMES as OBSESSION_BOTS
from cardtable.games.obsession.rules import Rules as ObsessionRules
from cardtable.ui.stop_signals import Stopped, say_stopped, stop_signals_for_app, stop_status
from cardtable.ui.tui.austerity_app import BUNDLED_DECK, AusterityTable, build_table
from cardtable.ui.tui.common import EXIT_INTERRUPTED, NO_COLOUR_CSS, TableApp, without_colour
from cardtable.ui.tui.record_question import ConfirmOverwrite, free_record, records_to_replace
from cardtable.ui.tui.result_lines import tally_entry
from cardtable.ui.tui.tally import WinTally
from cardtable.ui.tui.theme import FOCUS_CSS

SEARCH_BOTS = ("ismcts",)
"""Search bots the launcher offers besides each game's own (docs/bots-search.md)."""

GAMES = ("caravan", "obsession", "austerity")
FIELDS = {
    "caravan": ("abc", "def", "preset", "rules_file", "deck", "first"),
    "obsession": ("players", "humans", "bot", "run_kill"),
    "austerity": ("lineup", "austerity_deck", "tokens", "points"),
}
"""The form's fields of each game (the others are disabled while it is chosen)."""
NOT_FOR_AUSTERITY = ("seed", "record", "program")
"""Shared fields that an Austerity game does not use (it has no chance; no record; its
player programs are chosen by name)."""
PROGRAM = "exec"
"""The value of "program (exec:)" in the seat lists: the seat runs the Program box's command."""
PROGRAM_CHOICE = ("program (exec:)", PROGRAM)


@dataclass(frozen=True)
class Choice:
    """A game ready to start, as chosen on the launcher."""

    game: str
    seed: int | None
    delay: float
    ascii_only: bool
    caravan_rules: SeatRules | None = None
    caravan_players: tuple[str, str] = ("human", "bot:normal")
    first: int = 0
    obsession_rules: ObsessionRules | None = None
    obsession_seats: tuple[str, ...] = field(default_factory=tuple)
    record: str | None = None
    caravan_decks: tuple[list[int] | None, list[int] | None] | None = None
    overwrite: bool = False
    """The player agreed to replace existing record files."""
    austerity: AusterityTable | None = None
    form: dict[str, Any] = field(default_factory=dict)
    """The launcher's fields as they were typed, shown again when the player comes back."""

    def next_game(self) -> Choice:
        """What Ctrl+R plays: a fresh seed, or for Austerity every program one seat on."""
        if self.austerity is not None:
            return Choice(**{**self.__dict__, "austerity": self.austerity.rotated()})
        return Choice(**{**self.__dict__, "seed": None})


def numbered(path: str, game: int) -> str:
    """Where the ``game``-th game of one launch is recorded: ``path`` for the first, then
    ``game-2.jsonl``, ``game-3.jsonl``, ... beside it, so that playing again keeps every record."""
    if game <= 1:
        return path
    stem, dot, suffix = path.rpartition(".")
    if not dot or "/" in suffix or not stem or stem.endswith("/"):
        return f"{path}-{game}"
    return f"{stem}-{game}.{suffix}"


def check_record_path(path: str) -> None:
    """Raise ValueError with the line mode's message when ``path`` cannot be written."""
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        raise ValueError(
            f"Cannot open record file '{path}': {error.strerror or error}.") from None


def caravan_kinds() -> list[tuple[str, str]]:
    return [("human", "human")] + [(f"bot: {name}", f"bot:{name}")
                                   for name in (*CARAVAN_BOTS, *SEARCH_BOTS)] + [PROGRAM_CHOICE]


def program_spec(values: dict[str, Any], who: str) -> str:
    """``exec:COMMAND`` for a seat set to "program (exec:)" (``who`` names it in messages),
    from the Program box; raises ValueError when the box is empty or cannot be read. The
    program is not started here."""
    from cardtable.agents.external import split_command
    from cardtable.agents.registry import UnknownBot

    command = str(values.get("program", "") or "").strip()
    if not command:
        raise ValueError(f"{who} plays a program: type its command in the Program box.")
    try:
        split_command(command)
    except UnknownBot as error:
        raise ValueError(error.message) from None
    return EXEC_PREFIX + command


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


def hello_for(choice: Choice, seat: str) -> dict[str, Any]:
    """The ``hello`` a program at ``seat`` of the chosen table is greeted with (as the table
    will send it: the game, the seats, the rules, the clock)."""
    from cardtable.agents.external import PROTOCOL, Limits

    limits = Limits.from_environment()
    clock = {"move_ms": limits.move_ms, "hard_ms": limits.hard_ms, "warnings": 0,
             "max_warnings": limits.warnings}
    if choice.caravan_rules is not None:
        from cardtable.games.caravan.observation_json import seat_rules_json

        rules = choice.caravan_rules
        return {"type": "hello", "protocol": PROTOCOL, "game": "caravan", "seat": seat,
                "seats": ["ABC", "DEF"], "rules": seat_rules_json((rules.abc, rules.def_)),
                "clock": clock}
    from cardtable.agents.external_games import adapter
    from cardtable.games.obsession.game import ObsessionGame
    from cardtable.games.obsession.state import seat_name

    assert choice.obsession_rules is not None
    players = choice.obsession_rules.players
    found = adapter("obsession")
    assert found is not None
    loaded = ObsessionGame(choice.obsession_rules, choice.obsession_seats.count("human"))
    return {"type": "hello", "protocol": PROTOCOL, "game": "obsession", "seat": seat,
            "seats": [seat_name(index) for index in range(players)],
            "rules": found.rules_json(loaded), "clock": clock}


def check_program_game(choice: Choice) -> None:
    """Refuse (ValueError with the form's message) a table whose program says it plays
    another game (a Caravan program for Obsession's bots, say)."""
    if choice.caravan_rules is not None:
        seats = dict(zip(("ABC", "DEF"), (kind.removeprefix("bot:")
                                           for kind in choice.caravan_players), strict=True))
    else:
        seats = {f"P{index + 1}": kind for index, kind in enumerate(choice.obsession_seats)}
    programs = {kind: seat for seat, kind in seats.items() if is_exec(kind)}
    for kind, seat in programs.items():
        command = kind.strip()[len(EXEC_PREFIX):]
        game = program_game(command, hello_for(choice, seat))
        if game is not None and game.strip().lower() != choice.game:
            name = choice.game.title()
            article = "an" if name.startswith(("A", "E", "I", "O", "U")) else "a"
            raise ValueError(f"The program plays {game[:20]}, not {name}: choose {article} "
                             f"{name} program.")


def small_count(value: object) -> int | None:
    """A form field's whole number of at most 9 digits (None otherwise: int() refuses text of
    thousands of digits with its own error, and no count here needs more)."""
    text = str(value).strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def build_choice(values: dict[str, Any]) -> Choice:
    """The chosen game from the form's values; raises ValueError with a message to show."""
    game = values["game"]
    seed_text = str(values.get("seed", "")).strip()
    seed: int | None = None
    if seed_text:
        seed = seed_value(seed_text)
        if seed is None:
            raise ValueError("Seed must be an integer >= 0 (or empty for a random seed).")
    try:
        delay = float(str(values.get("delay", "1")).strip() or "1")
    except ValueError:
        delay = -1.0
    if math.isnan(delay) or delay < 0:
        raise ValueError("Bot delay must be a number of seconds >= 0.")
    if delay > MAX_DELAY_SECONDS:
        raise ValueError(f"Bot delay must be {too_long_text()}.")
    ascii_only = bool(values.get("ascii", False))
    if game == "austerity":
        table = build_table(str(values.get("lineup", "")), str(values.get("austerity_deck", "")),
                            str(values.get("tokens", "")), str(values.get("points", "")))
        return Choice(game, None, delay, ascii_only, austerity=table)
    record = str(values.get("record", "") or "").strip() or None
    if game == "caravan":
        rules_file = str(values.get("rules_file", "")).strip() or None
        deck_path = str(values.get("deck", "") or "").strip() or None
        try:
            rules = assemble_rules(str(values["preset"]), rules_file)
            decks = None if deck_path is None else (
                read_deck_file(deck_path, rules.abc, 0), read_deck_file(deck_path, rules.def_, 1))
        except GameError as error:
            raise ValueError(error.message) from None
        if decks is None:
            problem = check_deck_size(rules) or check_samples(rules) or check_supply(rules)
            if problem is not None:
                raise ValueError(problem)
        if record is not None:
            refusal = check_record_target(
                record, [("the rules file", rules_file), ("the deck file", deck_path)], True)
            if refusal is not None:
                raise ValueError(refusal)
            check_record_path(record)
        kinds = tuple(f"bot:{program_spec(values, seat)}" if str(values[seat.lower()]) == PROGRAM
                      else str(values[seat.lower()]) for seat in ("ABC", "DEF"))
        first = 1 if str(values.get("first", "1")) == "2" else 0
        return Choice(game, seed, delay, ascii_only, caravan_rules=rules,
                      caravan_players=(kinds[0], kinds[1]), first=first, record=record,
                      caravan_decks=decks)
    players = small_count(values.get("players", "4"))
    if players is None or not 2 <= players <= 10:
        raise ValueError("Players must be from 2 to 10.")
    humans = small_count(values.get("humans", "1"))
    if humans is None or humans > players:
        raise ValueError(f"Humans must be from 0 to {players}.")
    run_kill = small_count(values.get("run_kill", "4"))
    if run_kill is None or not 2 <= run_kill <= 8:
        raise ValueError("Run-kill must be from 2 to 8.")
    bot = str(values.get("bot", "obsessed"))
    if bot == PROGRAM and humans < players:
        bot = program_spec(values, "The bots' seat")
    seats = ("human",) * humans + (bot,) * (players - humans)
    if record is not None:
        check_record_path(record)
    return Choice(game, seed, delay, ascii_only,
                  obsession_rules=ObsessionRules(players=players, run_kill=run_kill),
                  obsession_seats=seats, record=record)


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
    """The form: one column per game, shared settings below, Play or Esc."""

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
    .column { width: 1fr; height: auto; border: round $foreground 40%; }
    #right, #left { width: 1fr; height: auto; }
    #right > .column, #left > .column { width: 100%; }
    #tally { height: auto; text-align: center; }
    #shared { height: auto; border: round $foreground 40%; }
    #columns { height: auto; }
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

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static("cardtable: choose a game", id="title")
            with Grid(id="shared"):
                yield Label("Game")
                yield Select([("Caravan", "caravan"), ("Obsession", "obsession"),
                              ("Austerity (watch the player programs)", "austerity")],
                             value="caravan", allow_blank=False, id="game")
                yield Label("Seed")
                yield Input(placeholder="empty = random", id="seed", restrict=r"[0-9]*")
                yield Label("Bot delay (s)")
                yield Input("1", id="delay", restrict=r"[0-9.]*")
                yield Label("Record to")
                yield Input(placeholder="optional .jsonl file", id="record")
            with Horizontal(id="columns"):
                with Vertical(id="left"):
                    with Grid(classes="column", id="caravan"):
                        yield Label("ABC (bottom)")
                        yield Select(caravan_kinds(), value="human", allow_blank=False, id="abc")
                        yield Label("DEF (top)")
                        yield Select(caravan_kinds(), value="bot:normal", allow_blank=False,
                                     id="def")
                        yield Label("Rules preset")
                        yield Select([(name, name) for name in PRESETS], value="power",
                                     allow_blank=False, id="preset")
                        yield Label("Rules file")
                        yield Input(placeholder="optional TOML file", id="rules_file")
                        yield Label("Deck file")
                        yield Input(placeholder="optional, both seats", id="deck")
                        yield Label("First")
                        yield Select([("ABC", "1"), ("DEF", "2")], value="1", allow_blank=False,
                                     id="first")
                    with Grid(classes="column", id="programs"):
                        yield Label("Command")
                        yield Input(placeholder="for program seats",
                                    id="program")
                with Vertical(id="right"):
                    with Grid(classes="column", id="obsession"):
                        yield Label("Players")
                        yield Input("4", id="players", restrict=r"[0-9]*")
                        yield Label("Humans")
                        yield Input("1", id="humans", restrict=r"[0-9]*")
                        yield Label("Bots")
                        yield Select([(name, name) for name in (*OBSESSION_BOTS, *SEARCH_BOTS)]
                                     + [PROGRAM_CHOICE], value="obsessed", allow_blank=False,
                                     id="bot")
                        yield Label("Run-kill")
                        yield Input("4", id="run_kill", restrict=r"[0-9]*")
                    with Grid(classes="column", id="austerity"):
                        yield Label("Seats A,B,...")
                        yield Input("shenzi,banzai,ed", id="lineup",
                                    restrict=r"[A-Za-z, ]*")
                        yield Label("Deck file")
                        yield Input(placeholder=f"bundled {BUNDLED_DECK}",
                                    id="austerity_deck")
                        yield Label("Tokens")
                        yield Input("5", id="tokens", restrict=r"[0-9]*")
                        yield Label("Points")
                        yield Input("15", id="points", restrict=r"[0-9]*")
            yield MarkedCheckbox("ASCII suits (S H D C) and borders", id="ascii")
            yield Static("", id="tally")
            yield Static("", id="message")
            with Horizontal(id="buttons"):
                yield Button("Play", variant="primary", id="play")
                yield Button("Quit", id="quit")
            yield Static(hint_for(None), id="hint")

    def on_mount(self) -> None:
        self.query_one("#caravan", Grid).border_title = " Caravan "
        self.query_one("#obsession", Grid).border_title = " Obsession "
        self.query_one("#shared", Grid).border_title = " Game "
        self.query_one("#austerity", Grid).border_title = " Austerity "
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
        """Only the chosen game's fields (and the shared ones it uses) can be edited."""
        game = str(self.query_one("#game", Select).value)
        for name, fields in FIELDS.items():
            for field_id in fields:
                self.query_one(f"#{field_id}", Widget).disabled = name != game
        for field_id in NOT_FOR_AUSTERITY:
            self.query_one(f"#{field_id}", Widget).disabled = game == "austerity"

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
    if choice.austerity is not None:
        from cardtable.ui.tui.austerity_app import play_austerity

        return play_austerity(choice.austerity, choice.delay, choice.ascii_only,
                              offer_again=True, tally=tally)
    seed = fresh_seed() if choice.seed is None else choice.seed
    record = None
    if choice.record is not None:
        record = (numbered(choice.record, game) if choice.overwrite
                  else free_record(choice.record, game, numbered))
    if choice.game == "caravan":
        from cardtable.ui.tui.caravan_app import play_caravan

        assert choice.caravan_rules is not None
        return play_caravan(choice.caravan_rules, choice.caravan_players, seed, choice.first,
                            choice.delay, choice.caravan_decks, record, choice.ascii_only,
                            offer_again=True)
    from cardtable.ui.tui.obsession_app import play_obsession

    assert choice.obsession_rules is not None
    return play_obsession(choice.obsession_rules, choice.obsession_seats, seed, choice.delay,
                          record, choice.ascii_only, offer_again=True)


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
