"""Austerity's part of the launcher: watch a table of the player programs' strategies (the
line-up, a deck file, the tokens and the points), played on :mod:`austerity_app`. Nothing of it
is chance or a program started by the launcher: the seed, record and Program fields are off."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Input, Label

from cardtable.ui.tui.austerity_app import BUNDLED_DECK, AusterityTable, build_table
from cardtable.ui.tui.launch import GameForm, Shared


class AusterityForm:
    name = "austerity"
    label = "Austerity (watch the player programs)"
    uses: frozenset[str] = frozenset()

    def compose(self) -> ComposeResult:
        yield Label("Seats A,B,...")
        yield Input("shenzi,banzai,ed", id="lineup", restrict=r"[A-Za-z, ]*")
        yield Label("Deck file")
        yield Input(placeholder=f"bundled {BUNDLED_DECK}", id="austerity_deck")
        yield Label("Tokens")
        yield Input("5", id="tokens", restrict=r"[0-9]*")
        yield Label("Points")
        yield Input("15", id="points", restrict=r"[0-9]*")

    def table(self, shared: Shared) -> AusterityTable:
        values = shared.values
        return build_table(str(values.get("lineup", "")), str(values.get("austerity_deck", "")),
                           str(values.get("tokens", "")), str(values.get("points", "")))


def austerity_form() -> GameForm:
    """Austerity's part of the launcher (the description's ``terminal_app``)."""
    return AusterityForm()
