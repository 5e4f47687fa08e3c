"""Caravan's observation as a fixed-length vector of small integers (``uint8``), built from
``state.observation(seat)`` alone: the seat's own hand, the public table and the discard piles.
The layout is in docs/rl.md; :func:`feature_names` names every entry.

Caravans and seats are in absolute order (A..F, ABC then DEF), as the action indices are; the
first entry tells which seat observes. A card is two numbers: its rank (1 = Ace .. 10, 11 J,
12 Q, 13 K, 14 Joker, 15 a card the seat may not see, 0 none) and its suit + 1 (1..4 for
S H D C, 5 for the Joker, 0 none). Counts and values above 255 are shown as 255.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cardtable.games.caravan.action_index import CARAVANS, Layout, layout
from cardtable.games.caravan.cards import KING, QUEEN, RANK_MASK
from cardtable.games.caravan.legality import legal_parts
from cardtable.games.caravan.notation import PLAY, unpack

if TYPE_CHECKING:
    from cardtable.games.caravan.board import Caravan
    from cardtable.games.caravan.game import CaravanGame
    from cardtable.games.caravan.observation import Observation

SLOTS_SHOWN = 12
"""A caravan's first slots are shown card by card (its size and value are always shown)."""
CAP = 255
HIDDEN_RANK = 15
RANKS = 14
SEAT_FIELDS = ("observer", "my_turn")
PER_SEAT = ("deck_size", "hand_size", "placed", "opening")
FLAGS = ("jack_as_joker", "discard_mulligan")
CARAVAN_FIELDS = ("value", "size", "last_rank", "suit", "direction", "held", "most_faces")
SLOT_FIELDS = ("rank", "suit", "kings", "queens", "jokers", "queen_suit")
HIGHS = {"observer": 1, "my_turn": 1, "opening": 1, "jack_as_joker": 1, "discard_mulligan": 1,
         "rank": HIDDEN_RANK, "last_rank": 10, "suit": 5, "queen_suit": 5, "direction": 2,
         "held": 2}

_RANK = [0] * 128
_SUIT = [0] * 128
for _kind in range(128):
    _rank = _kind & RANK_MASK
    if 1 <= _rank <= RANKS:
        _RANK[_kind] = _rank
        _SUIT[_kind] = ((_kind >> 4) & 7) + 1
_RANK[0] = HIDDEN_RANK  # the observation's HIDDEN_CARD
_PLAIN = [(_RANK[kind], _SUIT[kind], 0, 0, 0, 0) for kind in range(128)]
"""A numeral's slot features without faces, by kind (rank and suit)."""
_ONES = b"\x01" * 4096


def _slot_features(numeral: int, faces: tuple[int, ...]) -> tuple[int, ...]:
    kind = numeral & 127
    kings = queens = jokers = queen_suit = 0
    for face in faces:
        face_rank = face & RANK_MASK
        if face_rank == KING:
            kings += 1
        elif face_rank == QUEEN:
            queens += 1
            queen_suit = _SUIT[face & 127]
        else:  # a Joker, or a Jack played as one (a plain Jack is never attached)
            jokers += 1
    return (_RANK[kind], _SUIT[kind], min(kings, CAP), min(queens, CAP), min(jokers, CAP),
            queen_suit)


class CaravanEncoder:
    """Encodes observations (and legal masks) of games under one set of rules.

    Caravans and discard piles change a little at a time, so their parts of the vector are
    kept from the last call and only recomputed when they changed.
    """

    def __init__(self, game: CaravanGame) -> None:
        lay = layout(game.rules)
        self._layout = lay
        self.num_actions = lay.size
        # The index of every move code without a slot (numeral plays, face plays at slot 0,
        # discards, clears): codes of hand positions 0..H fit below (H + 1) << 5.
        self._index_of = [_code_index(lay, code) for code in range((lay.hands + 1) << 5)]
        self.hand_slots = lay.hands
        self.slots = min(lay.slots, SLOTS_SHOWN)
        self.names = feature_names(self.hand_slots, self.slots)
        self.size = len(self.names)
        self.low = np.zeros(self.size, dtype=np.uint8)
        self.high = np.array([HIGHS.get(name.rsplit(".", 1)[-1], CAP) for name in self.names],
                             dtype=np.uint8)
        self._caravans: list[tuple[Caravan | None, list[int]]] = [(None, [])] * CARAVANS
        self._table: tuple[tuple[object, ...], list[int]] = ((), [])
        self._piles: list[tuple[tuple[int, ...], list[int], list[int]]] = [
            ((), [0] * (RANKS + 1), [0] * RANKS)] * 2

    def encode(self, obs: Observation) -> np.ndarray:
        rank, suit, plain = _RANK, _SUIT, _PLAIN
        out: list[int] = [obs.seat, 1 if obs.to_move == obs.seat else 0]
        (abc_deck, def_deck), (abc_hand, def_hand) = obs.deck_sizes, obs.hand_sizes
        (abc_placed, def_placed), (abc_opening, def_opening) = obs.placed, obs.opening
        out += (abc_deck if abc_deck < CAP else CAP, abc_hand if abc_hand < CAP else CAP,
                abc_placed, 1 if abc_opening else 0,
                def_deck if def_deck < CAP else CAP, def_hand if def_hand < CAP else CAP,
                def_placed, 1 if def_opening else 0,
                1 if obs.jack_as_joker else 0, 1 if obs.discard_mulligan else 0)
        hand = obs.hand
        for card in hand:
            kind = card & 127
            out += (rank[kind], suit[kind])
        out += [0] * (2 * (self.hand_slots - len(hand)))
        caravans = obs.caravans
        table = (obs.summaries, obs.held, obs.crowding, caravans)
        known_table, block = self._table
        if table != known_table:
            block = []
            for (value, size, last, card_suit, direction), held, crowding in zip(
                    obs.summaries, obs.held, obs.crowding, strict=True):
                block += (value if value < CAP else CAP, size if size < CAP else CAP, last,
                          card_suit + 1, direction, 0 if held is None else held,
                          crowding if crowding < CAP else CAP)
            cache = self._caravans
            shown = self.slots
            for index, caravan in enumerate(caravans):
                known, features = cache[index]
                if caravan is not known:
                    features = []
                    for numeral, faces in caravan[:shown]:
                        features += (_slot_features(numeral, faces) if faces
                                     else plain[numeral & 127])
                    if len(caravan) < shown:
                        features += [0] * (6 * (shown - len(caravan)))
                    cache[index] = (caravan, features)
                block += features
            self._table = (table, block)
        out += block
        piles = self._piles
        for seat, pile in enumerate(obs.piles):
            known_pile, counts, shown_counts = piles[seat]
            if pile != known_pile:
                start = len(known_pile)
                if start > len(pile) or pile[:start] != known_pile:
                    counts, start = [0] * (RANKS + 1), 0
                else:
                    counts = counts[:]
                for card in pile[start:]:
                    counts[card & RANK_MASK] += 1
                shown_counts = [count if count < CAP else CAP for count in counts[1:]]
                piles[seat] = (pile, counts, shown_counts)
            out += shown_counts
        return np.frombuffer(bytearray(out), dtype=np.uint8)

    def legal_mask(self, obs: Observation) -> np.ndarray:
        """``state.legal_mask()`` of the seat's own observation as an ``int8`` array (all 0
        when the seat is not to move), built from the legal moves' parts: runs of face plays
        become slices."""
        lay = self._layout
        mask = bytearray(lay.size)
        if obs.to_move == obs.seat:
            index_of = self._index_of
            numerals, blocks, tail = legal_parts(obs.table())
            known = len(index_of)
            for code in numerals:
                # The compiled core lists every move in this first part, face plays on a
                # slot among them: their codes lie beyond the table of slotless codes.
                mask[index_of[code] if code < known else lay.index(*unpack(code))] = 1
            for count, code, slots in blocks:
                base = index_of[code]
                if isinstance(slots, int):
                    if slots + count - 1 > lay.slots:
                        lay.index(PLAY, (code >> 2) & 7, (code >> 5) & 0xFFFF,
                                  slots + count - 1)  # raises with the message
                    mask[base + slots:base + slots + count] = _ONES[:count]
                else:
                    if slots[-1] > lay.slots:
                        lay.index(PLAY, (code >> 2) & 7, (code >> 5) & 0xFFFF, slots[-1])
                    for slot in slots:
                        mask[base + slot] = 1
            for code in tail:
                mask[index_of[code]] = 1
        return np.frombuffer(mask, dtype=np.int8)


def _code_index(lay: Layout, code: int) -> int:
    try:
        return lay.index(code & 3, (code >> 2) & 7, (code >> 5) & 0xFFFF, 0)
    except ValueError:
        return -1  # no move has this code


def feature_names(hand_slots: int, slots: int) -> list[str]:
    """The name of every entry of the vector, in order."""
    names = list(SEAT_FIELDS)
    for seat in ("abc", "def"):
        names += [f"{seat}.{field}" for field in PER_SEAT]
    names += FLAGS
    for position in range(1, hand_slots + 1):
        names += [f"hand{position}.rank", f"hand{position}.suit"]
    for caravan in "ABCDEF":
        names += [f"{caravan}.{field}" for field in CARAVAN_FIELDS]
    for caravan in "ABCDEF":
        for slot in range(1, slots + 1):
            names += [f"{caravan}{slot}.{field}" for field in SLOT_FIELDS]
    for seat in ("abc", "def"):
        names += [f"{seat}.pile.{rank}" for rank in range(1, RANKS + 1)]
    return names
