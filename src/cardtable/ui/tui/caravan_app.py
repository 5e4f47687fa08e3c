"""Caravan on the full screen (specification §9.1): the board, both hands, a message panel and
a command box that reads the same notation as the line mode.

The game runs in the engine's match loop (``play_match_async``, stepped on the UI thread by
``screen_match``): a human seat answers through the command box (or the mouse), a bot seat (a
built-in bot or an external program, ``bot:exec:COMMAND``) is asked in a worker after ``delay``
seconds; the record and the screen are the loop's listeners. A program that forfeits ends the
game with the result ``forfeit``, said on the screen.
The screen only ever draws observations; the game decides every legality question.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input, Label, RichLog, Static

from cardtable.agents.external_cli import bot_spec, is_exec
from cardtable.agents.registry import make_seat
from cardtable.engine.errors import IllegalAction, RecordError
from cardtable.engine.match import (
    AsyncSeat,
    MatchListener,
    Seat,
    forfeit_message,
    play_match_async,
)
from cardtable.engine.protocol import GameState, Result
from cardtable.engine.randomness import fresh_seed
from cardtable.games.caravan.board import CARAVAN_NAMES, Caravan
from cardtable.games.caravan.bots import as_caravan_bot
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.errors import MoveSyntaxError
from cardtable.games.caravan.events import MoveEvent
from cardtable.games.caravan.game import CaravanGame
from cardtable.games.caravan.howto import howto_lines, preset_label, preset_short
from cardtable.games.caravan.notation import Move, parse_move
from cardtable.games.caravan.observation import Observation
from cardtable.games.caravan.render import legal_moves_lines, message_seat, result_line
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.stalemate import is_stalemate, stalemate_message, table_rules
from cardtable.games.caravan.state import CaravanState
from cardtable.ui.stop_signals import (
    Stopped,
    say_stopped,
    stop_cause,
    stop_signals_for_app,
    stop_status,
)
from cardtable.ui.tui.caravan_record import CaravanRecord
from cardtable.ui.tui.caravan_text import (
    HELP_COMMANDS,
    HUMAN,
    INPUT_LIMIT,
    Partial,
    caravan_state,
    caravan_title,
    card_text,
    history_line,
    read_partial,
    seat_names,
    slot_line,
    slot_strip,
    styled_card,
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
from cardtable.ui.tui.theme import WIDE_WIDTH, Theme, make_theme


def cell_width(cards: int) -> int:
    """Columns per hand card: position, a space, the card, a space (``8 10♠ ``)."""
    return len(str(max(cards, 1))) + 5


class CaravanPanel(Widget):
    """One caravan: slots, position first. D E F grow upward from the centre line."""

    DEFAULT_CSS = """
    CaravanPanel { width: 1fr; height: 1fr; border: round $foreground 40%; padding: 0 0; }
    CaravanPanel.chosen { border: heavy magenta; }
    """

    def __init__(self, index: int) -> None:
        super().__init__(id=f"caravan-{CARAVAN_NAMES[index].lower()}")
        self.index = index
        self.top = index >= 3
        self.line_slots: list[int] = []

    def render(self) -> Text:
        app = self.app
        assert isinstance(app, CaravanApp)
        obs = app.board_view()
        slots = obs.caravans[self.index]
        height = max(self.content_size.height, 1)
        partial = app.partial
        chosen_slot = partial.slot if partial.caravan == self.index else None
        lines: list[Text] = []
        slot_rows: list[int] = []
        positions = list(range(1, len(slots) + 1))
        roomy = app.roomy() and 2 * len(slots) <= height and self.content_size.width >= 22
        hidden_above = 0
        if not roomy and len(positions) > height:
            # Keep the newest slots (they matter for direction and the next play).
            hidden_above = len(positions) - height + 1
            positions = positions[hidden_above:]
        chosen_style = app.theme_.style("chosen") or "reverse"
        for position in positions:
            slot = slots[position - 1]
            if roomy:
                pair = slot_strip(position, slot, app.theme_)
                if chosen_slot == position:
                    for line in pair:
                        line.stylize(chosen_style)
                lines += pair
                slot_rows += [position, position]
            else:
                line = slot_line(position, slot, app.theme_)
                if chosen_slot == position:
                    line.stylize(chosen_style)
                lines.append(line)
                slot_rows.append(position)
        if hidden_above:
            lines.insert(0, Text(f" +{hidden_above} more", style="dim"))
            slot_rows.insert(0, 0)
        if self.top:
            if roomy:
                # Reverse slot by slot: ranks stay above suits within a slot.
                lines = [line for i in range(len(lines) - 2, -1, -2) for line in lines[i:i + 2]]
                slot_rows = [row for i in range(len(slot_rows) - 2, -1, -2)
                             for row in slot_rows[i:i + 2]]
            else:
                lines.reverse()
                slot_rows.reverse()
            pad = height - len(lines)
            lines = [Text("")] * pad + lines
            slot_rows = [0] * pad + slot_rows
        self.line_slots = slot_rows
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        slot = 0
        if offset is not None and 0 <= offset.y < len(self.line_slots):
            slot = self.line_slots[offset.y]
        app = self.app
        assert isinstance(app, CaravanApp)
        app.clicked_caravan(self.index, slot)


class HandPanel(Widget):
    """A seat's hand: ``position card`` cells, or only a count when the hand is hidden."""

    DEFAULT_CSS = """
    HandPanel { height: 4; border: round $foreground 40%; }
    HandPanel.turn { border: heavy $success; }
    """

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"hand-{SEATS[seat].lower()}")
        self.seat = seat

    def cell(self) -> int:
        app = self.app
        assert isinstance(app, CaravanApp)
        return cell_width(app.board_view().hand_sizes[self.seat])

    def per_line(self) -> int:
        return max(1, self.content_size.width // self.cell())

    def render(self) -> Text:
        app = self.app
        assert isinstance(app, CaravanApp)
        hand = self.render_hand()
        pile = app.pile_text(self.seat)
        if pile is None:
            return hand
        return Text("\n").join([hand, pile])

    def render_hand(self) -> Text:
        app = self.app
        assert isinstance(app, CaravanApp)
        cards = app.visible_hand(self.seat)
        count = app.board_view().hand_sizes[self.seat]
        if cards is None:
            return Text(f"{count} card{'s' if count != 1 else ''} in hand", style="dim")
        over = app.game.result is not None
        chosen = app.partial.hand if app.is_human_turn(self.seat) else None
        per_line = self.per_line()
        out = Text()
        for number, card in enumerate(cards, start=1):
            if number > 1:
                out.append("\n" if (number - 1) % per_line == 0 else "")
            cell = Text()
            width = self.cell()
            if not over:
                cell.append(f"{number:>{width - 5}} ", style="dim")
            cell.append_text(styled_card(card, app.theme_))
            cell.pad_right(width - cell.cell_len)
            if chosen == number:
                cell.stylize(app.theme_.style("chosen") or "reverse")
            out.append_text(cell)
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        position = offset.y * self.per_line() + offset.x // self.cell() + 1
        app = self.app
        assert isinstance(app, CaravanApp)
        app.clicked_hand(self.seat, position)


QUIT_WORDS = ("quit", "exit")
ABANDONED = "Game abandoned."
INTERRUPTED = "caravan: Game interrupted."
HELP_WORDS = ("help",)
MOVES_WORD = "moves"


class CaravanApp(TableApp):
    """The Caravan screen. ``players`` per seat (ABC, DEF): ``human`` or ``bot:NAME``
    (``bot:exec:COMMAND`` for a program). Making it starts the programs; a command that cannot
    start raises ``UnknownBot`` (a ``GameError``) with the line mode's message."""

    TITLE = "Caravan"
    program = "caravan"
    CSS = """
    Screen { layout: vertical; }
    #main { height: 1fr; }
    #board { width: 1fr; }
    #top, #bottom { height: 1fr; }
    #lanes { height: 1; text-align: center; }
    #side { width: 26; }
    .wide #side { width: 44; }
    #log { height: 1fr; border: round $foreground 40%; scrollbar-size-vertical: 1; }
    #status { height: auto; min-height: 2; }
    #prompt-row { height: 1; }
    #prompt { width: auto; }
    #command { border: none; height: 1; padding: 0; width: 1fr; }
    #keys { height: 1; color: $text-muted; }
    #too-small { display: none; }
    .small #main { display: none; }
    .small #too-small { display: block; }
    .piles HandPanel { height: 5; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "moves", "Moves", priority=True),
    ]

    partial: reactive[Partial] = reactive(Partial, always_update=True)

    def __init__(self, rules: SeatRules, players: tuple[str, str], seed: int, first: int = 0,
                 delay: float = 1.0, decks: Sequence[Sequence[int] | None] | None = None,
                 record: str | None = None, ascii_only: bool = False,
                 offer_again: bool = False) -> None:
        self.theme_: Theme = make_theme(ascii_only)  # read NO_COLOR before Textual pops it
        super().__init__()
        self.rules = rules
        self.players = players
        self.names = seat_names(players)
        self.seed = seed
        self.first = first
        self.delay = delay
        self.decks = decks
        self.record_path = record
        self.offer_again = offer_again
        self.again = False
        self.ready = False
        self.messages: list[str] = []
        self.last_moves: dict[int, str] = {}
        self.before: tuple[Caravan, ...] = ()
        """The board before the move being made: it tells where removed cards stood."""
        self.thinking: str | None = None
        self.important: str | None = None
        self.record: CaravanRecord | None = None
        self.seated: int | None = None  # hot seat: whose hand the screen may show
        humans = (players[0] == HUMAN, players[1] == HUMAN)
        self.game = CaravanState.new(table_rules(rules, humans), seed, first, decks)
        self.match: ScreenMatch | None = None
        self.human_answer: Answer[Move] | None = None
        """The move the human to move is asked for (None while nobody waits for one)."""
        self.bots: dict[int, Seat] = make_bots(
            CaravanGame(rules, first),
            {seat: kind.split(":", 1)[1] for seat, kind in enumerate(players) if kind != HUMAN},
            SEATS.__getitem__, seed, record,
            lambda seat, spec: as_caravan_bot(
                seat, make_seat(CaravanGame(rules, first), spec, SEATS[seat], seed), spec))

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="board"):
                with Horizontal(id="top"):
                    for index in (3, 4, 5):
                        yield CaravanPanel(index)
                yield Static(id="lanes")
                with Horizontal(id="bottom"):
                    for index in (0, 1, 2):
                        yield CaravanPanel(index)
            with Vertical(id="side"):
                yield HandPanel(1)
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=16)
                yield Static(id="status")
                yield HandPanel(0)
                with Horizontal(id="prompt-row"):
                    yield Label("", id="prompt")
                    yield CommandInput(id="command", restrict=r"[A-Za-z0-9]*",
                                       max_length=INPUT_LIMIT,
                                       placeholder=self.hint())
                yield Static(self.keys_text(), id="keys")
        yield TooSmall(id="too-small")

    @guarded
    def on_mount(self) -> None:
        self.ready = True
        log = self.query_one("#log", RichLog)
        log.border_title = " Messages "
        log.border_subtitle = f" {preset_short(self.rules)}{self.theme_.sep}seed {self.seed} "
        self.screen_stack[0].set_class(self.shows_piles(), "piles")
        self._fit(self.size.width, self.size.height)
        try:
            if self.record_path is not None:
                decks = self.decks or (None, None)
                sources = ("random" if decks[0] is None else "file",
                           "random" if decks[1] is None else "file")
                self.record = CaravanRecord(self.record_path, self.game, self.players, sources)
        except OSError as error:
            self.fatal(f"Cannot open record file '{self.record_path}': "
                       f"{error.strerror or error}.")
            return
        self.say("Welcome to Caravan")
        self.say(f"Rules: {preset_label(self.rules)}{self.theme_.sep}seed {self.seed}",
                 self.theme_.style("dim"))
        if self.game.result is None:
            self.say(f"{self.names[self.game.turn]} to move first.")
            if self.players == (HUMAN, HUMAN):
                self.seated = self.game.turn  # whoever starts sits down without a hand-over
        self.advance()

    # ------------------------------------------------------------------ views

    def viewer(self) -> int:
        """Whose view the board shows: the human (vs a bot), the seat to move otherwise."""
        humans = [seat for seat, kind in enumerate(self.players) if kind == HUMAN]
        if len(humans) == 1:
            return humans[0]
        return self.game.turn

    def roomy(self) -> bool:
        """Room for the two-line face strips of the original screen (a wide terminal)."""
        return self.size.width >= WIDE_WIDTH

    def board_view(self) -> Observation:
        return self.game.observation(self.viewer())

    def visible_hand(self, seat: int) -> tuple[int, ...] | None:
        """The cards of ``seat``'s hand this screen may show, or None (count only)."""
        humans = [kind == HUMAN for kind in self.players]
        if humans[seat] and not humans[1 - seat]:
            return self.game.observation(seat).hand
        if not humans[seat] and humans[1 - seat]:
            return None  # never reveal a bot's hand to its human opponent
        if all(humans) and (self.game.result is not None or seat != self.game.turn
                            or seat != self.seated):
            return None  # pass-and-play: only the seat to move, once it has the keyboard
        return self.game.observation(seat).hand

    def hint(self) -> str:
        """The notation reminder in the command line, in the caravans of the human to move
        (DEF's are D E F); none when only bots play."""
        humans = [seat for seat, kind in enumerate(self.players) if kind == HUMAN]
        if not humans:
            return ""
        seat = self.game.turn if len(humans) == 2 else humans[0]
        own, other = ("ABC", "DEF") if seat == 0 else ("DEF", "ABC")
        rules = self.rules.of(seat)
        clear = f"C{own[1]}4" if rules.clear_policy == "destroy_restart" else f"C{own[0]}"
        face = other[2] if rules.faces_on_opponent else own[1]  # a target the rules allow
        return f"P2{own[1]} P4{face}3 D3 {clear}"

    def keys_text(self) -> str:
        if HUMAN in self.players:
            return "Esc quit  ? help  F2 moves"
        return f"Esc quit{self.theme_.sep}?/F1 help"

    def shows_piles(self) -> bool:
        """Discard piles matter (and are shown) where a seat reshuffles them into a deck."""
        return any(rules.deck_exhaustion == "reshuffle_discards"
                   for rules in self.rules.as_tuple())

    def pile_text(self, seat: int) -> Text | None:
        """``pile 3: 7S QH 4D`` (newest last, the oldest cut when the line is full)."""
        if not self.shows_piles():
            return None
        pile = self.board_view().piles[seat]
        head = f"pile {len(pile)}"
        if not pile:
            return Text(head, style="dim")
        room = 40
        for hand in self.query(HandPanel):
            if hand.seat == seat:
                room = max(hand.content_size.width, 12)
        words: list[str] = []
        used = len(head) + 1
        for card in reversed(pile):
            word = card_text(card, self.theme_)
            if used + len(word) + 1 > room - 2:
                words.append("..." if self.theme_.ascii_only else "…")
                break
            words.append(word)
            used += len(word) + 1
        return Text(f"{head}: " + " ".join(reversed(words)), style="dim")

    def is_human_turn(self, seat: int | None = None) -> bool:
        if self.game.result is not None:
            return False
        turn = self.game.turn
        return self.players[turn] == HUMAN and (seat is None or seat == turn)

    def refresh_board(self) -> None:
        if not self.ready:
            return
        view = self.board_view()
        for panel in self.query(CaravanPanel):
            panel.border_title = caravan_title(view, panel.index, self.theme_,
                                               compact=panel.size.width < 24)
            state = caravan_state(view, panel.index)
            panel.border_subtitle = f" {state} " if state else ""
            panel.set_class(self.partial.caravan == panel.index, "chosen")
            panel.refresh()
        for hand in self.query(HandPanel):
            seat = hand.seat
            hand.border_title = f" {self.names[seat]} "
            hand.border_subtitle = (f" deck {view.deck_sizes[seat]}{self.theme_.sep}"
                                     f"hand {view.hand_sizes[seat]} ")
            hand.set_class(self.game.result is None and self.game.turn == seat, "turn")
            hand.refresh()
        self.query_one("#lanes", Static).update(self._lanes_text())
        self.query_one("#status", Static).update(self._status_text())
        prompt = self.query_one("#prompt", Label)
        command = self.query_one("#command", Input)
        if self.is_human_turn():
            prompt.update(f"{self.names[self.game.turn]} > ")
            command.disabled = False
            command.focus()
        else:
            prompt.update("")
            command.disabled = True

    def _lanes_text(self) -> Text:
        lanes = self.game.lanes()
        parts = []
        for lane, taker in enumerate(lanes):
            pair = f"{CARAVAN_NAMES[lane]}{CARAVAN_NAMES[lane + 3]}"
            parts.append(f"{pair}: {'-' if taker is None else self.names[taker]}")
        text = Text("lanes  " + "   ".join(parts), style="dim")
        return text

    def _status_text(self) -> Text:
        if self.game.result is not None:
            return Text(self._end_line(), style=self.theme_.style("important"))
        if self.thinking is not None:
            return Text(self.thinking, style=self.theme_.style("thinking"))
        if self.important is not None:
            return Text(self.important, style=self.theme_.style("error"))
        moves = [f"{self.names[seat]} {text}" for seat, text in sorted(self.last_moves.items())]
        return Text("last: " + self.theme_.sep.join(moves) if moves else "", style="dim")

    def _end_line(self) -> str:
        result = self.game.result
        assert result is not None
        if result.reason == "quit":
            return "Game abandoned. " + PRESS_ESC
        head = (f"WINNER: {self.names[SEATS.index(result.winners[0])]}"
                if result.winners else "DRAW")
        if forfeit_message(result) is not None:
            head = f"{self.names[SEATS.index(str(result.details.get('seat')))]} forfeits. {head}"
        again = " Ctrl+R: play again." if self.offer_again else ""
        return f"{head}. {PRESS_ESC}{again}"

    def watch_partial(self) -> None:
        self.refresh_board()

    # ------------------------------------------------------------------ play

    def advance(self) -> None:
        """Once the screen is mounted, play begins: seat the players and run the engine's
        match loop (see :mod:`screen_match`). A replay shows its record instead."""
        seats: dict[str, AsyncSeat] = {
            SEATS[seat]: ScreenHuman(self) if kind == HUMAN else ScreenBot(self, seat)
            for seat, kind in enumerate(self.players)
        }
        listeners: tuple[MatchListener, ...] = (
            () if self.record is None else (self.record.recorder,)
        )
        match = play_match_async(self.game, seats, (*listeners, CaravanScreen(self)))
        self.match = ScreenMatch(match)
        self.match.start()

    def turn_begins(self, turn: int) -> None:
        """A seat is about to be asked: show who thinks, or hand the keyboard over."""
        self.thinking = None
        self.before = self.board_view().caravans
        if self.players[turn] != HUMAN:
            self.thinking = f"{self.names[turn]} is thinking..."
        elif self.players == (HUMAN, HUMAN) and self.seated != turn:
            self.seated = None
            self.query_one("#command", Input).placeholder = self.hint()
            self.push_screen(PassScreen(self.names[turn]), lambda _: self._take_seat(turn))
        self.partial = Partial()

    def _take_seat(self, seat: int) -> None:
        self.seated = seat
        self.partial = Partial()

    @guarded
    def on_input_changed(self, event: Input.Changed) -> None:
        if not self.is_human_turn():
            return
        if event.value:
            self.important = None  # a new command replaces the last error
        self.partial = read_partial(event.value, self.rules, self.game.turn)

    @guarded
    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        self.submit(event.value)

    def submit(self, text: str) -> None:
        """A command typed (or clicked) by the human to move."""
        if not self.is_human_turn():
            return
        seat = self.game.turn
        if not text.strip():
            return
        self.say(f"{self.names[seat]} entered: {text.strip()}", self.theme_.style("dim"))
        word = text.strip().lower()
        if word in QUIT_WORDS:
            self.action_quit_request()
            return
        if word in HELP_WORDS:
            self.action_help()
            return
        if word == MOVES_WORD:
            self.action_moves()
            return
        try:
            move = parse_move(text, self.rules, seat)
        except MoveSyntaxError as error:
            self.refused(error.message)
            return
        if move is not None and self.human_answer is not None and self.match is not None:
            self.match.give(self.human_answer, move)

    def refuse(self, error: IllegalAction) -> None:
        """The game refused the human's move."""
        self.refused(error.message)

    def refused(self, message: str) -> None:
        """The human's command is no move, or the game refused it."""
        self.important = message
        self.say(message, self.theme_.style("error"))
        self.partial = Partial()

    def move_made(self, seat: int, event: MoveEvent) -> None:
        self.important = None
        self.thinking = None
        self.last_moves[seat] = event.move.notation
        humans = (self.players[0] == HUMAN, self.players[1] == HUMAN)
        view = message_seat(humans, seat, self.game.result is not None)
        entry = self.game.observation(view).history[-1]
        self.say(history_line(entry, event, self.names, self.theme_, self.before))

    def finish(self) -> None:
        result = self.game.result
        assert result is not None
        if self.record is not None:
            self.record.finish(self.game)
        if result.reason != "quit":
            forfeited = forfeit_message(result)
            if forfeited is not None:
                seat = SEATS.index(str(result.details.get("seat")))
                self.say(f"{self.names[seat]} {forfeited}", self.theme_.style("error"))
            if result.winners:
                winner = self.names[SEATS.index(result.winners[0])]
                self.say(f"WINNER: {winner}", self.theme_.style("important"))
            else:
                self.say("DRAW", self.theme_.style("important"))
            lanes = result.details.get("lanes")
            if lanes is not None:
                shown = ", ".join("-" if lane is None else self.names[SEATS.index(lane)]
                                  for lane in lanes)
                self.say(f"Lanes: {shown}")
            self.say(PRESS_ESC)
        self.partial = Partial()

    def stop_match(self, cause: str) -> None:
        """End an unfinished game as abandoned (``cause``), through the match loop, so that
        the record hears of it as of any abandoned match; then close the record."""
        if self.game.result is None:
            if self.match is not None:
                self.match.abandon(SEATS[self.game.turn], cause)
            if self.game.result is None:
                self.game.abandon(cause)
        if self.record is not None:
            self.record.finish(self.game)

    # ------------------------------------------------------------------ mouse

    @guarded
    def clicked_hand(self, seat: int, position: int) -> None:
        if not self.is_human_turn(seat):
            return
        cards = self.visible_hand(seat)
        if cards is None or not 1 <= position <= len(cards):
            return
        command = self.query_one("#command", Input)
        command.value = f"P{position}"
        command.cursor_position = len(command.value)

    @guarded
    def clicked_caravan(self, index: int, slot: int) -> None:
        if not self.is_human_turn():
            return
        command = self.query_one("#command", Input)
        partial = read_partial(command.value, self.rules, self.game.turn)
        if partial.kind != "P" or partial.hand is None:
            return
        text = f"P{partial.hand}{CARAVAN_NAMES[index]}{slot or ''}"
        command.value = ""
        self.submit(text)

    # ---------------------------------------------------------------- actions

    @guarded
    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        # The page is 90% of the screen wide, less its border, padding and scroll bar.
        width = max(int(self.size.width * 0.9) - 6, 30)
        lines = [*howto_lines(self.rules, width), f"Seed: {self.seed}", "", *HELP_COMMANDS]
        self.push_screen(HelpScreen("Caravan help", lines))

    @guarded
    def action_moves(self) -> None:
        """F2 or ``moves``: the legal moves of the human to move, from the game's own list."""
        if not self.is_human_turn() or self.screen is not self.screen_stack[0]:
            return  # nothing to list, or a page (help, hand-over) covers the table
        notations = [move.notation for move in self.game.legal_moves()]
        if self.players == (HUMAN, HUMAN):
            # Hot seat: the list tells about the hand, so it is not left in the shared log.
            width = max(int(self.size.width * 0.9) - 6, 30)
            self.push_screen(HelpScreen("Legal moves", legal_moves_lines(notations, width)))
            return
        width = max(self.query_one("#log", RichLog).content_size.width, 20)
        for line in legal_moves_lines(notations, width):
            self.say(line)

    def game_over(self) -> bool:
        return self.game.result is not None

    def _quit(self) -> None:
        if self.game.result is None:
            self.stop_match(self.quit_cause)
        self.workers.cancel_group(self, "bot")
        close_bots(self.bots)
        self.exit(0)

    def closing_lines(self, interrupted: bool) -> tuple[list[str], list[str]]:
        return caravan_lines(self.game, tuple(self.names), interrupted)

    def tally_entry(self) -> tuple[list[str], list[str]] | None:
        return caravan_tally(self.game, self.players, self.names)




class CaravanScreen(MatchListener):
    """Shows the match on the app: who is to move, each move, the end."""

    def __init__(self, app: CaravanApp) -> None:
        self.app = app

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        self.app.turn_begins(SEATS.index(seat))

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        assert isinstance(event, MoveEvent)
        self.app.move_made(SEATS.index(seat), event)

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        app = self.app
        app.thinking = None
        if app.game.result is None:
            # A forfeit ends the match, not the game: the screen keeps its result, as a
            # replay of the record does.
            app.game.result = result
        if is_stalemate(result):
            app.say(stalemate_message(app.game.seat_rules.stuck_plies), app.theme_.style("error"))
        app.finish()


def caravan_lines(game: CaravanState, names: tuple[str, ...],
                  interrupted: bool) -> tuple[list[str], list[str]]:
    """What the screen leaves on the terminal: the line mode's result line (and a forfeit's
    notice), "Game abandoned." or, after Ctrl+C, the line mode's interruption."""
    result = game.result
    if result is None:
        return [], []  # a replay cut short or an error screen: the screen said why
    if result.reason == "quit":
        cause = result.details.get("cause")
        if interrupted or cause == "interrupt":
            return [], [INTERRUPTED]
        return ([ABANDONED] if cause == "quit" else []), []
    line = result_line(result, (names[0], names[1]))
    forfeited = forfeit_message(result)
    if forfeited is not None:  # as the line mode says it: who forfeited and why, then the winner
        return [forfeited, *([] if line is None else [line])], []
    return ([] if line is None else [line]), []


def caravan_tally(game: CaravanState, players: Sequence[str],
                  names: Sequence[str]) -> tuple[list[str], list[str]] | None:
    """(every player, the winners) of a finished game, for the launcher's tally: each bot by
    its name, people by their seat's name (see ``result_lines.tally_names``)."""
    from cardtable.ui.tui.result_lines import tally_names

    result = game.result
    if result is None or result.reason == "quit":
        return None
    named = tally_names(players, names)
    return named, [named[SEATS.index(seat)] for seat in result.winners]


def parse_players(players: tuple[str, str]) -> tuple[str, str]:
    """Check ``human`` / ``bot:NAME`` seat kinds (lower-cased, but for the command of
    ``bot:exec:COMMAND``, which is not started here); raises ValueError otherwise."""
    from cardtable.games.caravan.bots import BOTS
    from cardtable.ui.seat_kinds import bot_refusal

    checked = []
    for kind in players:
        kind = kind.strip()
        head, _, name = kind.partition(":")
        if head.lower() == "bot" and is_exec(name):
            if not name.strip()[len("exec:"):].strip():
                raise ValueError("The bot 'exec' needs a command after 'exec:'.")
            checked.append(f"bot:{bot_spec(name)}")
            continue
        kind = kind.lower()
        if kind != HUMAN:
            head, _, name = kind.partition(":")
            # Besides the rule bots, any registry spec (``bot:ismcts:iters=500``).
            if head != "bot" or bot_refusal(CaravanGame.load(), name) is not None:
                raise ValueError(f"Unknown player '{kind}' (allowed: human, "
                                 f"{', '.join('bot:' + bot for bot in BOTS)}).")
        checked.append(kind)
    return checked[0], checked[1]


def run_caravan(rules: SeatRules, players: tuple[str, str], seed: int | None, first: int,
                delay: float, decks: tuple[list[int] | None, list[int] | None] | None,
                record: str | None, ascii_only: bool) -> int:
    """Play one game of Caravan on the full screen and return the exit status.

    ``rules`` are both seats' assembled rules; ``players`` per seat (ABC, DEF) ``"human"`` or
    ``"bot:NAME"``; ``seed`` seeds everything (None: a fresh one); ``first`` 0 = ABC leads,
    1 = DEF (``-f 1|2`` minus one); ``delay`` seconds before each bot move; ``decks`` the cards
    of deck files per seat (None: random decks); ``record`` a JSON Lines record path;
    ``ascii_only`` shows suit letters instead of glyphs. ``NO_COLOR`` is honoured.
    Returns 0 when the game finished or the player quit, 1 after a fatal error (shown on the
    screen first) or when the record file cannot be opened. Raises ``UnknownBot`` (a
    ``GameError``) when a program (``bot:exec:COMMAND``) cannot start, before the screen opens.
    """
    status, _ = play_caravan(rules, players, fresh_seed() if seed is None else seed, first,
                             delay, decks, record, ascii_only)
    return status


def play_caravan(rules: SeatRules, players: tuple[str, str], seed: int, first: int,
                 delay: float, decks: tuple[list[int] | None, list[int] | None] | None,
                 record: str | None, ascii_only: bool,
                 offer_again: bool = False) -> tuple[int, bool]:
    """Like :func:`run_caravan`; also says whether the player asked to play again."""
    app = CaravanApp(rules, parse_players(players), seed, first, delay, decks, record,
                     ascii_only, offer_again)
    try:
        with stop_signals_for_app(app.exit) as received:
            status = app.run()
    finally:
        close_bots(app.bots)
    stopped = Stopped(received[0]) if received else None
    if app.game.result is None:
        with contextlib.suppress(RecordError):  # a write error was shown already
            app.stop_match("quit" if stopped is None else stop_cause(stopped))
    if stopped is not None:
        say_stopped(stopped, "caravan")
        return stop_status(stopped), False
    return (status if isinstance(status, int) else 0), app.again
