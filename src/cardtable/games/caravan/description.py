"""Caravan as cardtable's shells know it: registered under the entry point ``cardtable.games``.

Importing this module is cheap: the game itself is imported when a method needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.engine.description import Bot, GameDescription, Param
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.rules import DEFAULT_PRESET, PRESETS


class CaravanDescription(GameDescription):
    name = "caravan"
    title = "Caravan"
    list_position = 0
    summary = ("Build three caravans of numbered cards worth 21 to 26 against your opponent's, "
               "and sell more of them (the card game of Fallout: New Vegas).")
    params = (
        Param("rules", "a preset rule set", kind="choice", default=DEFAULT_PRESET,
              choices=tuple(PRESETS)),
        Param("rules_file", "a file of rule fields (TOML)", kind="file"),
        Param("first", "the seat that moves first", kind="choice", default=SEATS[0],
              choices=SEATS),
        Param("stuck_plies", "end the game as a stalemate once no caravan has changed for "
              "this many moves", kind="int", low=1, none=True),
    )
    seat_counts = (2, 2)
    file_params = ("rules_file",)
    presets = tuple(PRESETS)
    terminal_app = "cardtable.ui.tui.caravan_app:main"
    web_page = "caravan.html"

    @property
    def bot_params(self) -> dict[str, Any]:  # type: ignore[override]
        from cardtable.games.caravan.stalemate import STUCK_PLIES

        return {"stuck_plies": STUCK_PLIES}

    def load(self, **params: Any) -> Any:
        from cardtable.games.caravan.game import CaravanGame

        return CaravanGame.load(**params)

    def bots(self) -> Sequence[Bot]:
        from cardtable.games.caravan.bots import described_bots

        return described_bots()

    def howto(self, preset: str | None = None) -> list[str]:
        from cardtable.games.caravan.howto import howto_lines

        game = self.load(rules=preset or "foxon")
        return howto_lines(game.rules, width=10_000)


CARAVAN = CaravanDescription()
