"""Obsession on the full screen: the table around, the discard pile, your cards, an event log.

The same selection grammar and messages as the line mode (``games.obsession.selection``):
number keys type positions (``1 3``, ``4,5``), a click on a card adds or removes its number,
Enter plays. Pick-ups are never chosen: the game makes them when nothing is legal, and the
log says so. With two or more human seats a pass screen hides the cards between human turns.
F2 (or typing ``moves``) lists the legal moves; ``quit`` or ``exit`` asks like Esc; once a
human is out of the game, ``f`` fast-forwards the bots.

The game runs in the engine's match loop (``play_match_async``, stepped on the UI thread by
``screen_match``): a human seat answers through the command line, a bot seat (a built-in bot,
a registry spec, or an external program ``exec:COMMAND``) is asked in a worker after ``delay``
seconds; the record and the screen are the loop's listeners. A program that forfeits ends the
game with the result ``forfeit``, said on the screen.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Label, RichLog, Static

from cardtable.agents.external_cli import is_exec
from cardtable.agents.registry import make_seat
from cardtable.engine.errors import IllegalAction, RecordError
from cardtable.engine.match import (
    AsyncSeat,
    MatchAbandoned,
    MatchListener,
    Seat,
    forfeit_message,
    play_match_async,
)
from cardtable.engine.protocol import GameState, Result
from cardtable.engine.randomness import fresh_seed
from cardtable.engine.record import RecordWriter, open_error_message
from cardtable.games.obsession import explain, render, selection
from cardtable.games.obsession.actions import Action
from cardtable.games.obsession.bots import BOT_NAMES, make_bot
from cardtable.games.obsession.cards import FACE, FACE_NAMES, TEXT
from cardtable.games.obsession.events import Board, Drew, Ended, Event
from cardtable.games.obsession.game import ObsessionGame
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.record import RecordListener, header
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import ObsessionState, seat_name
from cardtable.ui.stop_signals import (
    Stopped,
    say_stopped,
    stop_cause,
    stop_signals_for_app,
    stop_status,
)
from cardtable.ui.tui.common import (
    PRESS_ESC,
    CommandInput,
    HelpScreen,
    PassScreen,
    TableApp,
    TooSmall,
    guarded,
)
from cardtable.ui.tui.screen_bots import close_bots, make_bots
from cardtable.ui.tui.screen_match import Answer, ScreenBot, ScreenHuman, ScreenMatch
from cardtable.ui.tui.theme import Theme, make_theme

HUMAN = "human"
ABANDONED = "Game abandoned."
INTERRUPTED = "!!! Interrupted"
MOVES_COMMAND = "moves"
QUIT_COMMANDS = ("quit", "exit")
HELP_COMMAND = "help"

HELP_LINES = [
    "Goal: play out your hand, then your visible cards, then your",
    "  hidden cards. The last player left holding cards loses.",
    "",
    "Select: type card numbers (1 3 or 4,5) or click cards;",
    "  Enter plays.",
    "  Several cards go down together only when they share one face.",
    "  At the deal choose exactly 3 cards to lie face up (VISIBLE).",
    "  With hand and visible cards gone, pick 1 hidden card blind.",
    "  If nothing you hold may be played, the pile is picked up;",
    "  its 3s leave the game (so a lone 3 gives 0 cards).",
    # What goes on which face is read from the legality table, as in the game's messages.
    f"Legal: on {explain.words(explain.ANYTHING_FACES)} anything goes;",
    f"  plain faces climb ({' < '.join(FACE_NAMES[face] for face in explain.CLIMB)}),",
    f"  so on a 9: {explain.allowed(9)};",
    f"  on a 3 only {explain.allowed(3)}; on a 7 only {explain.allowed(7)}.",
    "  Jokers (R) are see-through: the face under them counts.",
    "Specials: 8 plays again, 10 kills the pile and plays again,",
    "  R reverses the direction.",
    "  A run of run-kill equal faces on top kills the pile too.",
    "Keys: Enter plays, Backspace edits, F2 (or type moves) lists",
    "  your legal moves, Esc (or type quit / exit) quits (asks first),",
    "  f fast-forwards the bots once a human is out of the game,",
    "  ? or F1 this help, arrows / PgUp / PgDn scroll it.",
]


def card_label(card: int, theme: Theme) -> Text:
    text = TEXT[card]
    if text == "R":
        return Text("R", style=theme.style("important"))
    return Text(theme.card(text), style=theme.card_style(text))


def seat_label(seat: int, kinds: Sequence[str], humans: int) -> str:
    kind = kinds[seat]
    if kind == HUMAN:
        return f"P{seat + 1} you" if humans == 1 else f"P{seat + 1} human"
    if is_exec(kind):  # a command is too long for the table (the record keeps it)
        return f"P{seat + 1} program"
    return f"P{seat + 1} {kind}"


class CardsPanel(Widget):
    """The cards a selection is numbered against: your hand, visible row, hidden row or the
    swap pool; the numbers typed so far are highlighted."""

    DEFAULT_CSS = """
    CardsPanel { height: auto; min-height: 3; max-height: 9; border: round $foreground 40%; }
    CardsPanel.turn { border: heavy $success; }
    """

    def cells(self) -> tuple[list[Text], int]:
        app = self.app
        assert isinstance(app, ObsessionApp)
        shown = app.shown_cards()
        if shown is None:
            return [], 6
        cards, hidden = shown
        width = len(str(max(len(cards), 1))) + 5
        picked = set(selection.numbers(app.command_text())) if app.is_human_turn() else set()
        out: list[Text] = []
        for number, card in enumerate(cards, start=1):
            cell = Text(f"{number:>{width - 5}} ", style="dim")
            cell.append_text(Text("###") if hidden else card_label(card, app.theme_))
            cell.pad_right(width - cell.cell_len)
            if number in picked:
                cell.stylize(app.theme_.style("chosen") or "reverse")
            out.append(cell)
        return out, width

    def per_line(self, width: int) -> int:
        return max(1, self.content_size.width // width)

    def render(self) -> Text:
        app = self.app
        assert isinstance(app, ObsessionApp)
        cells, width = self.cells()
        if not cells:
            return Text(app.cards_note(), style="dim")
        per_line = self.per_line(width)
        out = Text()
        for index, cell in enumerate(cells):
            if index and index % per_line == 0:
                out.append("\n")
            out.append_text(cell)
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        cells, width = self.cells()
        if offset is None or not cells:
            return
        number = offset.y * self.per_line(width) + offset.x // width + 1
        app = self.app
        assert isinstance(app, ObsessionApp)
        if 1 <= number <= len(cells):
            app.toggle_number(number)


class SelectionInput(CommandInput):
    """The selection line. While the numbered cards fit in one digit, a digit key adds or
    removes that card's number (so ``1`` then ``3`` selects cards 1 and 3); otherwise digits
    are typed and the grammar reads them (``12`` is card twelve)."""

    async def _on_key(self, event: events.Key) -> None:
        app = self.app
        character = event.character
        if (character is not None and character.isdigit() and isinstance(app, ObsessionApp)
                and 1 <= int(character) <= app.toggle_limit()):
            event.stop()
            event.prevent_default()
            app.toggle_number(int(character))
            return
        await super()._on_key(event)


class ObsessionApp(TableApp):
    """The Obsession screen. ``seats`` lists ``human``, ``obsessed`` or ``random`` per seat."""

    TITLE = "Obsession"
    program = "obsession"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "moves", "Moves"),
        Binding("f", "fast_forward", "Fast-forward"),
    ]
    CSS = """
    #main { height: 1fr; }
    #table { width: 1fr; }
    #seats { height: auto; border: round $foreground 40%; }
    #pile { height: auto; padding: 0 1; }
    #phase { height: 1; padding: 0 1; }
    #status { height: auto; padding: 0 1; }
    #prompt-row { height: 1; }
    #prompt-row.bots-only { display: none; }
    #prompt { width: auto; }
    #command { border: none; height: 1; padding: 0; width: 1fr; }
    #keys { height: 1; color: $text-muted; }
    #log { width: 30; border: round $foreground 40%; }
    .wide #log { width: 44; }
    #too-small { display: none; }
    .small #main { display: none; }
    .small #too-small { display: block; }
    """

    def __init__(self, rules: Rules, seats: Sequence[str], seed: int, delay: float = 1.0,
                 record: str | None = None, ascii_only: bool = False,
                 offer_again: bool = False) -> None:
        self.theme_: Theme = make_theme(ascii_only)  # read NO_COLOR before Textual pops it
        super().__init__()
        self.rules = rules
        self.kinds = tuple(seats)
        self.seed = seed
        self.delay = delay
        self.record_path = record
        self.offer_again = offer_again
        self.again = False
        self.ready = False
        self.human_seats = tuple(kind == HUMAN for kind in self.kinds)
        self.humans = sum(self.human_seats)
        self.game = ObsessionState.new(rules, self.human_seats, seed)
        loaded = ObsessionGame(rules, self.humans)
        self.bots: dict[int, Seat] = make_bots(
            loaded, {seat: kind for seat, kind in enumerate(self.kinds) if kind != HUMAN},
            seat_name, seed, record,
            lambda seat, kind: make_bot(kind, seat, seed) if kind in BOT_NAMES else
            make_seat(loaded, kind, seat_name(seat), seed))
        self.forfeit: Result | None = None
        """The result of a game a program forfeited (the game itself is not over)."""
        self.messages: list[str] = []
        self.important: str | None = None
        self.note: str | None = None
        self.thinking: str | None = None
        self.card_texts = tuple(self.theme_.card(text) for text in TEXT)
        self.fast_forward_offered = False
        self.wake = asyncio.Event()
        """Set by fast-forward to cut short a bot's pause."""
        self.viewer: int | None = None
        if self.humans == 1:
            self.viewer = self.human_seats.index(True)
        self.writer: RecordWriter | None = None
        self.recorder: RecordListener | None = None
        self.ended: Ended | None = None
        self.match: ScreenMatch | None = None
        self.human_answer: Answer[Action] | None = None
        """The selection the human to move is asked for (None while nobody waits for one)."""
        self.offered: tuple[Observation, Action] | None = None
        """The human's last selection and what they saw: a refusal is explained with them."""
        self.left = False
        """Whether the game was abandoned (the match and the record have been told)."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="table"):
                yield Static(id="seats")
                yield Static(id="pile")
                yield Static(id="phase")
                yield CardsPanel(id="cards")
                yield Static(id="status")
                with Horizontal(id="prompt-row", classes="" if self.humans else "bots-only"):
                    yield Label("", id="prompt")
                    yield SelectionInput(id="command", restrict=r"[0-9A-Za-z ,.\-]*",
                                         max_length=40,
                                         placeholder="card numbers, e.g. 1 3 (F2: moves)")
                yield Static(self._keys_text(), id="keys")
            yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=16)
        yield TooSmall(id="too-small")

    @guarded
    def on_mount(self) -> None:
        self.ready = True
        self.query_one("#log", RichLog).border_title = " Events "
        seats = self.query_one("#seats", Static)
        rules = self.rules
        seats.border_title = f" Table{self.theme_.sep}seed {self.seed} "
        seats.border_subtitle = (f" max {rules.max_plays} plays{self.theme_.sep}"
                                 f"repeat limit {rules.repeat_limit} ")
        self._fit(self.size.width, self.size.height)
        if self.record_path is not None:
            try:
                self.writer = RecordWriter(self.record_path)
            except OSError as error:
                self.fatal(open_error_message(self.record_path, error))
                return
            self.recorder = RecordListener(self.writer.write,
                                           header(self.game, self.seed, self.kinds))
        self.say(f"@@@ Starting a new game with {self.game.players} players")
        self.advance()

    # ------------------------------------------------------------------- views

    def view(self) -> Observation:
        """Public view plus the viewer's own hand (a seat nobody sits at shows no hand)."""
        seat = self.viewer if self.viewer is not None else self.game.current
        return self.game.observe(seat)

    def is_human_turn(self) -> bool:
        turn = self.turn()
        return turn is not None and self.human_seats[turn] and self.viewer == turn

    def turn(self) -> int | None:
        return None if self.game_over() else self.game.current

    def toggle_limit(self) -> int:
        """Digit keys toggle cards 1..N when every numbered card fits in one digit, else 0."""
        shown = self.shown_cards() if self.is_human_turn() else None
        if shown is None or len(shown[0]) > 9:
            return 0
        return len(shown[0])

    def command_text(self) -> str:
        return self.query_one("#command", CommandInput).value

    def shown_cards(self) -> tuple[tuple[int, ...], bool] | None:
        """(cards, hidden?) numbered for the viewer, or None when no hand may be shown."""
        if self.viewer is None:
            return None
        obs = self.game.observe(self.viewer)
        if obs.phase == "swap" and obs.to_move == self.viewer:
            return obs.pool, False
        if obs.phase == "over" or self.game.out[self.viewer]:
            return obs.hand, False
        if obs.source == "hidden":
            return (0,) * obs.hidden_counts[self.viewer], True
        return obs.pool if obs.to_move == self.viewer else obs.hand, False

    def cards_note(self) -> str:
        if self.viewer is None:
            return "(cards hidden)" if self.humans >= 2 else "(bots only: no hand shown)"
        return "(no cards)"

    def refresh_table(self) -> None:
        if not self.ready:
            return
        obs = self.view()
        self.query_one("#seats", Static).update(self._seats_text(obs))
        self.query_one("#pile", Static).update(self._pile_text(obs))
        self.query_one("#phase", Static).update(self._phase_text(obs))
        self.show_status()
        self.query_one("#keys", Static).update(self._keys_text())
        cards = self.query_one(CardsPanel)
        cards.border_title = self._cards_title(obs)
        cards.set_class(self.is_human_turn(), "turn")
        cards.refresh(layout=True)
        prompt = self.query_one("#prompt", Label)
        command = self.query_one("#command", CommandInput)
        if self.is_human_turn():
            prompt.update(f"P{self.game.current + 1} > ")
            command.disabled = False
            command.focus()
        else:
            prompt.update("")
            command.disabled = True

    def _seats_text(self, obs: Observation) -> Text:
        width = max(len(seat_label(s, self.kinds, self.humans)) for s in range(len(self.kinds)))
        places = {seat: place for place, seat in enumerate(obs.placings, start=1)}
        # The column heads say what each count counts: cards in hand, face-down cards.
        out = Text(f"  {'seat':<{width}}  hand  {'visible':<12} hidden  place", style="dim")
        for seat in range(len(self.kinds)):
            out.append("\n")
            to_move = obs.to_move == seat
            marker = ">" if to_move else " "
            line = Text(f"{marker} {seat_label(seat, self.kinds, self.humans):<{width}}",
                        style=self.theme_.style("turn") if to_move else "")
            line.append(f"  {obs.hand_counts[seat]:>4}  ")
            shown = Text()
            for card in obs.visible[seat]:
                shown.append_text(card_label(card, self.theme_))
                shown.append(" ")
            shown.pad_right(13 - shown.cell_len)
            line.append_text(shown)
            line.append(f"{obs.hidden_counts[seat]:>6}")
            if seat in places:
                line.append(f"  {explain.ordinal(places[seat]):>5}",
                            style=self.theme_.style("important"))
            out.append_text(line)
        return out

    def _pile_text(self, obs: Observation) -> Text:
        arrow = "->" if self.theme_.ascii_only else "→"
        back = "<-" if self.theme_.ascii_only else "←"
        direction = f"{arrow} forward" if obs.direction > 0 else f"{back} reverse"
        out = Text(f"Direction {direction}   Draw pile {render.cards_count(obs.draw_count)}\n")
        out.append(f"Discard {render.cards_count(len(obs.discard))}")
        if obs.discard:
            out.append("  top ")
            for card in obs.discard[:render.TOP_SHOWN]:
                out.append_text(card_label(card, self.theme_))
                out.append(" ")
        out.append("\n")
        # The rules that act on the pile, beside it; the seed and the guards are on the table.
        sep = self.theme_.sep
        kill = f"run-kill {self.rules.run_kill}{sep}{self.rules.kill_order}"
        if obs.discard:
            out.append(f"Run {obs.run} x {FACE_NAMES[FACE[obs.discard[0]]]}{sep}{kill}\n")
        else:
            out.append(f"Empty pile{sep}{kill}\n")
        if not self.game.over:
            out.append(explain.next_play(obs.active_face,
                                         obs.discard[0] if obs.discard else None))
        out.rstrip()
        return out

    def _keys_text(self) -> str:
        keys = ["Enter play", "F2 moves"] if self.humans and not self.game.over else []
        if self.fast_forward_available():
            keys.append("f fast-forward")
        return self.theme_.sep.join([*keys, "Esc quit", "?/F1 help"])

    def _phase_text(self, obs: Observation) -> Text:
        if self.game.over:
            return Text("Game over. " + PRESS_ESC, style=self.theme_.style("important"))
        seat = self.game.current
        if not self.human_seats[seat] or self.viewer != seat:
            return Text(f"Player {seat + 1} to play", style="dim")
        if obs.phase == "swap":
            return Text(render.SWAP_PROMPT.removeprefix("+++ "))
        return Text(render.play_prompt(obs.source).removeprefix("+++ "))

    def _cards_title(self, obs: Observation) -> str:
        if self.viewer is None:
            return " cards "
        seat = self.viewer
        if obs.phase == "swap" and obs.to_move == seat:
            return f" P{seat + 1}: hand + visible, pick 3 "
        phase = obs.source if not self.game.out[seat] else "out"
        return f" P{seat + 1} {phase} "

    def show_status(self) -> None:
        """The status line, then (once laid out) cut to the room the table leaves it."""
        self.query_one("#status", Static).update(self._status_text())
        self.call_after_refresh(self._fit_status)

    def _fit_status(self) -> None:
        """Keep the command line and the keys on the screen: a status longer than the room
        left under the cards (a long F2 list at 80x24) is cut, and says where the rest is (every
        message is in the Events log too)."""
        if not self.ready or self.screen_stack[0].has_class("small"):
            return
        table = self.query_one("#table")
        status = self.query_one("#status", Static)
        others = sum(child.outer_size.height for child in table.children
                     if child is not status and child.display)
        room = max(1, table.content_region.height - others)
        width = status.content_region.width
        text = self._status_text()
        if width > 0:
            lines = text.wrap(self.console, width)
            if len(lines) > room:
                more = " ... (all in Events)" if self.theme_.ascii_only else " … (all in Events)"
                kept = lines[:room]
                last = kept[-1]
                last.truncate(max(0, width - len(more)))
                last.append(more)
                text = Text("\n").join(kept)
        status.update(text)
        status.styles.max_height = room

    def _status_text(self) -> Text:
        if self.thinking is not None:
            return Text(self.thinking, style=self.theme_.style("thinking"))
        if self.important is not None:
            return Text(self.important, style=self.theme_.style("error"))
        if self.note is not None:
            return Text(self.note)
        return Text("")

    # ----------------------------------------------------------------- messages

    def show_events(self, happened: Sequence[Event]) -> None:
        for event in happened:
            if isinstance(event, Board):
                continue  # the screen shows the board itself
            if isinstance(event, Drew) and self.humans >= 2:
                continue  # hot-seat: the next person could read it in the log
            if isinstance(event, Ended):
                self.ended = event
            for line in render.event_lines(event, self.human_seats, self.card_texts):
                if line:
                    self.say(line)

    # --------------------------------------------------------------------- play

    def advance(self) -> None:
        """Once the screen is mounted, play begins: seat the players and run the engine's
        match loop (see :mod:`screen_match`). A replay shows its record instead."""
        seats: dict[str, AsyncSeat] = {
            seat_name(seat): ScreenHuman(self) if kind == HUMAN else ScreenBot(self, seat)
            for seat, kind in enumerate(self.kinds)
        }
        listeners: tuple[MatchListener, ...] = (
            () if self.recorder is None else (self.recorder,)
        )
        match = play_match_async(self.game, seats, (*listeners, ObsessionScreen(self)))
        self.match = ScreenMatch(match)
        self.match.start()

    def turn_begins(self, seat: int) -> None:
        """A seat is about to be asked: show who thinks, or hand the keyboard over."""
        self.thinking = None
        if self.human_seats[seat]:
            if self.humans >= 2 and self.viewer != seat:
                self.viewer = None
                self.refresh_table()
                self.push_screen(PassScreen(f"Player {seat + 1}"), lambda _: self._take_seat(seat))
                return
        else:
            if self.humans >= 2:
                self.viewer = None
            self.thinking = f"Player {seat + 1} is thinking..."
            if self.fast_forward_available():
                if not self.fast_forward_offered:
                    self.fast_forward_offered = True
                    who = "You are out" if self.humans else "Bots only"
                    self.say(f"{who}: press f to fast-forward.")
                self.thinking += " (f: fast-forward)"
        self.refresh_table()

    def _take_seat(self, seat: int) -> None:
        self.viewer = seat
        self.refresh_table()

    async def bot_pause(self) -> None:
        """The pause before a bot's move, cut short by ``f`` (fast-forward)."""
        self.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), self.delay)

    @guarded
    def on_input_changed(self, event: CommandInput.Changed) -> None:
        if event.value:
            self.important = None
            self.note = None
        if self.ready:
            self.query_one(CardsPanel).refresh()
            self.show_status()

    @guarded
    def on_input_submitted(self, event: CommandInput.Submitted) -> None:
        self.submit(event.value)

    def submit(self, line: str) -> None:
        """A selection typed (or clicked) by the human to move: the grammar of §11.3."""
        if not self.is_human_turn():
            return
        command = self.query_one("#command", CommandInput)
        word = line.strip().lower()
        if word in QUIT_COMMANDS:
            command.value = ""
            self.action_quit_request()
            return
        if word == MOVES_COMMAND:
            command.value = ""
            self.action_moves()
            return
        if word == HELP_COMMAND:
            command.value = ""
            self.action_help()
            return
        obs = self.game.observe(self.game.current)
        size, count = selection.expected(obs)
        positions, message = selection.parse(line, size, count)
        if message is None and not positions and line.strip():
            message = selection.no_number(size, count)  # an empty line just asks again
        if message is not None:
            self.error(message)
            return
        if not positions:
            return
        action = selection.action_for(obs, positions)
        answer = self.human_answer
        if answer is None or self.match is None:
            return
        self.offered = (obs, action)
        self.match.give(answer, action)  # a refusal comes back through ``refuse``
        command.value = ""

    def refuse(self, error: IllegalAction) -> None:
        """The game refused the human's selection: say why, in the words of the table."""
        if self.offered is None:
            self.error(error.message)
            return
        obs, action = self.offered
        self.error(explain.explain_refusal(error.message, obs, action))

    def error(self, message: str) -> None:
        self.important = f"!!! {message}"
        self.say(self.important, self.theme_.style("error"))
        self.query_one("#command", CommandInput).value = ""
        self.refresh_table()

    def action_made(self, happened: Sequence[Event]) -> None:
        self.important = None
        self.note = None
        self.show_events(happened)

    def finish(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        self.say(PRESS_ESC + (" Ctrl+R: play again." if self.offer_again else ""))
        if self.humans >= 2:
            self.viewer = None
        self.refresh_table()

    @guarded
    def toggle_number(self, number: int) -> None:
        if not self.is_human_turn():
            return
        command = self.query_one("#command", CommandInput)
        picked = selection.numbers(command.value)
        if number in picked:
            picked = [n for n in picked if n != number]
        else:
            picked.append(number)
        command.value = " ".join(str(n) for n in picked)
        command.cursor_position = len(command.value)

    # ------------------------------------------------------------------ actions

    @guarded
    def action_moves(self) -> None:
        """F2: the legal moves of the person to move, as selections, from the game's list."""
        if not self.is_human_turn() or self.screen is not self.screen_stack[0]:
            return
        obs = self.game.observe(self.game.current)
        moves = explain.legal_moves(obs, self.game.legal_actions(), self.card_texts.__getitem__,
                                    separator=self.theme_.sep)
        self.important = None
        self.note = f"Moves: {moves}"
        self.say(self.note)
        self.refresh_table()

    def fast_forward_available(self) -> bool:
        """Once a human is out of a game still going on (or none plays), the bots may play
        without pauses for the rest of it."""
        if self.game_over() or self.delay <= 0:
            return False
        humans = [seat for seat in range(self.game.players) if self.human_seats[seat]]
        return not humans or any(self.game.out[seat] for seat in humans)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "fast_forward":
            return self.fast_forward_available()
        return True

    @guarded
    def action_fast_forward(self) -> None:
        """f: no more pauses before bot plays for the rest of this game."""
        if not self.fast_forward_available():
            return
        self.delay = 0.0
        self.wake.set()
        if self.thinking is not None:
            self.thinking = self.thinking.removesuffix(" (f: fast-forward)")
        self.say("Fast-forward: the bots play without pauses.")
        self.refresh_table()

    @guarded
    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        rules = self.rules
        lines = [
            *HELP_LINES,
            "",
            f"Seed {self.seed}. Rules in play: {rules.players} players, {rules.decks} deck(s),",
            f"  run-kill {rules.run_kill}, kill order {rules.kill_order},",
            f"  max plays {rules.max_plays}, repeat limit {rules.repeat_limit}.",
        ]
        self.push_screen(HelpScreen("Obsession help", lines))

    def game_over(self) -> bool:
        return self.game.over or self.forfeit is not None

    def _quit(self) -> None:
        self.abandon()
        self.workers.cancel_group(self, "bot")
        close_bots(self.bots)
        self.exit(0)

    def closing_lines(self, interrupted: bool) -> tuple[list[str], list[str]]:
        """The line mode's ending: the placings block (a forfeit's notice and places), "Game
        abandoned." or, after Ctrl+C, the line mode's interruption."""
        forfeited = None if self.forfeit is None else forfeit_message(self.forfeit)
        if forfeited is not None and self.forfeit is not None:
            # As the line mode ends a forfeited game, places included.
            return [f"!!! {forfeited}", *render.forfeit_places(self.game, self.forfeit)], []
        if self.ended is not None:
            return render.placings_block(self.ended), []
        if interrupted:
            return [], [INTERRUPTED]
        if self.game.over:
            return [], []
        return [ABANDONED], []

    def tally_entry(self) -> tuple[list[str], list[str]] | None:
        """Each bot by its name, people by their seat's label; the first out wins."""
        from cardtable.ui.tui.result_lines import tally_names

        if self.ended is None:
            return None
        labels = [seat_label(seat, self.kinds, self.humans) for seat in range(len(self.kinds))]
        names = tally_names(self.kinds, labels)
        placings = self.ended.placings
        return names, [names[placings[0]]] if self.ended.finished and placings else []

    def abandon(self, cause: str | None = None) -> None:
        """Close the record of an unfinished game with an ``abandoned`` line (``cause``, or
        by default how the player left: ``quit`` or ``interrupt``)."""
        if not self.game_over() and not self.left:
            self.left = True
            abandoned = MatchAbandoned(seat_name(self.game.current), cause or self.quit_cause)
            with contextlib.suppress(RecordError):  # a write error was shown already
                told = (self.match is not None
                        and self.match.abandon(abandoned.seat, abandoned.cause))
                if not told and self.recorder is not None and self.writer is not None:
                    # The match stopped on an error: the record still says how it ended.
                    self.recorder.on_abandon(self.game, abandoned)
        if self.writer is not None:
            self.writer.close()
            self.writer = None




class ObsessionScreen(MatchListener):
    """Shows the match on the app: who is to move, what each action did, the end."""

    def __init__(self, app: ObsessionApp) -> None:
        self.app = app

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        assert isinstance(state, ObsessionState)
        self.app.turn_begins(state.current)

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        self.app.action_made(event)

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        app = self.app
        app.thinking = None
        forfeited = forfeit_message(result)
        if forfeited is not None:
            app.forfeit = result
            app.say(f"!!! {forfeited}", app.theme_.style("error"))
            for line in render.forfeit_places(app.game, result)[1:]:
                app.say(line)
        app.finish()


def run_obsession(rules: Rules, seats: Sequence[str], seed: int | None, delay: float | None,
                  record: str | None, ascii_only: bool = False) -> int:
    """Play one game of Obsession on the full screen and return the exit status.

    The arguments are those the ``obsession`` command parses (its ``Options``): ``rules``;
    ``seats`` ``human``, a bot's name or spec, or ``exec:COMMAND`` per seat; ``seed`` (None: a
    fresh one); ``delay`` seconds before each bot play (None: 1); ``record`` a JSON Lines
    record path; ``ascii_only`` suit letters instead of glyphs. ``NO_COLOR`` is honoured.
    Returns 0 when the game ended or the player quit, 1 after a fatal error or when the record
    file cannot be written. Raises ``UnknownBot`` (a ``GameError``) when a program cannot
    start, before the screen opens.
    """
    status, _ = play_obsession(rules, seats, fresh_seed() if seed is None else seed,
                               1.0 if delay is None else delay, record, ascii_only)
    return status


def play_obsession(rules: Rules, seats: Sequence[str], seed: int, delay: float,
                   record: str | None, ascii_only: bool,
                   offer_again: bool = False) -> tuple[int, bool]:
    """Like :func:`run_obsession`; also says whether the player asked to play again."""
    app = ObsessionApp(rules, seats, seed, delay, record, ascii_only, offer_again)
    try:
        with stop_signals_for_app(app.exit) as received:
            status: Any = app.run()
    finally:
        close_bots(app.bots)
    stopped = Stopped(received[0]) if received else None
    app.abandon(None if stopped is None else stop_cause(stopped))
    if stopped is not None:
        say_stopped(stopped, "obsession")
        return stop_status(stopped), False
    return (status if isinstance(status, int) else 0), app.again
