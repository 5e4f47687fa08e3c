"""The launcher asks before a game's record replaces an existing file.

The command line refuses such a record unless ``--overwrite`` is given; on the full screen
the player is asked instead, once for the record file and the numbered files of later games
(``game-2.jsonl`` ...) that already exist beside it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

from cardtable.engine.record_target import would_overwrite

LATER_GAMES_CHECKED = 99
"""How many numbered files of later games are looked for beside a record file."""


def records_to_replace(path: str, numbered: Callable[[str, int], str]) -> list[str]:
    """The files a launch recording to ``path`` would replace: ``path`` itself and the
    numbered files of later games (``numbered(path, game)``) that exist and are not empty."""
    paths = [numbered(path, game) for game in range(1, LATER_GAMES_CHECKED + 2)]
    return [candidate for candidate in paths if would_overwrite(candidate)]


def free_record(path: str, game: int, numbered: Callable[[str, int], str]) -> str:
    """The record file of the ``game``-th game when nothing may be replaced: its numbered
    file, or the first numbered file after it that does not hold a record yet."""
    candidate = numbered(path, game)
    while would_overwrite(candidate):
        game += 1
        candidate = numbered(path, game)
    return candidate


def question_text(paths: list[str]) -> str:
    if len(paths) == 1:
        return f"Record file '{paths[0]}' already exists.\nReplace it?"
    more = f" and {len(paths) - 2} more" if len(paths) > 2 else ""
    return (f"Record files '{paths[0]}', '{paths[1]}'{more} already exist.\n"
            f"Replace them?")


class ConfirmOverwrite(ModalScreen[bool]):
    """y replaces the record files, n or Esc goes back to the form."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Replace", priority=True),
        Binding("n,escape", "answer(False)", "Back", priority=True),
    ]
    DEFAULT_CSS = """
    ConfirmOverwrite { align: center middle; }
    ConfirmOverwrite > Static { width: 64; height: auto; border: heavy $warning;
                                padding: 0 1; background: $panel; text-align: center; }
    """

    def __init__(self, paths: list[str]) -> None:
        super().__init__()
        self.paths = paths

    def compose(self) -> ComposeResult:
        yield Static(f"{question_text(self.paths)}\n\ny = replace    n or Esc = back",
                     markup=False)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
