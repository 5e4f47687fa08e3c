"""A recorded Caravan game shown on the full screen, move by move (specification §7.3).

The record has been read and checked completely before the screen opens (``load_replay``
replays it once), so showing it can no longer fail. Every hand is shown, as in the line
mode's replay; moves follow each other ``delay`` seconds apart, and the keys of
:mod:`cardtable.ui.tui.replay_controls` pause, step in both directions and jump to either end.
"""

from __future__ import annotations

from cardtable.engine.record import not_finished_message
from cardtable.games.caravan.record import Replay
from cardtable.ui.stop_signals import Stopped, say_stopped, stop_signals_for_app, stop_status
from cardtable.ui.tui.caravan_app import CaravanApp
from cardtable.ui.tui.caravan_text import move_message, seat_names
from cardtable.ui.tui.replay_controls import REPLAY_CSS, ReplayControls

INCOMPLETE = "incomplete"


class CaravanReplayApp(ReplayControls, CaravanApp):
    """The Caravan screen driven by a checked record instead of by players."""

    CSS = CaravanApp.CSS + REPLAY_CSS

    def __init__(self, replay: Replay, delay: float = 1.0, ascii_only: bool = False) -> None:
        # Built as a game between two people (no bots to make), then given the record's game.
        super().__init__(replay.rules, ("human", "human"), replay.seed, replay.first, delay,
                         None, None, ascii_only)
        self.replay = replay
        self.players = (replay.players["ABC"], replay.players["DEF"])
        self.names = seat_names(self.players)
        self.game = replay.start()
        self.bots = {}
        self.replay_setup(delay, ascii_only, 0 if replay.missing_result() is None else 1)

    def is_human_turn(self, seat: int | None = None) -> bool:
        return False

    def viewer(self) -> int:
        return self.game.turn

    def visible_hand(self, seat: int) -> tuple[int, ...] | None:
        return self.game.observation(seat).hand

    # ------------------------------------------------------------ replay hooks

    def replay_length(self) -> int:
        return len(self.replay.moves)

    def replay_reset(self) -> None:
        self.game = self.replay.start()
        self.last_moves = {}
        self.important = None

    def replay_step(self, index: int) -> None:
        step = self.replay.moves[index]
        before = self.board_view().caravans
        event = self.replay.apply(self.game, step)
        seat = step.move.seat
        self.last_moves[seat] = event.move.notation
        self.say(move_message(self.names[seat], event, self.theme_, before))

    def replay_finish(self) -> None:
        self.replay.finish(self.game)
        result = self.game.result
        if result is not None and result.reason == "quit":
            cause = result.details.get("cause", "quit")
            self.say(f"The recorded game was not finished ({cause}).")
        missing = self.replay.missing_result()
        if missing is not None:
            self.say(missing.message, self.theme_.style("error"))
            if self.game.result is None:
                self.game.abandon(INCOMPLETE)  # for the screen only: the end line, no input
        if self.game.result is not None:
            self.finish()

    def replay_redraw(self) -> None:
        self.refresh_board()

    def replay_closing(self) -> tuple[list[str], list[str]] | None:
        """A record without its result line: its error; a game that was not finished: the
        line mode's "The recorded game was not finished (CAUSE)."."""
        missing = self.replay.missing_result()
        if missing is not None:
            return [], [f"caravan: {missing.message}"]
        result = self.game.result
        if result is not None and result.reason == "quit":
            return [not_finished_message(result.details.get("cause", "quit"))], []
        return None


def run_caravan_replay(replay: Replay, delay: float, ascii_only: bool) -> int:
    """Show ``replay`` on the full screen; 0, or 1 for a record without its result line."""
    app = CaravanReplayApp(replay, delay, ascii_only)
    with stop_signals_for_app(app.exit) as received:
        status = app.run()
    if received:
        say_stopped(Stopped(received[0]), "caravan")
        return stop_status(Stopped(received[0]))
    return status if isinstance(status, int) else app.exit_status
