"""A recorded Obsession game shown on the full screen, decision by decision.

The record has been checked completely before the screen opens (``check_replay`` replays it
once), so showing it can no longer fail. The table is the game's own screen; below the table a
panel shows every hand (a replay hides nothing that was dealt face up to someone), and the
event log reads as it did in the game. Decisions (swaps, plays, blind turns) follow each other
``delay`` seconds apart; the keys of :mod:`cardtable.ui.tui.replay_controls` pause, step in
both directions and jump to either end.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from cardtable.engine.record import MISSING_RESULT, not_finished_message, replay_message
from cardtable.games.obsession.checked_replay import CheckedReplay
from cardtable.ui.tui.common import PRESS_ESC
from cardtable.ui.tui.obsession_app import ObsessionApp, card_label, seat_label
from cardtable.ui.tui.replay_controls import REPLAY_CSS, ReplayControls

EXIT_OK, EXIT_MISMATCH = 0, 4


def ending(checked: CheckedReplay) -> tuple[str | None, int]:
    """The closing message of a record that has no end line (None if it has), and the exit
    status of the replay, as the line mode gives them: 0 for a finished or an unfinished game,
    4 for a record cut short."""
    if checked.ending == "over":
        return None, EXIT_OK
    if checked.ending == "cut":
        return (replay_message(checked.loaded.path, checked.line, MISSING_RESULT),
                EXIT_MISMATCH)
    return f"!!! {not_finished_message(checked.cause or 'eof')}", EXIT_OK


class HandsPanel(Widget):
    """Every seat's hand, in display order (the replay shows them all). When they do not all
    fit, the seats around the one to move are shown, with how many more there are."""

    DEFAULT_CSS = """
    HandsPanel { height: 1fr; border: round $foreground 40%; padding: 0 1; }
    """

    def seat_text(self, seat: int, width: int) -> Text:
        app = self.app
        assert isinstance(app, ObsessionReplayApp)
        game = app.game
        turn = not game.over and game.current == seat
        line = Text(f"{seat_label(seat, app.kinds, app.humans):<{width}} ",
                    style=app.theme_.style("turn") if turn else "")
        hand = game.hands[seat]
        if not hand:
            line.append("out" if game.out[seat] else "-", style="dim")
        for number, card in enumerate(hand):
            if number:
                line.append(" ")
            line.append_text(card_label(card, app.theme_))
        return line

    def render(self) -> Text:
        app = self.app
        assert isinstance(app, ObsessionReplayApp)
        seats = range(len(app.kinds))
        width = max(len(seat_label(seat, app.kinds, app.humans)) for seat in seats)
        texts = [self.seat_text(seat, width) for seat in seats]
        columns = max(self.content_size.width, 1)
        heights = [len(text.wrap(app.console, columns)) for text in texts]
        room = max(self.content_size.height, 1)
        first, last = 0, len(texts)
        if sum(heights) > room:
            # A window of seats that fits and holds the seat to move (one row says what is cut).
            room = max(room - 1, 1)
            first = last = 0 if app.game.over else app.game.current
            used = 0
            while last < len(texts) and used + heights[last] <= room:
                used += heights[last]
                last += 1
            while first > 0 and used + heights[first - 1] <= room:
                first -= 1
                used += heights[first]
            last = max(last, first + 1)
        out = Text("\n").join(texts[first:last])
        hidden = len(texts) - (last - first)
        if hidden:
            out.append(f"\n+{hidden} more seat{'s' if hidden != 1 else ''}", style="dim")
        return out


class ObsessionReplayApp(ReplayControls, ObsessionApp):
    """The Obsession screen driven by a checked record instead of by players."""

    CSS = ObsessionApp.CSS + REPLAY_CSS + "#cards { display: none; }\n"

    def __init__(self, checked: CheckedReplay, delay: float = 1.0,
                 ascii_only: bool = False) -> None:
        loaded = checked.loaded
        super().__init__(loaded.rules, loaded.seats, loaded.seed, delay=delay, record=None,
                         ascii_only=ascii_only)
        self.checked = checked
        self.game = checked.start()
        self.viewer = None  # no seat's view: every hand is in the hands panel
        self.closing, status = ending(checked)
        self.replay_setup(delay, ascii_only, status)

    def on_mount(self) -> None:
        hands = HandsPanel(id="hands")
        hands.border_title = " Hands "
        self.query_one("#table").mount(hands, after="#phase")

    def is_human_turn(self) -> bool:
        return False

    # ------------------------------------------------------------ replay hooks

    def replay_length(self) -> int:
        return len(self.checked.actions)

    def replay_reset(self) -> None:
        self.game = self.checked.start()
        self.viewer = None
        self.ended = None
        self.important = None
        self.thinking = None

    def replay_step(self, index: int) -> None:
        self.show_events(self.game.apply(self.checked.actions[index]))

    def replay_finish(self) -> None:
        if self.closing is None:
            self.finish()
            return
        self.important = self.closing
        self.say(self.closing, self.theme_.style("error"))
        self.say(PRESS_ESC)

    def replay_redraw(self) -> None:
        self.refresh_table()
        for hands in self.query(HandsPanel):
            hands.refresh()

    def replay_closing(self) -> tuple[list[str], list[str]] | None:
        """The line mode's closing of a record that has no end line: a ``!!!`` line on
        standard output, or its error on standard error."""
        if self.closing is None:
            return None
        if self.closing.startswith("!!! "):
            return [self.closing], []
        return [], [f"obsession: {self.closing}"]


def run_obsession_replay(checked: CheckedReplay, delay: float, ascii_only: bool) -> int:
    """Show ``checked`` on the full screen and return the exit status: that of the recorded
    game (0 over, 3 end of input, 130 interrupted), 4 for a record that ends early."""
    app = ObsessionReplayApp(checked, delay, ascii_only)
    status = app.run()
    return status if isinstance(status, int) else app.exit_status
