"""A recorded Caravan game shown on the full screen, move by move (specification §7.3).

The record has been read and checked completely before the screen opens (``load_replay``
replays it once), so showing it can no longer fail. Every hand is shown, as in the line
mode's replay; moves follow each other ``delay`` seconds apart.
"""

from __future__ import annotations

from textual.widgets import Input

from cardtable.games.caravan.record import Replay
from cardtable.ui.stop_signals import Stopped, say_stopped, stop_signals_for_app, stop_status
from cardtable.ui.tui.caravan_app import CaravanApp
from cardtable.ui.tui.caravan_text import move_message, seat_names
from cardtable.ui.tui.common import FatalScreen, HelpScreen

INCOMPLETE = "incomplete"


class CaravanReplayApp(CaravanApp):
    """The Caravan screen driven by a checked record instead of by players."""

    def __init__(self, replay: Replay, delay: float = 1.0, ascii_only: bool = False) -> None:
        # Built as a game between two people (no bots to make), then given the record's game.
        super().__init__(replay.rules, ("human", "human"), replay.seed, replay.first, delay,
                         None, None, ascii_only)
        self.replay = replay
        self.players = (replay.players["ABC"], replay.players["DEF"])
        self.names = seat_names(self.players)
        self.game = replay.start()
        self.bots = {}
        self.shown = 0
        self.exit_status = 0

    def is_human_turn(self, seat: int | None = None) -> bool:
        return False

    def viewer(self) -> int:
        return self.game.turn

    def visible_hand(self, seat: int) -> tuple[int, ...] | None:
        return self.game.observation(seat).hand

    def advance(self) -> None:
        """Show the next recorded move after ``delay`` seconds, or the end of the record."""
        self.thinking = None
        if self.ready:
            self.query_one("#command", Input).placeholder = "replay (Esc leaves)"
        if self.shown >= len(self.replay.moves):
            self._end_of_record()
        elif self.delay > 0:
            self.set_timer(self.delay, self._show_next)
        else:
            self.call_later(self._show_next)

    def _show_next(self) -> None:
        if not self.is_running or self.shown >= len(self.replay.moves):
            return
        step = self.replay.moves[self.shown]
        self.shown += 1
        event = self.replay.apply(self.game, step)
        seat = step.move.seat
        self.last_moves[seat] = event.move.notation
        self.say(move_message(self.names[seat], event, self.theme_))
        self.advance()
        self.refresh_board()

    def _end_of_record(self) -> None:
        self.replay.finish(self.game)
        result = self.game.result
        if result is not None and result.reason == "quit":
            cause = result.details.get("cause", "quit")
            self.say(f"The recorded game was not finished ({cause}).")
        missing = self.replay.missing_result()
        if missing is not None:
            self.say(missing.message, self.theme_.style("error"))
            self.exit_status = 1
            if self.game.result is None:
                self.game.abandon(INCOMPLETE)  # for the screen only: the end line, no input
        if self.game.result is not None:
            self.finish()
        self.refresh_board()

    def action_quit_request(self) -> None:
        """Esc leaves at once: a replay has nothing to lose (help closes first)."""
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        self.exit(1 if isinstance(self.screen, FatalScreen) else self.exit_status)


def run_caravan_replay(replay: Replay, delay: float, ascii_only: bool) -> int:
    """Show ``replay`` on the full screen; 0, or 1 for a record without its result line."""
    app = CaravanReplayApp(replay, delay, ascii_only)
    with stop_signals_for_app(app.exit) as received:
        status = app.run()
    if received:
        say_stopped(Stopped(received[0]))
        return stop_status(Stopped(received[0]))
    return status if isinstance(status, int) else app.exit_status

