"""Any game in plain line mode, through its description and the state protocol alone: the
generic terminal table's line mode (``cardtable play GAME --plain``).

A person's turn shows the seat's view and its legal moves, numbered in the game's notation; the
answer is a number or a move in notation. ``moves`` lists the moves again, ``help`` (or ``?``)
shows how to play, ``quit`` (or ``exit``) leaves the game. With two people or more at the table,
a pass line hides one person's view from the next. Bots and programs play through the match
loop; every move is said as it is made, and the result at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.engine.description import GameDescription
from cardtable.engine.errors import GameError, IllegalAction
from cardtable.engine.match import BotPause, MatchAbandoned, MatchListener, Seat, play_match
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
from cardtable.ui.plain.console import Console, EndOfInput

EOF_CAUSE = "eof"
QUIT_CAUSE = "quit"
EXIT_OK, EXIT_EOF = 0, 3


class GenericHuman:
    """A person at the terminal, for the seat ``seat`` of ``state`` (the table's state: the
    seat's own view and moves are read from it, as the description allows)."""

    def __init__(self, console: Console, described: GameDescription, state: Any, seat: str,
                 pass_screens: bool) -> None:
        self.console = console
        self.described = described
        self.state = state
        self.seat = seat
        self.pass_screens = pass_screens
        self.asked_again = False

    def _ask(self, prompt: str) -> str:
        try:
            return self.console.ask(prompt)
        except EndOfInput:
            raise MatchAbandoned(self.seat, EOF_CAUSE) from None

    def show(self, moves: Sequence[tuple[str, Any]]) -> None:
        say = self.console.say
        say(f"--- {self.seat} to move")
        for line in readable_lines(seat_view(self.described, self.state, self.seat), "  "):
            say(line)
        say(f"+++ Moves: {numbered(moves)}")

    def choose(self, observation: Any) -> Any:
        moves = legal_moves(self.state)
        if not self.asked_again:
            if self.pass_screens:
                self._ask(f"+++ Pass to {self.seat}, press Enter: ")
            self.show(moves)
        self.asked_again = False
        while True:
            line = self._ask(f"+++ {self.seat}, your move (number or notation): ")
            word = line.strip().lower()
            if not word:
                continue
            if word in QUIT_COMMANDS:
                raise MatchAbandoned(self.seat, QUIT_CAUSE)
            if word == MOVES_COMMAND:
                self.console.say(f"+++ Moves: {numbered(moves)}")
                continue
            if word in HELP_COMMANDS:
                for text in self.described.howto():
                    self.console.say(f"+++ {text}")
                self.console.say("+++ Type a move's number or the move; moves lists them, "
                                 "quit leaves the game.")
                continue
            try:
                return chosen(self.state, moves, line)
            except GameError as error:
                self.console.say(f"!!! {error.message}")

    def rejected(self, error: IllegalAction) -> None:
        self.console.say(f"!!! {error.message}")
        self.asked_again = True


class GenericTable(MatchListener):
    """Says every move in the game's notation (``*** P2: bet``), and the result."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.before: Any = None

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        # The notation of an action is the state's before it is applied.
        self.before = state.clone()

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        text = self.before.action_text(action) if self.before is not None else str(action)
        self.console.say(f"*** {seat}: {text}")

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        self.console.say("=== Game over ===")
        for line in result_lines(result):
            self.console.say(line)


def play_plain(described: GameDescription, state: Any, kinds: Mapping[str, str],
               bots: Mapping[str, Seat], console: Console, delay: float,
               listeners: Sequence[MatchListener] = ()) -> int:
    """Play ``state`` to its end in line mode: ``kinds`` names each seat's player (``human``,
    a bot spec), ``bots`` seats the others. Returns 0 (the game ended, or a person quit) or 3
    (input ended first); :class:`KeyboardInterrupt` is the caller's."""
    people = [seat for seat, kind in kinds.items() if kind == "human"]
    seats: dict[str, Seat] = {
        seat: (GenericHuman(console, described, state, seat, len(people) >= 2)
               if kind == "human" else bots[seat])
        for seat, kind in kinds.items()}
    players = ", ".join(f"{seat} {kind}" for seat, kind in kinds.items())
    console.say(f"@@@ {described.title}: {players}")
    try:
        play_match(state, seats, (*listeners, GenericTable(console),
                                  BotPause([seat for seat in kinds if seat not in people],
                                           delay)))
    except MatchAbandoned as abandoned:
        if abandoned.cause == EOF_CAUSE:
            console.say("!!! End of input, game abandoned")
            return EXIT_EOF
        console.say("!!! Game abandoned")
    return EXIT_OK
