"""Austerity as cardtable's shells know it: registered under the entry point ``cardtable.games``.

Importing this module is cheap: the game itself is imported when a method needs it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.engine.description import Bot, GameCommand, GameDescription, Param, ranks_of
from cardtable.engine.protocol import Result

MIN_PLAYERS, MAX_PLAYERS = 2, 26
DEALS = ("file", "shuffled")


class AusterityDescription(GameDescription):
    name = "austerity"
    title = "Austerity"
    list_position = 2
    summary = ("Take coloured tokens and buy cards with them, each card making the next ones "
               "cheaper, until someone reaches the points to win.")
    params = (
        Param("players", "the number of players", kind="int", default=2, low=MIN_PLAYERS,
              high=MAX_PLAYERS),
        Param("deck", "a deck file (the bundled deck when not given)", kind="file"),
        Param("tokens", "tokens in each colour's pile", kind="int", default=7, low=0),
        Param("points", "points that end the game", kind="int", default=15, low=0),
        Param("deal", "the deck file's order (file) or its cards shuffled from the seed "
              "(shuffled)", kind="choice", default=DEALS[0], choices=DEALS),
    )
    seat_counts = (MIN_PLAYERS, MAX_PLAYERS)
    players_param = "players"
    file_params = ("deck",)
    table_params: Mapping[str, Any] = {"deal": "shuffled"}
    max_moves = 100_000
    instant_bots = ("random", "shenzi", "banzai", "ed")
    # --- command lines and terminal ---
    terminal_app = "cardtable.ui.tui.austerity_launch:austerity_form"
    bench = "cardtable.games.austerity.bench:main"
    # --- cardtable's command line ---
    command = GameCommand("cardtable.cli.austerity:main",
                          "Austerity tools: cardtable austerity simulate ...", plays=False)
    web_page = "austerity.html"
    # --- tournaments and RL environments ---
    rl_environment = "cardtable.envs.austerity_part:PART"

    def load(self, **params: Any) -> Any:
        from cardtable.games.austerity.game import AusterityGame

        return AusterityGame.load(**params)

    def bots(self) -> Sequence[Bot]:
        from cardtable.games.austerity.bots import described_bots

        return described_bots()

    def places(self, result: Result, seats: Sequence[str]) -> list[int]:
        """By points (the winners hold the most); a game stopped before its end: all tie."""
        points = result.details.get("points")
        if not isinstance(points, list) or len(points) != len(seats):
            return super().places(result, seats)
        return ranks_of([float(value) for value in points])

    # --- web ---

    web_notes = ("Take a seat against the shenzi, banzai and ed programs, or watch a table of "
                 "bots: press a Take button for three colours or a wild, or click a market "
                 "card to buy it.")

    def howto(self, preset: str | None = None) -> list[str]:
        from cardtable.games.austerity.howto import HOWTO

        return list(HOWTO)

    def seat_view(self, state: Any, seat: str) -> dict[str, Any]:
        from cardtable.games.austerity.web_view import seat_view

        return seat_view(state, seat)

    def public_view(self, state: Any) -> dict[str, Any]:
        from cardtable.games.austerity.web_view import public_view

        return public_view(state)

    def table_recorder(self, state: Any, writer: Any, seed: int,
                       players: Sequence[str]) -> Any:
        from cardtable.games.austerity.web_view import TableRecorder

        return TableRecorder(state, writer, list(players))

    def replay_views(self, record: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                                 Result | None]:
        from cardtable.games.austerity.web_view import replay_views

        return replay_views(record)

    # --- records ---

    record_replay = "cardtable.games.austerity.record:replayed_match"
    former_records = "cardtable.games.austerity.former_record:AUSTERITY_FORMER"

    def record_rules(self, game: Any) -> dict[str, Any]:
        """The rules as the hub's record writes them; the deck is the record's chance line."""
        return {"tokens": game.tokens, "points": game.points, "players": game.players}

    # --- web: following the game ---

    def table_state(self, game: Any, seed: int, people: Sequence[bool]) -> Any:
        """The dealt state keeps its moves, so a table's views say in words what happened
        (the game's own state holds none)."""
        from cardtable.games.austerity.web_view import followed_state

        return followed_state(game.new_state(seed))


AUSTERITY = AusterityDescription()
