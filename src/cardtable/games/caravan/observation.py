"""What one seat may see (specification §11). Bots and interfaces get this, never the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardtable.engine.protocol import Result
from cardtable.games.caravan.board import ANY, NO_SUIT, Caravan, Summary
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.events import HistoryEntry
from cardtable.games.caravan.legality import (
    LegalParts,
    Table,
    compiled_core,
    count_legal,
    legal_codes,
    move_error,
    nth_legal,
    python_legal_parts,
)
from cardtable.games.caravan.notation import Move
from cardtable.games.caravan.rules import Rules
from cardtable.games.caravan.turn_moves import TurnMoves

if TYPE_CHECKING:
    from cardtable.games.caravan.state import CaravanState

HIDDEN_CARD = 0
"""Stands for a card the seat may not see (the other seat's simultaneous opening numerals)."""

_new_observation = object.__new__


def _hide_other_opening(obs: Observation, seat: int) -> None:
    """During a simultaneous opening nobody sees the other seat's opening cards."""
    caravans = obs.caravans
    hidden_caravans = list(caravans)
    hidden_summaries = list(obs.summaries)
    for index in range(3, 6) if seat == 0 else range(0, 3):
        size = len(caravans[index])
        hidden_caravans[index] = ((HIDDEN_CARD, ()),) * size
        hidden_summaries[index] = (0, size, 0, NO_SUIT, ANY)
    obs.caravans = tuple(hidden_caravans)
    obs.summaries = tuple(hidden_summaries)
    obs.history = tuple(
        HistoryEntry(entry.seat, entry.code, (HIDDEN_CARD,) * len(entry.cards), True)
        if entry.opening and entry.seat != seat else entry
        for entry in obs.history
    )


_NO_OPENING = (False, False)


class Observation:
    """One seat's view of the table: its own hand, the public table and public history."""

    FIELDS = (
        "caravans", "crowding", "deck_sizes", "discard_mulligan", "hand", "hand_sizes", "held",
        "history", "jack_as_joker", "moves_made", "opening", "piles", "placed", "result", "rules",
        "seat", "summaries", "to_move",
    )
    """What the seat sees (``_moves`` is bookkeeping of the turn, see ``turn_moves``)."""

    __slots__ = (*FIELDS, "_moves")

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
    _moves: TurnMoves | None  # the turn's legality (see turn_moves), for the seat to move only

    @classmethod
    def of(cls, game: CaravanState, seat: int) -> Observation:
        # Called for every move of a match: the game's facts are read once, the parts that
        # are already immutable (caravan tuples, summaries, rules, history) are shared, and
        # the Start-round facts are only worked out while a seat is still in it.
        obs = _new_observation(cls)
        result = game.result
        rules = game.rules
        placed_abc, placed_def = game.placed
        obs.seat = seat
        moves: TurnMoves | None = None
        if result is None:
            if (to_move := game.turn) == seat:
                # The seat to move gets a new record of the turn's legal moves, which the
                # game keeps (a game edited since an earlier observation gets a fresh one).
                moves = game._moves = TurnMoves()
            obs.to_move = to_move
        else:
            obs.to_move = None
        obs._moves = moves
        hands = game.hands
        obs.hand = hand = tuple(hands[seat])
        obs.caravans = caravans = tuple(game.caravans)
        obs.summaries = summaries = tuple(game.summaries)
        obs.crowding = crowding = tuple(game.crowding)
        obs.jack_as_joker = jack_as_joker = game.jack_as_joker[seat]
        obs.history = game._history
        if placed_abc + placed_def < 6:
            opening = (placed_abc < 3 and rules[0].opening_mode != "none",
                       placed_def < 3 and rules[1].opening_mode != "none")
            # Only a seat still in its Start round can have the discard mulligan.
            obs.discard_mulligan = opening[seat] and game._discard_mulligan(seat)
            if rules[0].opening_mode == "simultaneous" and result is None:
                _hide_other_opening(obs, seat)
        else:
            opening = _NO_OPENING
            obs.discard_mulligan = False
            if moves is not None and (core := compiled_core()) is not None:
                # The seat to move is asked its moves next (by its bot, or by the game
                # checking the move it makes): the core's state of its table is made now,
                # from the tuples at hand (compiled_table makes it otherwise).
                try:  # noqa: SIM105 (no context manager on the hot path)
                    moves.table = core.State.of_table(caravans, summaries, crowding, rules,
                                                      seat, hand, jack_as_joker, 3)
                except ValueError:  # more cards than the core takes: compiled_table says so
                    pass
        obs.opening = opening
        obs.held = tuple(game.held)
        decks, piles = game.decks, game.piles
        obs.deck_sizes = (len(decks[0]), len(decks[1]))
        obs.hand_sizes = (len(hands[0]), len(hands[1]))
        obs.piles = (tuple(piles[0]), tuple(piles[1]))
        obs.placed = (placed_abc, placed_def)
        made = game.moves_made
        obs.moves_made = (made[0], made[1])
        obs.rules = rules
        obs.result = result
        return obs

    def __eq__(self, other: object) -> bool:
        """Observations are equal when they show the same: every field (the history as a
        sequence of entries, whatever object holds it)."""
        if not isinstance(other, Observation):
            return NotImplemented
        return all(
            tuple(getattr(self, name)) == tuple(getattr(other, name)) if name == "history"
            else getattr(self, name) == getattr(other, name)
            for name in self.FIELDS
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def seat_name(self) -> str:
        return SEATS[self.seat]

    def table(self) -> Table:
        return Table(self.caravans, self.summaries, self.rules, self.seat, self.hand,
                     self.opening[self.seat], self.jack_as_joker, self.discard_mulligan,
                     self.crowding)

    def compiled_table(self) -> Any:
        """The compiled core's state of the seat's table, the seat taken as the mover (see
        ``turn_moves``): made once per turn for the seat to move, from the observation's own
        tuples. None without the core, or when the table holds a card the core does not take
        (the other seat's hidden cards in a simultaneous opening)."""
        moves = self._moves
        if moves is not None and moves.table is not None:
            return moves.table
        core = compiled_core()
        if core is None:
            return None
        seat = self.seat
        try:
            table = core.State.of_table(self.caravans, self.summaries, self.crowding,
                                        self.rules, seat, self.hand, self.jack_as_joker,
                                        self.placed[seat])
        except ValueError:
            return None
        if moves is not None:
            moves.table = table
        return table

    def legal_parts(self) -> LegalParts:
        """:func:`~cardtable.games.caravan.legality.legal_parts` of the seat's table (the seat
        taken as the mover). For the seat to move they are worked out once per turn; the
        caller must not change them."""
        table = self.compiled_table()
        if table is not None:
            codes: list[int] = table.legal_codes()
            return codes, [], []
        moves = self._moves
        if moves is not None and moves.parts is not None:
            return moves.parts
        parts = python_legal_parts(self.table())
        if moves is not None:
            moves.parts = parts
        return parts

    def legal_count(self) -> int:
        """How many legal moves the seat has (the seat taken as the mover)."""
        table = self.compiled_table()
        if table is not None:
            count: int = table.count_legal()
            return count
        return count_legal(self.legal_parts())

    def legal_at(self, index: int) -> int:
        """The legal move at ``index`` of the canonical order, without listing the others."""
        table = self.compiled_table()
        if table is not None:
            code: int = table.nth_legal(index)
            return code
        return nth_legal(self.legal_parts(), index)

    def is_legal(self, code: int) -> bool:
        """Whether the rules allow packed move ``code`` (the seat taken as the mover)."""
        table = self.compiled_table()
        if table is not None:
            legal: bool = table.is_legal(code)
            return legal
        return move_error(self.table(), code) is None

    def legal_codes(self) -> list[int]:
        """The seat's legal moves (packed, canonical order); empty when it is not to move."""
        if self.to_move != self.seat:
            return []
        return legal_codes(self.table())

    def legal_moves(self) -> list[Move]:
        return [Move.from_code(self.seat, code) for code in self.legal_codes()]

    legal_actions = legal_moves
