"""Screens and helpers shared by the Caravan and Obsession apps: the "too small" notice,
the quit confirmation, a scrolling help page, the fatal-error screen, text captures, ASCII
borders and the colourless mode."""

from __future__ import annotations

import asyncio
import functools
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.text import Text
from textual import _border, events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.filter import Monochrome, NoColor
from textual.screen import ModalScreen, Screen
from textual.scrollbar import ScrollBarRender
from textual.widgets import Input, RichLog, Static
from textual.worker import Worker, WorkerState

from cardtable.ui.tui.result_lines import FATAL_FALLBACK, INTERRUPT, QUIT, result_lines
from cardtable.ui.tui.screen_bots import ask_bot
from cardtable.ui.tui.theme import MIN_HEIGHT, MIN_WIDTH, WIDE_WIDTH, Theme

if TYPE_CHECKING:
    from cardtable.engine.match import Forfeit, Seat
    from cardtable.ui.tui.screen_match import Answer, ScreenMatch

PRESS_ESC = "Press Esc to exit."
EXIT_INTERRUPTED = 130
"""Ctrl+C confirmed: the status of a game interrupted in the line mode."""

HELD_KEYS = ("backspace", "enter")
"""Keys besides the printable ones kept while the terminal is too small (editing, playing)."""


# ------------------------------------------------------------------ borders and colour

_ASCII_LIGHT = (("+", "-", "+"), ("|", " ", "|"), ("+", "-", "+"))
_ASCII_HEAVY = (("#", "=", "#"), ("#", " ", "#"), ("#", "=", "#"))
"""Heavy borders (the turn, the chosen caravan, dialogs) stay distinct from light ones."""
_HEAVY_TYPES = frozenset({"heavy", "double", "thick", "dashed"})
_BLANK_TYPES = frozenset({"", "none", "hidden", "blank", "ascii"})
_BORDERS = dict(_border.BORDER_CHARS)
_BARS = (list(ScrollBarRender.VERTICAL_BARS), list(ScrollBarRender.HORIZONTAL_BARS))


def use_ascii_borders(on: bool) -> None:
    """Draw every border and scrollbar with ASCII characters (``--ascii``), or restore them.

    Textual draws a border type from one shared table of characters; swapping the table while
    an ASCII screen runs changes every border at once, the dialogs' included, without touching
    any stylesheet (light borders become ``+-|``, heavy ones ``#=#``)."""
    _border.BORDER_CHARS.update(_BORDERS)
    ScrollBarRender.VERTICAL_BARS, ScrollBarRender.HORIZONTAL_BARS = (list(_BARS[0]),
                                                                      list(_BARS[1]))
    if on:
        for name in _BORDERS:
            if name not in _BLANK_TYPES:
                _border.BORDER_CHARS[name] = (_ASCII_HEAVY if name in _HEAVY_TYPES
                                              else _ASCII_LIGHT)
        # The thumb is drawn by its background colour alone (no block elements).
        ScrollBarRender.VERTICAL_BARS = [" "] * len(_BARS[0])
        ScrollBarRender.HORIZONTAL_BARS = [" "] * len(_BARS[1])
    _border.get_box.cache_clear()


NO_COLOUR_CSS = """
Input:nocolor > .input--cursor { text-style: reverse; }
Input:nocolor > .input--placeholder { text-style: dim; }
Button:nocolor:focus { text-style: reverse; }
Select:nocolor:focus > SelectCurrent { text-style: reverse; }
ToggleButton:nocolor:focus > .toggle--label { text-style: underline; }
"""
"""What colour marked, marked by text style when ``NO_COLOR`` is set (cursor, focus)."""


def without_colour(app: App[Any]) -> None:
    """Honour ``NO_COLOR`` completely: Textual by itself only turns colours into greys."""
    if app.no_color:
        app._filters = [NoColor() if isinstance(item, Monochrome) else item
                        for item in app._filters]


def too_small_lines(width: int, height: int, min_width: int = MIN_WIDTH,
                    min_height: int = MIN_HEIGHT) -> list[str]:
    """The notice shown instead of the board when the terminal is below the compact minimum."""
    return [
        "Terminal too small",
        f"Width:  {width} / {min_width}",
        f"Height: {height} / {min_height}",
        "Resize terminal or press Esc",
    ]


def is_too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


class TooSmall(Static):
    """Centred notice; the app updates it on every resize."""

    DEFAULT_CSS = """
    TooSmall { width: 100%; height: 100%; content-align: center middle; text-align: center; }
    """

    def show_size(self, width: int, height: int) -> None:
        self.update("\n".join(too_small_lines(width, height)))


class ConfirmQuit(ModalScreen[bool]):
    """Asks before a game in progress is abandoned: y/Enter quits, n/Esc goes back (Ctrl+C
    or Ctrl+Q pressed again quits too: the app's bindings answer for it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Quit", priority=True),
        Binding("n,escape", "answer(False)", "Back", priority=True),
    ]
    DEFAULT_CSS = """
    ConfirmQuit { align: center middle; }
    ConfirmQuit > Static { width: 44; height: 5; border: heavy $warning; padding: 0 1;
                           background: $panel; text-align: center; }
    """

    def compose(self) -> ComposeResult:
        yield Static("Quit this game?\n\ny = quit    n or Esc = keep playing")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class HelpScreen(ModalScreen[None]):
    """The rules in play and the command help; Esc, ?, F1 or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,q", "close", "Close", priority=True),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; height: 90%; border: heavy $accent;
                                  background: $panel; padding: 0 1; }
    """

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self.help_title = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = f" {self.help_title} "
            scroll.border_subtitle = " Esc / ? / F1: close "
            yield Static("\n".join(self.lines), markup=False)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()  # arrows and page keys scroll the text

    def action_close(self) -> None:
        self.dismiss(None)


class FatalScreen(Screen[None]):
    """An unexpected error ends the session on this screen (error text, then Press Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", "Exit", priority=True)]
    DEFAULT_CSS = """
    FatalScreen { align: center middle; }
    FatalScreen > Vertical { width: 80%; height: auto; border: heavy red; padding: 1 2; }
    """

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message or FATAL_FALLBACK

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.message, markup=False)
            yield Static("")
            yield Static(PRESS_ESC, markup=False)

    def action_leave(self) -> None:
        self.app.exit(1)


Handler = TypeVar("Handler", bound=Callable[..., Any])


def guarded(method: Handler) -> Handler:
    """Turn an unexpected error in an app's handler into the error screen (``app.fatal``),
    instead of a traceback on the terminal."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as error:
            self.fatal(error_text(error))
            return None

    return wrapper  # type: ignore[return-value]


def error_text(error: BaseException) -> str:
    text = str(error).strip()
    return text or FATAL_FALLBACK


def screen_text(app: App[Any]) -> str:
    """The current screen as plain text lines (trailing spaces removed), for tests and docs."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)


class CommandInput(Input):
    """An input line that leaves ``?`` to the help binding (it is never part of a command)."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if character == "?":
            return False
        return super().check_consume_key(key, character)


class TableApp(App[int]):
    """What the game screens share: fitting the layout to the terminal, the message log, the
    keys that leave, the result line printed after the screen closes, and ending on the error
    screen when a bot worker or a handler fails."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "quit_request", "Quit", priority=True),
        Binding("ctrl+q", f"leave_key('{QUIT}')", "Quit", show=False, priority=True),
        Binding("ctrl+c", f"leave_key('{INTERRUPT}')", "Quit", show=False, priority=True),
        Binding("f1,question_mark", "help", "Help", priority=True),
        Binding("ctrl+r", "again", "Play again", show=False),
    ]
    DEFAULT_CSS = NO_COLOUR_CSS

    last_closed: ClassVar[TableApp | None] = None
    """The game screen that closed last (the launcher counts its wins)."""
    program: ClassVar[str] = "cardtable"
    """The program whose name starts the error lines left on the terminal."""

    messages: list[str]
    match: ScreenMatch | None
    bots: Mapping[int, Seat]
    """The bots' seats, by seat number."""
    delay: float
    """Seconds before each bot move."""
    ready: bool
    offer_again: bool
    again: bool
    theme_: Theme

    def __init__(self) -> None:
        super().__init__()
        without_colour(self)
        self.quit_cause = QUIT
        """``interrupt`` once Ctrl+C has been confirmed (exit status 130), else ``quit``."""
        self._key_cause: str | None = None
        self.held_keys: list[tuple[str, str | None]] = []
        """Keys typed while the terminal was too small, for the command line once it is back."""
        self._refocus_pending = False
        """The screen grew back and its command line has not had the focus back yet."""
        self.log_lines: list[tuple[str, str]] = []
        """Every message with its style, to wrap the log anew when its width changes."""
        self._log_width = 0

    def game_over(self) -> bool:
        """Whether the game on the screen has ended (then Esc leaves without asking)."""
        raise NotImplementedError

    def _quit(self) -> None:
        """Leave the screen, closing an unfinished game's record first."""
        raise NotImplementedError

    def closing_lines(self, interrupted: bool) -> tuple[list[str], list[str]]:
        """(standard output lines, standard error lines) the terminal keeps once the screen
        has closed: the line mode's result text (``interrupted``: left by a confirmed
        Ctrl+C). See :mod:`cardtable.ui.tui.result_lines`."""
        return [], []

    def tally_entry(self) -> tuple[list[str], list[str]] | None:
        """(every player, the winners) of the finished game, named as the screen names them,
        for the launcher's tally; None for a game that did not finish."""
        return None

    def action_leave_key(self, cause: str) -> None:
        """Ctrl+Q (``quit``) and Ctrl+C (``interrupt``): what Esc does, except that at the
        question or on the help page they go on to quit."""
        self._key_cause = cause
        try:
            self.action_quit_request()
        finally:
            self._key_cause = None

    def action_quit_request(self) -> None:
        """Esc: close the help or the question, leave the error screen, or leave the game
        (asking "Quit this game?" first while it is still going on).

        Esc at the question keeps playing; Ctrl+C or Ctrl+Q pressed at the question quits.
        A confirmed Ctrl+C ends with status 130, as an interrupted line-mode game does."""
        cause = self._key_cause or QUIT
        escape = self._key_cause is None
        screen = self.screen
        if isinstance(screen, ConfirmQuit):
            if cause == INTERRUPT:
                self.quit_cause = INTERRUPT  # Ctrl+C confirms as an interruption
            screen.dismiss(not escape)
            return
        if isinstance(screen, HelpScreen):
            screen.dismiss(None)
            if escape:
                return
        if isinstance(self.screen, FatalScreen):
            self.exit(1)
            return
        if self.game_over():
            self._quit()  # nothing left to interrupt: status 0
            return
        if self.screen_stack[0].has_class("small"):
            self.quit_cause = cause
            self._quit()
            return

        def answer(quit_now: bool | None) -> None:
            if quit_now:
                if self.quit_cause != INTERRUPT:
                    self.quit_cause = cause
                self._quit()

        self.push_screen(ConfirmQuit(), answer)

    def exit(self, result: int | None = None, return_code: int = 0,
             message: Any = None) -> None:
        """Leave with ``result``; a game left by a confirmed Ctrl+C leaves with 130."""
        if self.quit_cause == INTERRUPT and not result:
            result = EXIT_INTERRUPTED
        super().exit(result, return_code, message)

    def action_again(self) -> None:
        """Ctrl+R after the end: the caller plays the same table again."""
        if self.offer_again and self.game_over():
            self.again = True
            self.exit(0)

    @guarded
    def on_mount(self) -> None:
        use_ascii_borders(self.theme_.ascii_only)

    def on_unmount(self) -> None:
        use_ascii_borders(False)

    @guarded
    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        base = self.screen_stack[0]
        small = is_too_small(width, height)
        base.set_class(small, "small")
        base.set_class(width >= WIDE_WIDTH, "wide")
        self.query_one(TooSmall).show_size(width, height)
        if not small:
            # Once laid out anew: the command line gets the keys back (it lost the focus
            # while hidden) and the log is wrapped to its new width, newest line in view.
            # Keys typed until then are held as well: the screen already shows.
            self._refocus_pending = True
            self.call_after_refresh(self.call_after_refresh, self._after_fit)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and self._kept(event):
            return
        await super().on_event(event)

    def _kept(self, event: events.Key) -> bool:
        """A key typed on the game's screen (letters, digits, Backspace, Enter), as it comes
        in: it goes to the command line whatever has the focus. Kept while "Terminal too
        small" shows (the hidden command line cannot take it) or until the command line has
        the focus back, and typed to it once the screen is big enough again (True: kept)."""
        stack = self.screen_stack
        if len(stack) != 1 or not (event.is_printable or event.key in HELD_KEYS):
            return False  # (another screen above the game's, or none: closing)
        base = stack[0]
        if not (base.has_class("small") or self._refocus_pending):
            command = next((line for line in base.query("#command") if not line.disabled), None)
            if command is None or base.focused is command:
                return False
            base.set_focus(command)
            if base.focused is command:
                return False
            self._refocus_pending = True  # (not focusable yet: typed once laid out again)
            self.call_after_refresh(self._after_fit)
        self.held_keys.append((event.key, event.character))
        return True

    def _after_fit(self) -> None:
        base = self.screen_stack[0]
        if base.has_class("small"):
            return
        for command in base.query("#command"):
            if not command.disabled and base.focused is None:
                base.set_focus(command)
        self._refocus_pending = False
        self._type_held_keys()  # now, so that they come before any key typed after them
        for log in base.query("#log"):
            if isinstance(log, RichLog):
                self._rewrap(log)

    def _type_held_keys(self) -> None:
        """Type the kept keys, in order, as if they were pressed now."""
        held, self.held_keys = self.held_keys, []
        for key, character in held:
            self.post_message(events.Key(key, character))

    def _rewrap(self, log: RichLog) -> None:
        width = log.scrollable_content_region.width
        if width > 0 and width != self._log_width:
            self._log_width = width
            log.clear()
            for message, style in self.log_lines:
                log.write(Text(message, style=style), scroll_end=False)
        log.scroll_end(animate=False, immediate=True)

    def say(self, message: str, style: str = "") -> None:
        self.messages.append(message)
        self.log_lines.append((message, style))
        if self.ready:
            self.query_one("#log", RichLog).write(Text(message, style=style))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.fatal(error_text(event.worker.error))

    def think(self, seat: int, observation: Any, answer: Answer[Any]) -> None:
        """Ask the bot of ``seat`` in a worker, after ``delay`` seconds."""
        self.run_worker(self._bot_move(seat, observation, answer), name="bot", group="bot",
                        exit_on_error=False)

    async def bot_pause(self) -> None:
        """The pause before a bot's move, so that a person can follow (``delay`` seconds)."""
        await asyncio.sleep(self.delay)

    async def _bot_move(self, seat: int, observation: Any, answer: Answer[Any]) -> None:
        if self.delay > 0:
            await self.bot_pause()
        choice, forfeit = await ask_bot(self.bots[seat], observation)
        # Given from the message queue, so that the next bot's worker starts afresh.
        self.call_later(self._bot_answer, answer, choice, forfeit)

    def _bot_answer(self, answer: Answer[Any], choice: Any, forfeit: Forfeit | None) -> None:
        """Hand a bot's answer to the match: its choice, or the forfeit of a program that gave
        none (``ask_bot`` gives a choice whenever it gives no forfeit)."""
        try:
            if self.match is None:
                return
            if forfeit is not None:
                self.match.fail(answer, forfeit)
            else:
                self.match.give(answer, choice)
        except Exception as error:  # a bot's refused answer or a bug: end on the error screen
            self.fatal(error_text(error))

    def fatal(self, message: str) -> None:
        self.fatal_message = message  # said again on the terminal once the screen has closed
        self.workers.cancel_group(self, "bot")
        if not isinstance(self.screen, FatalScreen):
            self.push_screen(FatalScreen(message))

    def run(self, *args: Any, **kwargs: Any) -> int | None:
        """Run the screen; once it has closed, print the game's result on the terminal."""
        status = super().run(*args, **kwargs)
        TableApp.last_closed = self
        out, err = result_lines(self)
        for line in out:
            print(line, flush=True)
        for line in err:
            print(line, file=sys.stderr, flush=True)
        return status


class PassScreen(Screen[None]):
    """Hot seat: hides every hand until the player named (who moves next) presses Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "go", "Go", priority=True)]
    DEFAULT_CSS = """
    PassScreen { align: center middle; }
    PassScreen > Static { width: 40; height: 5; border: heavy $accent; text-align: center;
                          content-align: center middle; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        yield Static(f"Pass to {self.player}\n\npress Enter", markup=False)

    def action_go(self) -> None:
        self.dismiss(None)
