"""Caravan as cardtable's shells know it: registered under the entry point ``cardtable.games``.

Importing this module is cheap: the game itself is imported when a method needs it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.engine.description import (
    Bot,
    ExternalAdapter,
    GameCommand,
    GameDescription,
    Param,
)
from cardtable.engine.protocol import Result
from cardtable.engine.search import SearchParts
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
    # --- command lines and terminal ---
    terminal_app = "cardtable.ui.tui.caravan_launch:caravan_form"
    bench = "cardtable.games.caravan.bench:main"
    # --- cardtable's command line ---
    command = GameCommand("cardtable.cli.caravan:main", "play Caravan (see: caravan --help)")
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

    # --- tournaments and RL environments ---

    rule_fields = True
    rl_environment = "cardtable.envs.caravan_part:PART"

    def stopped(self, result: Result) -> bool:
        """A game the ``stuck_plies`` rule stopped (``quit``, cause ``stalemate``)."""
        from cardtable.games.caravan.stalemate import is_stalemate

        return is_stalemate(result)

    # --- web ---

    web_notes = ("Click a card of your hand, then a caravan (a numeral) or a card in a caravan "
                 "(a face card on it); or type the move in the move box: P2B plays hand card 2 "
                 "on caravan B, P4F3 plays card 4 on slot 3 of F, D3 discards card 3, CA clears "
                 "caravan A. The Legal moves list under the box shows every move you may make.")

    def seat_view(self, state: Any, seat: str) -> dict[str, Any]:
        from cardtable.games.caravan.web_view import seat_view

        return seat_view(state, seat, self.view_history)

    def public_view(self, state: Any) -> dict[str, Any]:
        from cardtable.games.caravan.web_view import public_view

        return public_view(state, self.view_history)

    def form_fields(self) -> Sequence[tuple[str, Sequence[Param]]]:
        from cardtable.games.caravan.web_view import form_fields

        return form_fields()

    def table_recorder(self, state: Any, writer: Any, seed: int,
                       players: Sequence[str]) -> Any:
        from cardtable.games.caravan.web_view import recorder

        return recorder(state, writer, list(players))

    def replay_views(self, record: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                                 Any]:
        from cardtable.games.caravan.web_view import replay_views

        return replay_views(record, self.view_history)

    # --- records ---

    replay_command = "caravan --replay"
    replay_app = "cardtable.cli.caravan:replay_main"
    former_records = "cardtable.games.caravan.former_record:CARAVAN_FORMER"

    def record_rules(self, game: Any) -> dict[str, Any]:
        """Both seats' rules, as ``caravan --record`` writes them (``{"ABC": {...},
        "DEF": {...}}``); the seat that moves first is the header's ``first``."""
        from cardtable.games.caravan.rules_assembly import rules_to_json

        return {"ABC": rules_to_json(game.rules.abc), "DEF": rules_to_json(game.rules.def_)}

    def load_recorded(self, rules: Mapping[str, Any]) -> Any:
        from cardtable.engine.errors import GameParamsError
        from cardtable.games.caravan.errors import RulesError
        from cardtable.games.caravan.game import CaravanGame
        from cardtable.games.caravan.rules import SeatRules
        from cardtable.games.caravan.rules_assembly import rules_from_json, validate_seat_rules

        if set(rules) != set(SEATS):
            raise GameParamsError("The rules are not {\"ABC\": {...}, \"DEF\": {...}}.")
        try:
            seat_rules = SeatRules(rules_from_json(rules["ABC"]), rules_from_json(rules["DEF"]))
            validate_seat_rules(seat_rules)
        except RulesError as error:
            raise GameParamsError(error.message) from None
        return CaravanGame(seat_rules)


    # --- agents ---

    def search(self) -> SearchParts | None:
        """The search bots' worlds in the compiled core (None without it)."""
        from cardtable.games.caravan.search import search_parts

        return search_parts()

    def external(self) -> ExternalAdapter:
        from cardtable.games.caravan.external import adapter

        return adapter()


CARAVAN = CaravanDescription()
