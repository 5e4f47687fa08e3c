"""Colours, suit glyphs and the two switches that change them: ``--ascii`` and ``NO_COLOR``.

Every state that colour shows (a caravan taking its lane, a bust caravan, the selected card)
also has a text marker, so the screen reads the same in a terminal without colour.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from cardtable.cards import RED_SUITS, SUIT_GLYPHS

GLYPHS = SUIT_GLYPHS

MIN_WIDTH = 80
MIN_HEIGHT = 24
WIDE_WIDTH = 110
"""From this width on the side panel grows and slots get more room."""


def colour_wanted(environ: dict[str, str] | None = None) -> bool:
    """False when ``NO_COLOR`` is set (to anything, even empty), as no-color.org asks."""
    env = os.environ if environ is None else environ
    return "NO_COLOR" not in env


@dataclass(frozen=True)
class Theme:
    """How cards and states are drawn. ``ascii_only`` uses suit letters; ``colour`` styles."""

    ascii_only: bool = False
    colour: bool = True

    @property
    def sep(self) -> str:
        """What stands between the items of a line: a middle dot, or a comma in ASCII."""
        return ", " if self.ascii_only else " · "

    def suit(self, letter: str) -> str:
        return letter if self.ascii_only else GLYPHS.get(letter, letter)

    def card(self, code: str) -> str:
        """``7S`` as ``7♠`` (or ``7S`` in ASCII mode); jokers and suitless codes unchanged."""
        if len(code) >= 2 and code[-1] in GLYPHS and code != "JO":
            return code[:-1] + self.suit(code[-1])
        return code

    def card_style(self, code: str) -> str:
        if not self.colour or len(code) < 2 or code == "JO" or code[-1] not in GLYPHS:
            return ""
        return "bright_red" if code[-1] in RED_SUITS else "bright_cyan"

    def style(self, name: str) -> str:
        """A named style, or no style at all without colour."""
        if not self.colour:
            return ""
        return STYLES.get(name, "")


STYLES = {
    "win": "bold yellow",
    "bust": "bold red",
    "sold": "green",
    "chosen": "bold magenta reverse",
    "dim": "dim",
    "error": "bold red",
    "important": "bold yellow",
    "turn": "bold green",
    "thinking": "italic cyan",
}


def make_theme(ascii_only: bool) -> Theme:
    return Theme(ascii_only=ascii_only, colour=colour_wanted())


FOCUS_CSS = """
Input:focus { background: $accent; color: $text; text-style: bold; }
Select:focus > SelectCurrent { background: $accent; color: $text; text-style: bold; }
Select.-expanded > SelectCurrent { background: $accent 50%; }
ToggleButton:focus { background: $accent; color: $text; }
ToggleButton:focus > .toggle--label { text-style: bold; }
"""
"""How a form shows the field that has the keyboard: the accent colour filling the field, in
bold, unlike every other field (``NO_COLOR`` marks it by text style alone, common.py)."""
