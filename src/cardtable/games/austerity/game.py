"""Austerity for :func:`cardtable.load_game`: the deck, the token piles, the target and the
number of players, checked as the ``austerity`` hub checks its arguments (same messages)::

    load_game("austerity", deck="my.deck", tokens=7, points=15, players=3)

Without ``deck`` the bundled deck of the full-screen table is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from cardtable.engine.errors import GameParamsError
from cardtable.games.austerity.codec import parse_argument
from cardtable.games.austerity.deck import DeckError, load_deck
from cardtable.games.austerity.hub import BAD_ARGUMENT, USAGE
from cardtable.games.austerity.rules import Card, letter
from cardtable.games.austerity.state import AusterityState

NAME = "austerity"
PARAMS = ("deck", "tokens", "points", "players")
BUNDLED_DECK = Path(__file__).parent / "decks" / "medium.deck"
MIN_PLAYERS, MAX_PLAYERS = 2, 26


def _count(value: object) -> int:
    """A token or point count under the hub's rule for its arguments."""
    if isinstance(value, bool):
        value = -1
    number = parse_argument(str(value))
    if number < 0:
        raise GameParamsError(BAD_ARGUMENT.rstrip("\n"))
    return number


@dataclass(frozen=True, slots=True)
class AusterityGame:
    """Austerity with a fixed deck (top card first) and rules. The game has no chance, so
    ``new_state`` ignores its seed: every state starts as the hub starts it."""

    deck: tuple[Card, ...]
    tokens: int
    points: int
    players: int
    name: ClassVar[str] = NAME

    @classmethod
    def load(cls, **params: Any) -> AusterityGame:
        for name in params:
            if name not in PARAMS:
                raise GameParamsError(
                    f"Unknown parameter '{name}' for austerity (allowed: {', '.join(PARAMS)})."
                )
        players = params.get("players", 2)
        if isinstance(players, bool) or not isinstance(players, int) or not (
            MIN_PLAYERS <= players <= MAX_PLAYERS
        ):
            raise GameParamsError(USAGE.rstrip("\n"))
        tokens = _count(params.get("tokens", 7))
        points = _count(params.get("points", 15))
        try:
            deck = load_deck(str(params.get("deck", BUNDLED_DECK)))
        except DeckError as error:
            raise GameParamsError(error.message) from None
        return cls(tuple(deck), tokens, points, players)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(letter(player) for player in range(self.players))

    def new_state(self, seed: int | None = None) -> AusterityState:
        """The game as the hub starts it: piles filled and the market turned up."""
        return AusterityState(list(self.deck), self.tokens, self.points, self.players)

    def num_actions(self) -> int:
        """How many action indices the game has (the same for every deck and player count)."""
        from cardtable.games.austerity.action_index import num_actions

        return num_actions(self)

    def state_from_position(self, text: str) -> AusterityState:
        """The state written as ``text`` by ``state.to_position()``."""
        from cardtable.games.austerity.position import from_position

        return from_position(self, text)


if TYPE_CHECKING:
    from cardtable.engine.protocol import NotatedState
    from cardtable.games.austerity.rules import Action
    from cardtable.games.austerity.state import Observation

    def _is_a_notated_state(state: AusterityState) -> NotatedState[Action, Observation]:
        return state  # checked by mypy: the state implements the protocol
