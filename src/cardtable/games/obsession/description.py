"""Obsession as cardtable's shells know it: registered under the entry point ``cardtable.games``.

Importing this module is cheap: the game itself is imported when a method needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.engine.description import Bot, GameCommand, GameDescription, ranks_of
from cardtable.engine.protocol import Result
from cardtable.engine.search import SearchParts
from cardtable.games.obsession.params import MAX_PLAYERS, MIN_PLAYERS, PARAMS


class ObsessionDescription(GameDescription):
    name = "obsession"
    title = "Obsession"
    list_position = 1
    summary = ("A shedding game for 2 to 10 players: play equal faces on the pile, kill it "
               "with a run, and be the first to run out of cards.")
    params = PARAMS  # written once, in games/obsession/params.py
    seat_counts = (MIN_PLAYERS, MAX_PLAYERS)
    players_param = "players"
    # --- command lines and terminal ---
    terminal_app = "cardtable.ui.tui.obsession_launch:obsession_form"
    bench = "cardtable.games.obsession.bench:main"
    # --- cardtable's command line ---
    command = GameCommand("cardtable.cli.obsession:main",
                          "play Obsession (see: obsession --help)")
    web_page = "obsession.html"
    # --- tournaments and RL environments ---
    seat_params = ("humans",)
    rl_environment = "cardtable.envs.obsession_part:PART"

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

    # --- web ---

    web_notes = ("Click your cards to select them (several of one face go down together), "
                 "then Play selected; at the deal choose the 3 cards to lie face up; with hand "
                 "and visible cards gone, click a hidden card to play it blind. Or type the "
                 "move in the move box: play 9C 9H, swap 4C 9H KS, blind 2.")

    def howto(self, preset: str | None = None) -> list[str]:
        from cardtable.games.obsession.howto import howto_lines

        return howto_lines()

    def seat_view(self, state: Any, seat: str) -> dict[str, Any]:
        from cardtable.games.obsession.web_view import seat_view

        return seat_view(state, seat, self.view_history)

    def public_view(self, state: Any) -> dict[str, Any]:
        from cardtable.games.obsession.web_view import public_view

        return public_view(state, self.view_history)

    def table_state(self, game: Any, seed: int, people: Sequence[bool]) -> Any:
        from cardtable.games.obsession.web_view import table_state

        return table_state(game, seed, list(people))

    def table_recorder(self, state: Any, writer: Any, seed: int,
                       players: Sequence[str]) -> Any:
        from cardtable.games.obsession.web_view import recorder

        return recorder(state, writer, seed, list(players))

    def replay_views(self, record: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                                 Result | None]:
        from cardtable.games.obsession.web_view import replay_views

        return replay_views(record, self.view_history)


    # --- agents ---

    def search(self) -> SearchParts | None:
        """The search bots' worlds in the compiled core (None without it), with Obsession's
        own options of the search (``reward=``, ``swap=``, ``infer=``, ``sight=``)."""
        from cardtable.games.obsession.search import search_parts

        return search_parts()

    def observation_json(self, observation: Any) -> dict[str, Any]:
        from cardtable.games.obsession.observation_json import observation_json

        return observation_json(observation)

    def rules_json(self, game: Any) -> dict[str, Any]:
        return dict(game.rules.to_json())

    # --- records ---

    replay_command = "obsession --replay"
    replay_app = "cardtable.cli.obsession:replay_main"
    former_records = "cardtable.games.obsession.former_record:OBSESSION_FORMER"

    def record_rules(self, game: Any) -> dict[str, Any]:
        """The rules as ``obsession --record`` writes them (which seats are people is the
        header's seats)."""
        return dict(game.rules.to_json())

    def load_recorded(self, rules: Any) -> Any:
        from cardtable.engine.errors import GameParamsError
        from cardtable.games.obsession.game import ObsessionGame
        from cardtable.games.obsession.rules import Rules

        try:
            return ObsessionGame(Rules.from_json(dict(rules)))
        except (ValueError, KeyError, TypeError) as error:
            raise GameParamsError(f"The rules do not make a game: {error}.") from None


OBSESSION = ObsessionDescription()
