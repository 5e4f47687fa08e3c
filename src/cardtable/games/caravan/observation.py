"""What one seat may see (specification §11). Bots and interfaces get this, never the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtable.engine.protocol import Result
from cardtable.games.caravan.board import ANY, NO_SUIT, Caravan, Summary
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.events import HistoryEntry
from cardtable.games.caravan.legality import (
    LegalParts,
    Table,
    compiled_core,
    legal_codes,
    python_legal_parts,
)
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
        # Called for every move of a match: the game's facts are read once, and the parts
        # that are already immutable (caravan tuples, summaries, rules, history) are shared.
        obs = cls.__new__(cls)
        result = game.result
        rules = game.rules
        abc_rules = rules[0]
        placed = game.placed
        placed_abc, placed_def = placed
        opening_abc = placed_abc < 3 and abc_rules.opening_mode != "none"
        opening_def = placed_def < 3 and rules[1].opening_mode != "none"
        obs.seat = seat
        obs.to_move = None if result is not None else game.turn
        obs.hand = tuple(game.hands[seat])
        caravans = tuple(game.caravans)
        summaries = tuple(game.summaries)
        history: Sequence[HistoryEntry] = game._history
        if (abc_rules.opening_mode == "simultaneous" and result is None
                and placed_abc + placed_def < 6):
            # During a simultaneous opening nobody sees the other seat's opening cards.
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
        decks, hands, piles = game.decks, game.hands, game.piles
        obs.deck_sizes = (len(decks[0]), len(decks[1]))
        obs.hand_sizes = (len(hands[0]), len(hands[1]))
        obs.piles = (tuple(piles[0]), tuple(piles[1]))
        obs.placed = (placed_abc, placed_def)
        moves_made = game.moves_made
        obs.moves_made = (moves_made[0], moves_made[1])
        obs.opening = (opening_abc, opening_def)
        obs.rules = rules
        obs.history = history
        obs.result = result
        obs.jack_as_joker = game.jack_as_joker[seat]
        # Only a seat still in its Start round can have the discard mulligan.
        obs.discard_mulligan = (opening_def if seat else opening_abc) \
            and game._discard_mulligan(seat)
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

    def legal_parts(self) -> LegalParts:
        """:func:`~cardtable.games.caravan.legality.legal_parts` of the seat's table (the seat
        taken as the mover), the observation's own tuples handed to the core as they are."""
        seat = self.seat
        if not self.opening[seat]:
            core = compiled_core()
            if core is not None:
                try:
                    codes: list[int] = core.State.legal_of_table(
                        self.caravans, self.summaries, self.crowding, self.rules, seat,
                        self.hand, self.jack_as_joker)
                except ValueError:  # a card the core does not take (a hidden one)
                    return python_legal_parts(self.table())
                return codes, [], []
        return python_legal_parts(self.table())

    def legal_codes(self) -> list[int]:
        """The seat's legal moves (packed, canonical order); empty when it is not to move."""
        if self.to_move != self.seat:
            return []
        return legal_codes(self.table())

    def legal_moves(self) -> list[Move]:
        return [Move.from_code(self.seat, code) for code in self.legal_codes()]

    legal_actions = legal_moves
