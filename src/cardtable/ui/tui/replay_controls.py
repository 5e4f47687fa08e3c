"""What both full-screen replays share: pacing, pause, steps in both directions, the ends.

A replay screen is a game screen (``TableApp``) whose moves come from a record that was
checked completely before the screen opened. This mixin owns the position (how many recorded
moves are on the board), plays the moves ``delay`` seconds apart, and answers the keys:

- Space pauses or resumes (at the end it starts again from the beginning);
- Right or ``n`` shows the next move, Left or ``p`` goes one move back (both pause);
- End or ``e`` jumps to the end, Home to the start.

Going back rebuilds the position from the start: the game is dealt again and the recorded
moves up to the new position are applied by the game again (it checks each one, as when the
record was loaded), and the message panel is rewritten to match. A game supplies four hooks:
:meth:`replay_length`, :meth:`replay_reset`, :meth:`replay_step` and :meth:`replay_finish`,
plus :meth:`replay_redraw`.

The pacing goes through :attr:`ReplayControls.replay_clock` (by default the app's own
``set_timer``): a test that must not depend on the machine's speed puts a clock it advances by
hand there before the app runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Protocol

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import RichLog, Static

from cardtable.ui.tui.common import FatalScreen, HelpScreen, TableApp, guarded

LOG_TAIL = 400
"""Lines written back to the message panel after a jump (the whole text stays in ``messages``)."""

PLAYING, PAUSED, END = "playing", "paused", "end of record"

REPLAY_CSS = """
#replay-bar { dock: bottom; height: 1; padding: 0 1; }
#keys, #prompt-row { display: none; }
.small #replay-bar { display: none; }
"""
"""Added to a replay app's CSS: the bar replaces the key hints and the (unused) input line."""


def status_line(position: int, total: int, state: str, ascii_only: bool, width: int) -> str:
    """The replay bar: where the replay stands and the keys, as long as ``width`` allows."""
    back, forward = ("Left", "Right") if ascii_only else ("←", "→")
    toggle = "play" if state != PLAYING else "pause"
    separator = " | " if ascii_only else " · "
    heads = (f"Replay: move {position} of {total}, {state}", f"move {position} of {total}, {state}")
    keys = (
        [f"Space {toggle}", f"{back}/p back", f"{forward}/n next", "Home start", "End/e end",
         "Esc leave"],
        [f"Space {toggle}", f"{back}/p", f"{forward}/n", "Home", "End/e", "Esc"],
    )
    for shown in keys:
        for head in heads:
            line = separator.join([head, *shown])
            if len(line) <= width:
                return line
    return heads[1]


class Pending(Protocol):
    """A move waiting for its time: the pacing clock's answer, which can be called off."""

    def stop(self) -> None: ...


ReplayClock = Callable[[float, Callable[[], None]], Pending]
"""Calls a function once, so many seconds from now; a Textual app's ``set_timer`` is one."""


class ReplayBar(Static):
    """The one-line replay status at the bottom of the screen."""


class ReplayControls(TableApp):
    """Mixin for a game screen that shows a checked record (put it before the game's app)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "replay_toggle", "Pause", priority=True),
        Binding("right,n", "replay_forward", "Next", priority=True),
        Binding("left,p", "replay_back", "Back", priority=True),
        Binding("end,e", "replay_end", "End", priority=True),
        Binding("home", "replay_start", "Start", priority=True),
    ]

    delay: float
    exit_status: int
    position: int
    playing: bool
    ascii_replay: bool

    def closing_lines(self, interrupted: bool) -> tuple[list[str], list[str]]:
        """Nothing when the replay was left before the end of its record (nothing was
        abandoned); at the end, :meth:`replay_closing`, else the game's own result text."""
        if self.position < self.replay_length():
            return [], []
        closing = self.replay_closing()
        return super().closing_lines(interrupted) if closing is None else closing

    def replay_closing(self) -> tuple[list[str], list[str]] | None:
        """What the end of the record leaves on the terminal when it is not the game's result
        (a record cut short, a game that was not finished), as the line mode says it."""
        return None

    def replay_setup(self, delay: float, ascii_only: bool, exit_status: int) -> None:
        """Call from ``__init__``: the pause between moves and the status for leaving."""
        self.delay = delay
        self.ascii_replay = ascii_only
        self.exit_status = exit_status
        self.position = 0
        self.playing = True
        self.replay_started = False
        self.replay_said: list[tuple[str, str]] = []
        self.replay_prefix: list[tuple[str, str]] = []
        self.replay_timer: Pending | None = None
        self.replay_clock: ReplayClock = self.set_timer

    # -------------------------------------------------------------- game hooks

    def replay_length(self) -> int:
        """The number of recorded moves."""
        raise NotImplementedError

    def replay_reset(self) -> None:
        """Put the game back to its deal, before the first recorded move."""
        raise NotImplementedError

    def replay_step(self, index: int) -> None:
        """Apply recorded move ``index`` (0-based) to the game and say what happened."""
        raise NotImplementedError

    def replay_finish(self) -> None:
        """After the last move: say how the record ends (the result, or why there is none)."""
        raise NotImplementedError

    def replay_redraw(self) -> None:
        """Draw the board for the current game."""
        raise NotImplementedError

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield ReplayBar(id="replay-bar")

    def say(self, message: str, style: str = "") -> None:
        self.replay_said.append((message, style))
        super().say(message, style)

    def advance(self) -> None:
        """Called by the game screen once it is mounted: the replay starts."""
        if self.replay_started:
            return
        self.replay_started = True
        self.replay_prefix = list(self.replay_said)
        self.goto(0)
        self.schedule()

    def on_resize(self, event: events.Resize) -> None:
        self.update_bar(event.size.width)

    def update_bar(self, width: int | None = None) -> None:
        if not self.ready:
            return
        total = self.replay_length()
        state = END if self.position >= total else PLAYING if self.playing else PAUSED
        line = status_line(self.position, total, state, self.ascii_replay,
                           (self.size.width if width is None else width) - 2)
        self.query_one(ReplayBar).update(Text(line))

    # -------------------------------------------------------------- moving on

    def goto(self, position: int) -> None:
        """Rebuild the game at ``position`` moves from the deal, and the message panel."""
        position = max(0, min(position, self.replay_length()))
        ready = self.ready
        self.ready = False  # no drawing while the moves are applied again
        try:
            self.messages = [message for message, _ in self.replay_prefix]
            self.replay_said = list(self.replay_prefix)
            self.replay_reset()
            for index in range(position):
                self.replay_step(index)
            self.position = position
            if position == self.replay_length():
                self.replay_finish()
        finally:
            self.ready = ready
        if ready:
            log = self.query_one("#log", RichLog)
            log.clear()
            for message, style in self.replay_said[-LOG_TAIL:]:
                log.write(Text(message, style=style))
        self.replay_redraw()
        self.update_bar()

    def forward(self) -> None:
        """Show the next recorded move (and the end after the last one)."""
        total = self.replay_length()
        if self.position >= total:
            return
        self.replay_step(self.position)
        self.position += 1
        if self.position == total:
            self.playing = False
            self.replay_finish()
        self.replay_redraw()
        self.update_bar()

    def schedule(self) -> None:
        """While playing, the next move comes ``delay`` seconds later (at once for 0)."""
        self.stop_timer()
        if not self.playing or self.position >= self.replay_length():
            self.playing = False
            self.update_bar()
            return
        if self.delay <= 0:
            self.playing = False
            self.goto(self.replay_length())
            return
        self.replay_timer = self.replay_clock(self.delay, self._tick)

    def stop_timer(self) -> None:
        if self.replay_timer is not None:
            self.replay_timer.stop()
            self.replay_timer = None

    @guarded
    def _tick(self) -> None:
        self.replay_timer = None
        if not self.playing or not self.is_running:
            return
        if not self._on_board():
            self.schedule()  # the help page is open: the next move waits for the board
            return
        self.forward()
        self.schedule()

    def pause(self) -> None:
        self.playing = False
        self.stop_timer()

    # ------------------------------------------------------------------- keys

    def _on_board(self) -> bool:
        """Replay keys act on the board only (not under the help page or the error screen)."""
        return self.replay_started and self.screen is self.screen_stack[0]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Under the help page the keys go to the page (Space, arrows, Home and End scroll it).
        if action.startswith("replay_") and not self._on_board():
            return False
        return super().check_action(action, parameters)

    @guarded
    def action_replay_toggle(self) -> None:
        if not self._on_board():
            return
        if self.playing:
            self.pause()
            self.update_bar()
            return
        if self.position >= self.replay_length():
            self.goto(0)
        self.playing = True
        self.schedule()
        self.update_bar()

    @guarded
    def action_replay_forward(self) -> None:
        if self._on_board():
            self.pause()
            self.forward()
            self.update_bar()

    @guarded
    def action_replay_back(self) -> None:
        if self._on_board():
            self.pause()
            if self.position > 0:
                self.goto(self.position - 1)
            self.update_bar()

    @guarded
    def action_replay_end(self) -> None:
        if self._on_board():
            self.pause()
            if self.position < self.replay_length():
                self.goto(self.replay_length())
            self.update_bar()

    @guarded
    def action_replay_start(self) -> None:
        if self._on_board():
            self.pause()
            self.goto(0)

    def action_quit_request(self) -> None:
        """Esc leaves at once: a replay has nothing to lose (help closes first)."""
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        self._quit()

    def _quit(self) -> None:
        self.pause()
        self.exit(1 if isinstance(self.screen, FatalScreen) else self.exit_status)
