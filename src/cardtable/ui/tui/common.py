"""Screens and helpers shared by the Caravan and Obsession apps: the "too small" notice,
the quit confirmation, a scrolling help page, the fatal-error screen and text captures."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, RichLog, Static
from textual.worker import Worker, WorkerState

from cardtable.ui.tui.theme import MIN_HEIGHT, MIN_WIDTH, WIDE_WIDTH

FATAL_FALLBACK = "A fatal error occurred."
PRESS_ESC = "Press Esc to exit."


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
    """Asks before a game in progress is abandoned: y/Enter quits, n/Esc goes back."""

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
    """What the game screens share: fitting the layout to the terminal, the message log, and
    ending on the error screen when a bot worker or a handler fails."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "quit_request", "Quit", priority=True),
        Binding("f1,question_mark", "help", "Help", priority=True),
        Binding("ctrl+r", "again", "Play again", show=False),
    ]

    messages: list[str]
    ready: bool
    offer_again: bool
    again: bool

    def game_over(self) -> bool:
        """Whether the game on the screen has ended (then Esc leaves without asking)."""
        raise NotImplementedError

    def _quit(self) -> None:
        """Leave the screen, closing an unfinished game's record first."""
        raise NotImplementedError

    def action_quit_request(self) -> None:
        """Esc: close the help or the question, leave the error screen, or leave the game
        (asking first while it is still going on)."""
        screen = self.screen
        if isinstance(screen, HelpScreen):
            screen.dismiss(None)
            return
        if isinstance(screen, ConfirmQuit):
            screen.dismiss(False)
            return
        if isinstance(screen, FatalScreen):
            self.exit(1)
            return
        if self.game_over() or self.screen_stack[0].has_class("small"):
            self._quit()
            return

        def answer(quit_now: bool | None) -> None:
            if quit_now:
                self._quit()

        self.push_screen(ConfirmQuit(), answer)

    def action_again(self) -> None:
        """Ctrl+R after the end: the caller plays the same table again."""
        if self.offer_again and self.game_over():
            self.again = True
            self.exit(0)

    @guarded
    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        base = self.screen_stack[0]
        base.set_class(is_too_small(width, height), "small")
        base.set_class(width >= WIDE_WIDTH, "wide")
        self.query_one(TooSmall).show_size(width, height)

    def say(self, message: str, style: str = "") -> None:
        self.messages.append(message)
        if self.ready:
            self.query_one("#log", RichLog).write(Text(message, style=style))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.fatal(error_text(event.worker.error))

    def fatal(self, message: str) -> None:
        self.workers.cancel_group(self, "bot")
        if not isinstance(self.screen, FatalScreen):
            self.push_screen(FatalScreen(message))
