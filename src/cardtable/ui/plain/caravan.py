"""Caravan in plain line mode (§9.2): works with pipes, prints lines, reads one line per move.

The shell only ever shows what observations contain: it renders the board from the
observations of the seats whose hands may be shown (§9.1) and the log line of each move
from the public history as its viewer saw it. Humans and bots are seats of the engine's
match loop and receive observations only.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from cardtable.engine.errors import IllegalAction
from cardtable.engine.match import (
    BotPause,
    MatchAbandoned,
    MatchListener,
    Seat,
    forfeit_message,
    play_match,
)
from cardtable.engine.one_line import error_line
from cardtable.engine.protocol import GameState, Result
from cardtable.games.caravan import render
from cardtable.games.caravan.board import Caravan
from cardtable.games.caravan.bots import Bot
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.errors import MoveSyntaxError
from cardtable.games.caravan.events import MoveEvent, removed_slots
from cardtable.games.caravan.howto import howto_lines
from cardtable.games.caravan.notation import Move, parse_move
from cardtable.games.caravan.observation import Observation
from cardtable.games.caravan.record import Replay
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.stalemate import is_stalemate, stalemate_message
from cardtable.games.caravan.state import CaravanState
from cardtable.ui.plain.console import Console, EndOfInput

QUIT_WORDS = ("quit", "exit")
HELP_WORDS = ("help", "?")
MOVES_WORD = "moves"

LINE_COMMANDS = [
    "",
    "Commands (examples for ABC; DEF's own caravans are D E F: P2E, CD)",
    "  P2B   play the numeral at hand position 2 on your caravan B",
    "  P4F3  play the face card at hand position 4 on slot 3 of caravan F",
    "  D3    discard the card at hand position 3",
    "  CA    clear your caravan A (CB4 destroys B and restarts it with hand card 4,",
    "        where the rules have destroy-and-restart)",
    "  moves list your legal moves",
    "  help  this page (also ?)",
    "  quit  leave the game (also exit)",
]

EXIT_OK = 0
EXIT_INPUT_ENDED = 3
EXIT_INCOMPLETE_RECORD = 1


class PlainCaravan(MatchListener):
    """Shows one game (or one replay) on a :class:`Console`.

    ``humans`` tells which seats are people (ABC, DEF); it decides the display names and
    which hands are shown. ``reveal`` shows every hand (replays). ``sleep`` is the pause
    used for ``delay`` (replaceable in tests).
    """

    def __init__(
        self,
        console: Console,
        humans: tuple[bool, bool],
        delay: float = 0.0,
        reveal: bool = False,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.console = console
        self.humans = humans
        self.names = render.display_names(humans)
        self.delay = delay
        self.reveal = reveal
        self.sleep = sleep
        self.board_before: tuple[Caravan, ...] = ()
        self.passing: CaravanState | None = None  # hot seat: the board waits for the next Enter

    # ------------------------------------------------------------ what is shown

    def viewers(self, game: CaravanState) -> list[Observation]:
        """The observations whose hands the board may show (§9.1 hiding rules)."""
        both = [game.observation(0), game.observation(1)]
        if self.reveal or self.humans == (False, False):
            return both
        if self.humans == (True, True):
            return both if game.result is not None else [game.observation(game.turn)]
        return [both[0 if self.humans[0] else 1]]

    def message_view(self, game: CaravanState, mover: int) -> Observation:
        """The observation a move's log line is taken from (hidden cards stay hidden)."""
        return game.observation(
            render.message_seat(self.humans, mover, game.result is not None, self.reveal))

    def say(self, text: str) -> None:
        self.console.say(text)

    def show_board(self, game: CaravanState) -> None:
        view = render.BoardView.of(self.viewers(game))
        if is_stalemate(game.result):
            view = dataclasses.replace(view, over=False)  # stopped, shown as still in play
        for line in render.board_lines(view, self.names) + render.status_lines(view):
            self.say(line)

    def show_result(self, game: CaravanState) -> None:
        if game.result is None:
            return
        line = render.result_line(game.result, self.names)
        if line is not None:
            self.say(line)

    # ------------------------------------------------------------- match hooks

    def start(self, game: CaravanState) -> None:
        """Welcome, the mulligans shown during the deal, who starts, the first board."""
        self.say(render.welcome())
        viewer = self.message_view(game, game.first)
        for entry in viewer.history:
            if entry.code is None:
                self.say(render.history_message(entry, self.names))
                self.say(render.shown_cards(self.names[entry.seat], entry.cards))
        self.say(render.to_move_first(self.names[game.first]))
        self.show_board(game)
        self.show_result(game)

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        assert isinstance(state, CaravanState)
        self.remember_board(state)
        mover = SEATS.index(seat)
        if not self.humans[mover]:
            self.say(render.thinking(self.names[mover]))

    def remember_board(self, game: CaravanState) -> None:
        """Keep the public board before a move: it tells where removed cards stood."""
        self.board_before = game.observation(game.turn).caravans

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        assert isinstance(state, CaravanState)
        mover = SEATS.index(seat)
        entry = self.message_view(state, mover).history[-1]
        removals: render.Removals = ()
        if isinstance(event, MoveEvent) and event.removed and event.target is not None:
            removals = removed_slots(self.board_before, event.removed, event.move.caravan)
        self.say(render.history_message(entry, self.names, removals=removals))
        # A game the stuck_plies rule stops is shown as still going: the stop is said last.
        going = state.result is None or is_stalemate(state.result)
        if (self.humans == (True, True) and not self.reveal and going
                and state.turn != mover):
            # Hot seat: the next hand is shown once its player has the keyboard.
            self.say(render.to_move_next(self.names[state.turn]))
            self.passing = state
            return
        self.show_board(state)
        if not going:
            self.show_result(state)
        else:
            self.say(render.to_move_next(self.names[state.turn]))

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        assert isinstance(state, CaravanState)
        if is_stalemate(result):
            self.say(stalemate_message(state.seat_rules.stuck_plies))

    def hand_over(self) -> None:
        """Hot seat: wait for Enter from the player to move, then show their board.

        Raises :class:`EndOfInput` when the input ends, and :class:`MatchAbandoned` when the
        line is ``quit`` or ``exit``.
        """
        game = self.passing
        if game is None:
            return
        seat = game.turn
        line = self.console.ask(f"Pass to {self.names[seat]} and press Enter. ")
        if line.strip().lower() in QUIT_WORDS:
            raise MatchAbandoned(SEATS[seat], "quit")
        self.passing = None
        self.show_board(game)

    def on_rejected(self, state: GameState[Any, Any], seat: str, error: IllegalAction) -> None:
        self.say(error.message)

    # ------------------------------------------------------------------ seats

    def human(self, seat: int) -> PlainHuman:
        return PlainHuman(self, seat)

    def bot(self, bot: Bot) -> PlainBot:
        return PlainBot(self, bot)

    # ---------------------------------------------------------------- running

    def play(self, game: CaravanState, seats: Mapping[str, Seat],
             listeners: tuple[MatchListener, ...] = ()) -> int:
        """Play ``game`` to its end; returns the exit status (0, or 3 when input ended).

        ``listeners`` (a recorder) hear of every move before the shell shows it.
        """
        self.start(game)
        if game.result is not None:
            return EXIT_OK
        bots = [SEATS[seat] for seat in (0, 1) if not self.humans[seat]]
        try:
            play_match(game, seats, (*listeners, self, BotPause(bots, self.delay, self.sleep)))
        except MatchAbandoned as abandoned:
            game.abandon(abandoned.cause)
            if abandoned.cause == "eof":
                self.say(render.INPUT_ENDED)
                return EXIT_INPUT_ENDED
        return EXIT_OK

    def replay(self, replay: Replay) -> int:
        """Show a checked record move by move, pausing ``delay`` seconds before each move."""
        game = replay.start()
        self.start(game)
        for step in replay.moves:
            if self.delay > 0:
                self.sleep(self.delay)
            self.remember_board(game)
            event = replay.apply(game, step)
            self.on_action(game, SEATS[step.move.seat], step.move, event)
        replay.finish(game)
        result = game.result
        if result is not None and result.reason == "quit":
            cause = result.details.get("cause", "quit")
            self.say(f"The recorded game was not finished ({cause}).")
        elif result is not None and (forfeited := forfeit_message(result)) is not None:
            self.say(forfeited)
            self.show_result(game)
        incomplete = replay.missing_result()
        if incomplete is not None:
            print(error_line("caravan", incomplete.message), file=sys.stderr)
            return EXIT_INCOMPLETE_RECORD
        return EXIT_OK


class PlainHuman:
    """A person at the keyboard: prompt ``NAME > ``, one line per attempt."""

    def __init__(self, shell: PlainCaravan, seat: int) -> None:
        self.shell = shell
        self.seat = seat
        self.name = shell.names[seat]

    def choose(self, observation: Observation) -> Move:
        console = self.shell.console
        rules = SeatRules(*observation.rules)
        if self.shell.passing is not None:
            try:
                self.shell.hand_over()
            except EndOfInput:
                raise MatchAbandoned(SEATS[self.seat], "eof") from None
        while True:
            try:
                line = console.ask(f"{self.name} > ")
            except EndOfInput:
                raise MatchAbandoned(SEATS[self.seat], "eof") from None
            if not line.strip():
                continue
            console.say(render.entered(self.name, line))
            word = line.strip().lower()
            if word in QUIT_WORDS:
                raise MatchAbandoned(SEATS[self.seat], "quit")
            if word in HELP_WORDS:
                for text in howto_lines(rules) + LINE_COMMANDS:
                    console.say(text)
                continue
            if word == MOVES_WORD:
                notations = [move.notation for move in observation.legal_moves()]
                for text in render.legal_moves_lines(notations):
                    console.say(text)
                continue
            try:
                move = parse_move(line, rules, self.seat)
            except MoveSyntaxError as error:
                console.say(error.message)
                continue
            if move is not None:
                return move

    def rejected(self, error: IllegalAction) -> None:
        """The shell has already printed the error; the prompt simply repeats."""


class PlainBot:
    """A bot seat. The shell announces it (``on_turn``) and a :class:`BotPause` listener
    waits ``delay`` seconds before each of its moves."""

    def __init__(self, shell: PlainCaravan, bot: Bot) -> None:
        self.shell = shell
        self.bot = bot
        self.name = shell.names[bot.seat]

    def choose(self, observation: Observation) -> Move:
        return self.bot.choose(observation)

    def rejected(self, error: IllegalAction) -> None:
        self.bot.rejected(error)
