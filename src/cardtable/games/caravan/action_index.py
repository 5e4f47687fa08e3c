"""Caravan moves as fixed integer indices, for learning agents and search (docs/action-indices.md).

The index space depends only on the rules of both seats, never on the state, so a policy sees
the same ``num_actions`` outputs from the first ply to the last. With ``H`` the largest hand
either seat can hold and ``S`` the most numerals a caravan can hold (below)::

    play     P hand C caravan slot   ((hand - 1) * 6 + caravan) * (S + 1) + slot
    discard  D hand                  PLAYS + hand - 1
    clear    C caravan [hand]        PLAYS + H + caravan * R + hand

where ``PLAYS = 6 * H * (S + 1)``; slot 0 is a numeral onto the caravan, slots 1..S a face card
onto that numeral; ``R`` is ``H + 1`` when either seat restarts destroyed caravans
(``clear_policy = destroy_restart``, ``hand`` naming the restart card) and 1 otherwise.

``S`` covers every caravan the rules allow: a caravan holds only numerals of its owner, so it
is never longer than the owner's ``max_numerals``, nor than the numerals its deck can hold
(at most ``deck_max`` cards and ``samples_max`` copies of each of the 40 numerals). Only a game
dealt from decks the rules refuse can outgrow it; its moves beyond slot ``S`` have no index and
raise ``ValueError``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, Move, unpack
from cardtable.games.caravan.rules import Rules, SeatRules

if TYPE_CHECKING:
    from cardtable.games.caravan.state import CaravanState

CARAVANS = 6
NUMERALS_PER_SAMPLE = 40
"""Ace to 10 in four suits: a deck holds at most this many numerals per sample deck."""


def slot_bound(rules: Rules) -> int:
    """The most numerals a caravan of a seat playing ``rules`` can ever hold.

    A caravan holds only its owner's numerals, and the owner's deck has at most ``deck_max``
    cards and at most ``samples_max`` copies of each numeral (random decks and deck files alike).
    """
    bound = min(rules.deck_max, NUMERALS_PER_SAMPLE * rules.samples_max)
    return bound if rules.max_numerals is None else min(bound, rules.max_numerals)


class Layout:
    """The constants of one rules' index space, computed once per rules object."""

    __slots__ = ("clear_base", "clear_stride", "discard_base", "hands", "restart", "size",
                 "slot_stride", "slots")

    def __init__(self, rules: SeatRules) -> None:
        self.hands = max(rules.abc.largest_hand, rules.def_.largest_hand)
        self.slots = max(slot_bound(rules.abc), slot_bound(rules.def_))
        self.slot_stride = self.slots + 1
        self.restart = "destroy_restart" in (rules.abc.clear_policy, rules.def_.clear_policy)
        self.discard_base = CARAVANS * self.hands * self.slot_stride
        self.clear_base = self.discard_base + self.hands
        self.clear_stride = self.hands + 1 if self.restart else 1
        self.size = self.clear_base + CARAVANS * self.clear_stride

    def index(self, kind: int, caravan: int, hand: int, slot: int) -> int:
        """The index of a move given by its parts; ValueError when it has none."""
        hands = self.hands
        if kind == PLAY:
            if 1 <= hand <= hands and 0 <= caravan < CARAVANS and 0 <= slot <= self.slots:
                return ((hand - 1) * CARAVANS + caravan) * self.slot_stride + slot
            if 1 <= hand <= hands and 0 <= caravan < CARAVANS and slot > self.slots:
                raise ValueError(
                    f"card position {slot} is beyond the {self.slots} numerals a caravan can "
                    f"hold under these rules, so the move has no action index"
                )
        elif kind == DISCARD:
            if 1 <= hand <= hands and caravan == 0 and slot == 0:
                return self.discard_base + hand - 1
        elif kind == CLEAR:
            restart = hand if self.restart else 0
            if 0 <= caravan < CARAVANS and slot == 0 and hand == restart and 0 <= hand <= hands:
                return self.clear_base + caravan * self.clear_stride + hand
        raise ValueError(f"{_describe(kind, caravan, hand, slot)} has no action index under "
                         f"these rules")


def _describe(kind: int, caravan: int, hand: int, slot: int) -> str:
    if 0 <= kind <= CLEAR and 0 <= caravan < CARAVANS and hand >= 0 and slot >= 0:
        return f"the move {Move(0, kind, caravan, hand, slot).notation!r}"
    return f"the move (kind {kind}, caravan {caravan}, hand {hand}, slot {slot})"


_cached: tuple[SeatRules | None, Layout | None] = (None, None)


def layout(rules: SeatRules) -> Layout:
    """The layout of ``rules``; the last one is kept, since a game asks again every ply."""
    global _cached
    known, found = _cached
    if known is rules and found is not None:
        return found
    found = Layout(rules)
    _cached = (rules, found)
    return found


def num_actions(rules: SeatRules) -> int:
    """How many action indices games under ``rules`` have (the same for every state)."""
    return layout(rules).size


def action_index(state: CaravanState, action: Move) -> int:
    """The index of ``action``, a move by the seat to move (legal or not)."""
    if action.seat != state.turn:
        raise ValueError(f"the move {action} is not by {SEATS[state.turn]}, the seat to move")
    return layout(state.seat_rules).index(action.kind, action.caravan, action.hand, action.slot)


def index_action(state: CaravanState, index: int) -> Move:
    """The move of the seat to move at ``index`` (which need not be legal now)."""
    lay = layout(state.seat_rules)
    if type(index) is not int or not 0 <= index < lay.size:
        raise ValueError(f"action index {index!r} is outside 0..{lay.size - 1}")
    seat = state.turn
    if index < lay.discard_base:
        rest, slot = divmod(index, lay.slot_stride)
        hand, caravan = divmod(rest, CARAVANS)
        return Move(seat, PLAY, caravan, hand + 1, slot)
    if index < lay.clear_base:
        return Move(seat, DISCARD, 0, index - lay.discard_base + 1)
    caravan, hand = divmod(index - lay.clear_base, lay.clear_stride)
    return Move(seat, CLEAR, caravan, hand)


def legal_mask(state: CaravanState) -> bytes:
    """``num_actions`` bytes, 1 at the index of every legal move and 0 elsewhere."""
    lay = layout(state.seat_rules)
    mask = bytearray(lay.size)
    stride = lay.slot_stride
    slots = lay.slots
    discard_base = lay.discard_base
    clear_base = lay.clear_base
    clear_stride = lay.clear_stride
    for code in state.legal_codes():
        kind = code & 3
        caravan = (code >> 2) & 7
        hand = (code >> 5) & 0xFFFF
        if kind == PLAY:
            slot = code >> 21
            if slot > slots:
                lay.index(*unpack(code))  # raises with the message
            mask[((hand - 1) * CARAVANS + caravan) * stride + slot] = 1
        elif kind == DISCARD:
            mask[discard_base + hand - 1] = 1
        else:
            mask[clear_base + caravan * clear_stride + hand] = 1
    return bytes(mask)

