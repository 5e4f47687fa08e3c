"""What one seat may see (specification §11). Bots and interfaces get this, never the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtable.engine.protocol import Result
from cardtable.games.caravan.board import ANY, NO_SUIT, Caravan, Summary
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.events import HistoryEntry
from cardtable.games.caravan.legality import Table, legal_codes
from cardtable.games.caravan.notation import Move
from cardtable.games.caravan.rules import Rules

if TYPE_CHECKING:
    from cardtable.games.caravan.state import Game

HIDDEN_CARD = 0
"""Stands for a card the seat may not see (the other seat's simultaneous opening numerals)."""


class Observation:
    """One seat's view of the table: its own hand, the public table and public history."""

    __slots__ = (
        "caravans", "crowding", "deck_sizes", "discard_mulligan", "hand", "hand_sizes", "held",
        "history", "jack_as_joker", "moves_made", "opening", "piles", "placed", "result", "rules",
        "seat", "summaries", "to_move",
    )

    seat: int
    to_move: int | None
    hand: tuple[int, ...]
    caravans: tuple[Caravan, ...]
    summaries: tuple[Summary, ...]
    crowding: tuple[int, ...]
    held: tuple[int | None, ...]
    deck_sizes: tuple[int, int]
    hand_sizes: tuple[int, int]
    piles: tuple[tuple[int, ...], tuple[int, ...]]
    placed: tuple[int, int]
    moves_made: tuple[int, int]
    opening: tuple[bool, bool]
    rules: tuple[Rules, Rules]
    history: Sequence[HistoryEntry]
    result: Result | None
    jack_as_joker: bool
    discard_mulligan: bool

    @classmethod
    def of(cls, game: Game, seat: int) -> Observation:
        obs = cls.__new__(cls)
        obs.seat = seat
        obs.to_move = None if game.result is not None else game.turn
        obs.hand = tuple(game.hands[seat])
        caravans = tuple(game.caravans)
        summaries = tuple(game.summaries)
        history: Sequence[HistoryEntry] = game.history
        if game.opening_hidden():
            other = range(3, 6) if seat == 0 else range(0, 3)
            hidden_caravans = list(caravans)
            hidden_summaries = list(summaries)
            for index in other:
                size = len(caravans[index])
                hidden_caravans[index] = ((HIDDEN_CARD, ()),) * size
                hidden_summaries[index] = (0, size, 0, NO_SUIT, ANY)
            caravans = tuple(hidden_caravans)
            summaries = tuple(hidden_summaries)
            history = tuple(
                HistoryEntry(entry.seat, entry.code, (HIDDEN_CARD,) * len(entry.cards), True)
                if entry.opening and entry.seat != seat else entry
                for entry in history
            )
        obs.caravans = caravans
        obs.crowding = tuple(game.crowding)
        obs.summaries = summaries
        obs.held = tuple(game.held)
        obs.deck_sizes = (len(game.decks[0]), len(game.decks[1]))
        obs.hand_sizes = (len(game.hands[0]), len(game.hands[1]))
        obs.piles = (tuple(game.piles[0]), tuple(game.piles[1]))
        obs.placed = (game.placed[0], game.placed[1])
        obs.moves_made = (game.moves_made[0], game.moves_made[1])
        obs.opening = (game.in_opening(0), game.in_opening(1))
        obs.rules = game.rules
        obs.history = history
        obs.result = game.result
        obs.jack_as_joker = game.jack_as_joker[seat]
        obs.discard_mulligan = game._discard_mulligan(seat)
        return obs

    def __eq__(self, other: object) -> bool:
        """Observations are equal when they show the same: every field (the history as a
        sequence of entries, whatever object holds it)."""
        if not isinstance(other, Observation):
            return NotImplemented
        return all(
            tuple(getattr(self, name)) == tuple(getattr(other, name)) if name == "history"
            else getattr(self, name) == getattr(other, name)
            for name in self.__slots__
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def seat_name(self) -> str:
        return SEATS[self.seat]

    def table(self) -> Table:
        return Table(self.caravans, self.summaries, self.rules, self.seat, self.hand,
                     self.opening[self.seat], self.jack_as_joker, self.discard_mulligan,
                     self.crowding)

    def legal_codes(self) -> list[int]:
        """The seat's legal moves (packed, canonical order); empty when it is not to move."""
        if self.to_move != self.seat:
            return []
        return legal_codes(self.table())

    def legal_moves(self) -> list[Move]:
        return [Move.from_code(self.seat, code) for code in self.legal_codes()]

    legal_actions = legal_moves
