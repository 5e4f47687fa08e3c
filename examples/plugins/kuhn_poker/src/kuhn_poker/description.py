"""Kuhn poker as cardtable's shells know it: the description this package registers under the
entry-point group ``cardtable.games`` (its ``pyproject.toml``), as ``kuhn_poker``.

Importing this module is cheap: the game itself is imported when a method needs it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.engine.description import (
    Bot,
    GameDescription,
    ranks_of,
    winners_first,
)
from cardtable.engine.protocol import Result

from kuhn_poker.rules import SEATS


class KuhnPokerDescription(GameDescription):
    name = "kuhn_poker"
    title = "Kuhn poker"
    summary = ("Poker with three cards (J, Q, K) and two players: ante 1, one card each, "
               "check or bet 1, and the higher card wins a showdown (as OpenSpiel plays it).")
    seat_counts = (2, 2)
    instant_bots = ("random", "always-bet", "equilibrium")
    rl_environment = "kuhn_poker.rl:PART"

    def load(self, **params: Any) -> Any:
        from kuhn_poker.game import KuhnGame

        return KuhnGame.load(**params)

    def bots(self) -> Sequence[Bot]:
        from kuhn_poker.bots import described_bots

        return described_bots()

    def places(self, result: Result, seats: Sequence[str]) -> list[int]:
        """By chips won; a game without chips (a forfeit): the winners first."""
        chips = result.details.get("chips")
        if not isinstance(chips, list) or len(chips) != len(seats):
            return winners_first(result, seats)
        return ranks_of([float(value) for value in chips])

    def seat_view(self, state: Any, seat: str) -> dict[str, Any]:
        return self.observation_json(state.observation(seat))

    def public_view(self, state: Any) -> dict[str, Any]:
        from kuhn_poker.views import public_view

        return public_view(state)

    def observation_json(self, observation: Any) -> dict[str, Any]:
        """What an external program is sent: the seat's view (cardtable builds the rest of the
        bot protocol from it, the notation and ``game.sample_world``)."""
        from kuhn_poker.views import observation_json

        return observation_json(observation)

    def rules_json(self, game: Any) -> dict[str, Any]:
        from kuhn_poker.views import rules_json

        return rules_json(game)

    def howto(self, preset: str | None = None) -> list[str]:
        return [
            self.title,
            self.summary,
            f"Two seats, {SEATS[0]} and {SEATS[1]}. Each antes 1 chip and is dealt one of the "
            "three cards J < Q < K; the third card is not used.",
            f"{SEATS[0]} acts first, then the seats alternate. Each action is pass or bet: with "
            "no bet to face, pass checks and bet puts in 1 chip; facing a bet, pass folds and "
            "bet calls it.",
            "Check, check: showdown, the higher card wins the other's ante (1 chip).",
            "A bet folded to: the bettor wins the folder's ante (1 chip); the folded card is "
            "not shown.",
            "A bet called: showdown, the higher card wins 2 chips.",
            "Notation: pass or bet (p, b); check, fold and call are accepted where a poker "
            "player would say them.",
        ]

    def record_rules(self, game: Any) -> dict[str, Any]:
        """The game has no rules to choose: a record stores none."""
        return {}

    def load_recorded(self, rules: Mapping[str, Any]) -> Any:
        return self.load(**rules)


KUHN_POKER = KuhnPokerDescription()
