"""Any game on the full screen, through its description and the state protocol alone: the
generic terminal table (``cardtable play GAME``, and the launcher for a game without a terminal
table of its own).

The view of the seat at the screen (:meth:`~cardtable.engine.description.GameDescription.
seat_view`, drawn as ``key: value`` lines) fills the table; on a person's turn the seat's legal
moves are listed, numbered in the game's notation, and the command line takes a number or a move
in notation (``moves`` lists them, ``help`` shows how to play, ``quit`` asks like Esc). With two
people or more a pass screen hides one person's view from the next; a table of bots only shows
the public view. The game runs in the engine's match loop (stepped by ``screen_match``), bots
and programs in a worker after ``delay`` seconds.
"""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Label, RichLog, Static

from cardtable.engine.errors import GameError, IllegalAction
from cardtable.engine.match import (
    AsyncSeat,
    MatchAbandoned,
    MatchListener,
    Seat,
    forfeit_message,
    play_match_async,
)
from cardtable.engine.protocol import GameState, Result
from cardtable.ui.generic_view import (
    HELP_COMMANDS,
    MOVES_COMMAND,
    QUIT_COMMANDS,
    chosen,
    legal_moves,
    numbered,
    readable_lines,
    result_lines,
    seat_view,
)
from cardtable.ui.seat_kinds import HUMAN, Seating, close_seats
from cardtable.ui.stop_signals import Stopped, say_stopped, stop_cause, stop_signals_for_app
from cardtable.ui.stop_signals import stop_status as signal_status
from cardtable.ui.tui.common import (
    PRESS_ESC,
    CommandInput,
    HelpScreen,
    PassScreen,
    TableApp,
    TooSmall,
    guarded,
)
from cardtable.ui.tui.screen_match import Answer, ScreenBot, ScreenHuman, ScreenMatch
from cardtable.ui.tui.theme import Theme, make_theme

PROGRAM = "cardtable"
ABANDONED = "Game abandoned."
INTERRUPTED = f"{PROGRAM}: Game interrupted."
HELP_KEYS = [
    "",
    "On your turn your legal moves are listed, numbered: type a number",
    "  or the move in the game's notation, then Enter.",
    "Keys: Enter plays, F2 (or type moves) lists your moves,",
    "  Esc (or type quit / exit) quits (asks first), ? or F1 this help.",
]


class ViewBox(VerticalScroll):
    """The view, scrolled with the mouse: the keyboard stays on the command line."""

    can_focus = False


class GenericApp(TableApp):
    """One game of any registered game on the full screen (``table``: the loaded game and
    who sits where)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("f2", "moves", "Moves")]
    program = PROGRAM
    CSS = """
    #main { height: 1fr; }
    #table { width: 1fr; }
    #view-box { height: 1fr; border: round $foreground 40%; }
    #view { padding: 0 1; }
    #moves { height: auto; max-height: 6; padding: 0 1; }
    #status { height: auto; padding: 0 1; }
    #prompt-row { height: 1; }
    #prompt-row.bots-only { display: none; }
    #prompt { width: auto; }
    #command { border: none; height: 1; padding: 0; width: 1fr; }
    #keys { height: 1; color: $text-muted; padding: 0 1; }
    #log { width: 30; border: round $foreground 40%; }
    .wide #log { width: 44; }
    #too-small { display: none; }
    .small #main { display: none; }
    .small #too-small { display: block; }
    """

    def __init__(self, table: Seating, seed: int, delay: float = 1.0, ascii_only: bool = False,
                 offer_again: bool = False, bots: dict[int, Seat] | None = None) -> None:
        self.theme_: Theme = make_theme(ascii_only)  # read NO_COLOR before Textual pops it
        super().__init__()
        self.table = table
        self.described = table.described
        self.title = self.described.title
        self.seed = seed
        self.delay = delay
        self.offer_again = offer_again
        self.again = False
        self.ready = False
        self.messages: list[str] = []
        self.seat_names = table.seats
        self.kinds = table.kinds
        self.human_seats = tuple(kind == HUMAN for kind in self.kinds)
        self.humans = sum(self.human_seats)
        self.game = table.new_state(seed)
        self.bots: dict[int, Seat] = {} if bots is None else bots
        """The bots and programs by seat number (the caller starts them: a program that
        cannot start is refused before the screen opens)."""
        self.viewer: int | None = self.human_seats.index(True) if self.humans == 1 else None
        self.match: ScreenMatch | None = None
        self.human_answer: Answer[Any] | None = None
        self.result: Result | None = None
        """The result once the match has ended (a forfeit's included)."""
        self.left = False
        self.thinking: str | None = None
        self.important: str | None = None
        self.before: Any = None
        """The state before the move being made: the notation of an action is its."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="table"):
                with ViewBox(id="view-box"):
                    yield Static(id="view", markup=False)
                yield Static(id="moves", markup=False)
                yield Static(id="status")
                with Horizontal(id="prompt-row", classes="" if self.humans else "bots-only"):
                    yield Label("> ", id="prompt")
                    yield CommandInput(id="command", max_length=80,
                                       placeholder="a move's number or notation (F2: moves)")
                yield Static(self.theme_.sep.join(["Esc quit", "?/F1 help", "F2 moves"]),
                             id="keys")
            yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=16)
        yield TooSmall(id="too-small")

    @guarded
    def on_mount(self) -> None:
        self.ready = True
        self.query_one("#log", RichLog).border_title = " Moves "
        self.query_one("#view-box").border_title = (
            f" {self.described.title}{self.theme_.sep}seed {self.seed} ")
        self._fit(self.size.width, self.size.height)
        players = ", ".join(f"{seat} {kind}" for seat, kind in zip(self.seat_names, self.kinds,
                                                                   strict=True))
        self.say(f"{self.described.title}: {players}")
        seats: dict[str, AsyncSeat] = {
            name: ScreenHuman(self) if self.human_seats[number] else ScreenBot(self, number)
            for number, name in enumerate(self.seat_names)}
        self.match = ScreenMatch(play_match_async(self.game, seats, (GenericScreen(self),)))
        self.match.start()

    # ------------------------------------------------------------------- views

    def to_move(self) -> int | None:
        seat = None if self.game_over() else self.game.to_move
        return None if seat is None else self.seat_names.index(seat)

    def is_human_turn(self) -> bool:
        turn = self.to_move()
        return turn is not None and self.human_seats[turn] and self.viewer == turn

    def view_lines(self) -> list[str]:
        """The viewer's view, or the public one (nobody's seat at the screen)."""
        if self.viewer is not None:
            data = seat_view(self.described, self.game, self.seat_names[self.viewer])
        else:
            try:
                data = self.described.public_view(self.game)
            except NotImplementedError:
                return ["(the game shows nothing public: a seat's view is for its player)"]
        return readable_lines(data)

    def refresh_table(self) -> None:
        if not self.ready:
            return
        seat = self.viewer
        box = self.query_one("#view-box")
        box.border_subtitle = (" public view " if seat is None
                               else f" {self.seat_names[seat]}'s view ")
        self.query_one("#view", Static).update("\n".join(self.view_lines()))
        moves = self.query_one("#moves", Static)
        moves.update(f"Moves: {numbered(legal_moves(self.game))}" if self.is_human_turn()
                     else "")
        self.query_one("#status", Static).update(self._status_text())

    def _status_text(self) -> Text:
        if self.important is not None:
            return Text(self.important, style=self.theme_.style("error"))
        if self.result is not None or self.left:
            again = " Ctrl+R: play again." if self.offer_again else ""
            head = "Game over" if self.result is None else result_lines(self.result)[0]
            return Text(f"{head}. {PRESS_ESC}{again}", style=self.theme_.style("important"))
        if self.thinking is not None:
            return Text(self.thinking, style="dim")
        turn = self.to_move()
        if turn is not None and self.is_human_turn():
            return Text(f"{self.seat_names[turn]}: your move", style=self.theme_.style("turn"))
        return Text("" if turn is None else f"{self.seat_names[turn]} to move", style="dim")

    # --------------------------------------------------------------------- play

    def turn_begins(self, state: Any, seat: str) -> None:
        self.before = state.clone()
        self.thinking = None
        self.important = None
        number = self.seat_names.index(seat)
        if self.human_seats[number]:
            if self.humans >= 2 and self.viewer != number:
                self.viewer = None
                self.refresh_table()
                self.push_screen(PassScreen(seat), lambda _: self._take_seat(number))
                return
            self.viewer = number
        else:
            if self.humans >= 2:
                self.viewer = None
            self.thinking = f"{seat} ({self.kinds[number]}) is thinking..."
        self.refresh_table()

    def _take_seat(self, number: int) -> None:
        self.viewer = number
        self.refresh_table()


    @guarded
    def on_input_submitted(self, event: CommandInput.Submitted) -> None:
        self.submit(event.value)

    def submit(self, line: str) -> None:
        """A move typed by the person to move: a number of the list, or notation."""
        if not self.is_human_turn():
            return
        command = self.query_one("#command", CommandInput)
        word = line.strip().lower()
        command.value = ""
        if not word:
            return
        if word in QUIT_COMMANDS:
            self.action_quit_request()
            return
        if word == MOVES_COMMAND:
            self.action_moves()
            return
        if word in HELP_COMMANDS:
            self.action_help()
            return
        try:
            action = chosen(self.game, legal_moves(self.game), line)
        except GameError as error:
            self.refuse(error)
            return
        if self.human_answer is not None and self.match is not None:
            self.match.give(self.human_answer, action)  # a refusal comes back through refuse

    def refuse(self, error: IllegalAction | GameError) -> None:
        self.important = f"!!! {error.message}"
        self.say(self.important, self.theme_.style("error"))
        self.refresh_table()

    def action_made(self, seat: str, action: Any) -> None:
        text = self.before.action_text(action) if self.before is not None else str(action)
        self.important = None
        self.say(f"{seat}: {text}")
        self.refresh_table()

    def ended(self, result: Result) -> None:
        self.result = result
        self.thinking = None
        if self.humans >= 2:
            self.viewer = None
        self.say("Game over.", self.theme_.style("important"))
        for line in result_lines(result):
            self.say(line, self.theme_.style("important"))
        self.say(PRESS_ESC + (" Ctrl+R: play again." if self.offer_again else ""))
        self.refresh_table()

    # ------------------------------------------------------------------ actions

    @guarded
    def action_moves(self) -> None:
        if self.is_human_turn():
            self.say(f"Moves: {numbered(legal_moves(self.game))}")

    @guarded
    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        lines = [*self.described.howto()[1:], *HELP_KEYS, "", f"Seed {self.seed}."]
        self.push_screen(HelpScreen(f"{self.described.title} help", lines))

    def game_over(self) -> bool:
        return self.result is not None or self.left

    def _quit(self) -> None:
        self.abandon()
        self.workers.cancel_group(self, "bot")
        close_seats(self.bots)
        self.exit(0)

    def abandon(self, cause: str | None = None) -> None:
        """Stop an unfinished match as abandoned (``cause``, or how the player left)."""
        if self.game_over():
            return
        self.left = True
        seat = self.game.to_move or self.seat_names[0]
        if self.match is not None:
            self.match.abandon(seat, cause or self.quit_cause)

    # -------------------------------------------------------- after the screen

    def closing_lines(self, interrupted: bool) -> tuple[list[str], list[str]]:
        """What the terminal keeps once the screen has closed: the result, or how it ended."""
        if self.result is not None:
            return result_lines(self.result), []
        if interrupted:
            return [], [INTERRUPTED]
        return [ABANDONED], []

    def tally_entry(self) -> tuple[list[str], list[str]] | None:
        """(every player, the winners) of a finished game, for the launcher's tally."""
        from cardtable.ui.tui.result_lines import tally_names

        if self.result is None:
            return None
        names = tally_names(self.kinds, self.seat_names)
        return names, [names[self.seat_names.index(seat)] for seat in self.result.winners
                       if seat in self.seat_names]


class GenericScreen(MatchListener):
    """Shows the match on the app: whose turn, each move, the end."""

    def __init__(self, app: GenericApp) -> None:
        self.app = app

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        self.app.turn_begins(state, seat)

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        self.app.action_made(seat, action)

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        forfeited = forfeit_message(result)
        if forfeited is not None:
            self.app.say(f"!!! {forfeited}", self.app.theme_.style("error"))
        self.app.ended(result)

    def on_abandon(self, state: GameState[Any, Any], abandoned: MatchAbandoned) -> None:
        self.app.left = True


def play_generic(table: Seating, seed: int, delay: float, ascii_only: bool,
                 offer_again: bool = False) -> tuple[int, bool]:
    """Play one game of ``table`` on the full screen; returns (exit status, play again?).
    Raises the ``GameError`` of a program that cannot start, before the screen opens."""
    started = table.bots(seed)
    bots = {table.seats.index(seat): bot for seat, bot in started.items()}
    app = GenericApp(table, seed, delay, ascii_only, offer_again, bots)
    try:
        with stop_signals_for_app(app.exit) as received:
            status: Any = app.run()
    finally:
        close_seats(bots)
    stopped = Stopped(received[0]) if received else None
    with contextlib.suppress(GameError):
        app.abandon(None if stopped is None else stop_cause(stopped))
    if stopped is not None:
        say_stopped(stopped, PROGRAM)
        return signal_status(stopped), False
    return (status if isinstance(status, int) else 0), app.again
