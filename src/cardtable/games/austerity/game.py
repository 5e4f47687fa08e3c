"""Austerity for :func:`cardtable.load_game`: the deck, the token piles, the target and the
number of players, checked as the ``austerity`` hub checks its arguments (same messages), and
the deal::

    load_game("austerity", deck="my.deck", tokens=7, points=15, players=3, deal="shuffled")

Without ``deck`` the bundled deck of the full-screen table is used. ``deal="file"`` (the
default) deals the deck file in its order, as the hub does: the game has no chance.
``deal="shuffled"`` deals the deck file's cards shuffled from the seed of ``new_state(seed)``
(as Obsession shuffles its deck: Python's ``random.Random(seed).shuffle``), so that many games
over one deck file are many games, not one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from cardtable.engine.errors import GameParamsError
from cardtable.engine.one_line import one_line, shortened
from cardtable.engine.randomness import GameRandom, fresh_seed
from cardtable.games.austerity.codec import parse_argument
from cardtable.games.austerity.deck import DeckError, load_deck
from cardtable.games.austerity.hub import BAD_ARGUMENT, USAGE
from cardtable.games.austerity.rules import Card, letter
from cardtable.games.austerity.state import AusterityState, Observation

NAME = "austerity"
PARAMS = ("deck", "tokens", "points", "players", "deal")
DEALS = ("file", "shuffled")
"""The values of ``deal``: the deck file's order, or its cards shuffled from the seed."""
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


def _shown(value: object) -> str:
    return shortened(one_line(str(value)), 20)


def shuffled_deck(deck: Sequence[Card], seed: int | str) -> list[Card]:
    """The cards of ``deck`` in the order a shuffled deal from ``seed`` deals them (top card
    first): the same seed always gives the same order."""
    cards = list(deck)
    GameRandom(seed).shuffle(cards)
    return cards


@dataclass(frozen=True, slots=True)
class AusterityGame:
    """Austerity with a fixed deck (top card first, as in its file) and rules. Under
    ``deal="file"`` the game has no chance and ``new_state`` ignores its seed: every state
    starts as the hub starts it; under ``deal="shuffled"`` the seed decides the deck order."""

    deck: tuple[Card, ...]
    tokens: int
    points: int
    players: int
    deal: str = "file"
    name: ClassVar[str] = NAME
    state_class: ClassVar[type[AusterityState]] = AusterityState
    """The class of the game's states: ``position.py`` and ``worlds.py`` build the states they
    restore or sample with it, as they serve the state's own methods and so do not import its
    module."""

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
        deal = params.get("deal", "file")
        if deal not in DEALS:
            raise GameParamsError(f"Unknown deal '{_shown(deal)}' for austerity (allowed: "
                                  f"{', '.join(DEALS)}).")
        try:
            deck = load_deck(str(params.get("deck", BUNDLED_DECK)))
        except DeckError as error:
            raise GameParamsError(error.message) from None
        return cls(tuple(deck), tokens, points, players, str(deal))

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(letter(player) for player in range(self.players))

    def new_state(self, seed: int | str | None = None) -> AusterityState:
        """The game as the hub starts it, piles filled and the market turned up, from the deck
        as dealt: the file's order, or (``deal="shuffled"``) the order :func:`shuffled_deck`
        gives for ``seed`` (a fresh random seed when None)."""
        if self.deal == "file":
            return AusterityState(list(self.deck), self.tokens, self.points, self.players)
        if seed is None:
            seed = fresh_seed()
        return AusterityState(shuffled_deck(self.deck, seed), self.tokens, self.points,
                              self.players, shuffled=True)

    def num_actions(self) -> int:
        """How many action indices the game has (the same for every deck and player count)."""
        from cardtable.games.austerity.action_index import num_actions

        return num_actions(self)

    def state_from_position(self, text: str) -> AusterityState:
        """The state written as ``text`` by ``state.to_position()``."""
        from cardtable.games.austerity.position import from_position

        return from_position(self, text)

    def sample_world(self, observation: Observation, seed: int | str) -> AusterityState:
        """A state agreeing with ``observation`` (any seat's: every seat sees the whole table),
        the deck's hidden order dealt from ``seed`` (see ``worlds.py``)."""
        from cardtable.games.austerity.worlds import sample_world_from_observation

        return sample_world_from_observation(self, observation, seed)


if TYPE_CHECKING:
    from cardtable.engine.protocol import NotatedState
    from cardtable.games.austerity.rules import Action

    def _is_a_notated_state(state: AusterityState) -> NotatedState[Action, Observation]:
        return state  # checked by mypy: the state implements the protocol
