"""Obsession as cardtable's shells know it: registered under the entry point ``cardtable.games``.

Importing this module is cheap: the game itself is imported when a method needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.engine.description import Bot, GameDescription, Param, ranks_of
from cardtable.engine.protocol import Result
from cardtable.games.obsession.rules import KILL_ORDERS, MAX_PLAYERS, MIN_PLAYERS


class ObsessionDescription(GameDescription):
    name = "obsession"
    title = "Obsession"
    list_position = 1
    summary = ("A shedding game for 2 to 10 players: play equal faces on the pile, kill it "
               "with a run, and be the first to run out of cards.")
    params = (
        Param("players", "the number of players", kind="int", default=4, low=MIN_PLAYERS,
              high=MAX_PLAYERS),
        Param("humans", "how many seats (P1 ..) are people, whom the repetition guard leaves "
              "alone", kind="int", default=0, low=0, high=MAX_PLAYERS),
        Param("run_kill", "a run of this many equal faces kills the pile", kind="int",
              default=4, low=2, high=8),
        Param("kill_order", "whether a card's effect or the run's kill comes first",
              kind="choice", default=KILL_ORDERS[0], choices=KILL_ORDERS),
        Param("max_plays", "plays after which the game ends as a stalemate", kind="int",
              default=5000, low=1),
        Param("repeat_limit", "how often a bot may repeat a position (0: no guard)",
              kind="int", default=3, low=0),
    )
    seat_counts = (MIN_PLAYERS, MAX_PLAYERS)
    players_param = "players"
    terminal_app = "cardtable.ui.tui.obsession_app:main"
    web_page = "obsession.html"

    def load(self, **params: Any) -> Any:
        from cardtable.games.obsession.game import ObsessionGame

        return ObsessionGame.load(**params)

    def bots(self) -> Sequence[Bot]:
        from cardtable.games.obsession.bots import described_bots

        return described_bots()

    def places(self, result: Result, seats: Sequence[str]) -> list[int]:
        """The order the seats went out in; the seats still holding cards share the place
        after the last one out."""
        placings = result.details.get("placings") or []
        order = {seats[number - 1]: place for place, number in enumerate(placings)
                 if isinstance(number, int) and 1 <= number <= len(seats)}
        return ranks_of([-float(order.get(seat, len(order))) for seat in seats])


OBSESSION = ObsessionDescription()
