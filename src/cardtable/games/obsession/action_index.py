"""Obsession decisions as fixed integer indices, for learning agents and search.

The index space depends only on the number of decks ``D`` (``rules.decks``), so every state of a
game has the same ``num_actions``; see docs/action-indices.md for the full description.

Plays come first, face by face (2..A, then the joker). A play of a suited face is named by how
many cards of each suit it holds, ``(c_C, c_D, c_H, c_S)`` with each count 0..D, not all 0; a
face's block lists these compositions by total count, then by the number
``c_C + (D+1) c_D + (D+1)^2 c_H + (D+1)^3 c_S``, so every face x count is one run of indices.
Copies with the same card text are interchangeable, and the legal list names each play by its
first copies in display order; an index means exactly that play, so the index space identifies
plays that differ only in which copy of a text they take. The joker block is counts 1..2D.
Then come the blind attempts (hidden position 1..3) and the 20 swap choices (3 of the 6 sorted
cards of hand and visible row, in ``itertools.combinations`` order). Pick-ups are never chosen:
they happen by themselves, so they have no index.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, product
from typing import TYPE_CHECKING

from cardtable.games.obsession.actions import Action, Blind, Play, Swap
from cardtable.games.obsession.cards import FACE, FACE_NAMES, JOKER, NO_CARD, SUITS
from cardtable.games.obsession.legality import LEGAL
from cardtable.games.obsession.rules import Rules

if TYPE_CHECKING:
    from cardtable.games.obsession.state import ObsessionState

SUITED_FACES = 13
HIDDEN_CARDS = 3
SWAP_POOL = 6
SWAP_CHOICES: tuple[tuple[int, int, int], ...] = tuple(combinations(range(SWAP_POOL), 3))
_SWAP_RANK = {choice: rank for rank, choice in enumerate(SWAP_CHOICES)}
_JOKER_BASE = SUITED_FACES * 4 * 8
_SWAP_PHASE, _PLAY_PHASE = 0, 1


class Layout:
    """The constants of the index space for ``decks`` decks, computed once per deck count."""

    __slots__ = ("blind_base", "compositions", "decks", "face_block", "joker_base", "offset",
                 "radix", "size", "swap_base")

    def __init__(self, decks: int) -> None:
        radix = decks + 1
        self.decks = decks
        self.radix = radix
        counts = [c for c in product(range(radix), repeat=4) if any(c)]
        counts.sort(key=lambda c: (sum(c), _code(c, radix)))
        self.compositions: tuple[tuple[int, int, int, int], ...] = tuple(
            (c[0], c[1], c[2], c[3]) for c in counts)
        offset = [-1] * radix**4
        for position, c in enumerate(self.compositions):
            offset[_code(c, radix)] = position
        self.offset = tuple(offset)
        """Position in a face's block by composition code (-1 for the empty play)."""
        self.face_block = len(self.compositions)
        self.joker_base = SUITED_FACES * self.face_block
        self.blind_base = self.joker_base + 2 * decks
        self.swap_base = self.blind_base + HIDDEN_CARDS
        self.size = self.swap_base + len(SWAP_CHOICES)


def _code(counts: Sequence[int], radix: int) -> int:
    return counts[0] + radix * (counts[1] + radix * (counts[2] + radix * counts[3]))


@cache
def layout(decks: int) -> Layout:
    return Layout(decks)


def num_actions(rules: Rules) -> int:
    """How many action indices games under ``rules`` have (the same for every state)."""
    return layout(rules.decks).size


def _card_text(card: int) -> str:
    face = FACE[card]
    return "R" if face == JOKER else FACE_NAMES[face] + SUITS[(card >> 3) & 3]


def _play_index(lay: Layout, cards: tuple[int, ...]) -> int:
    if not cards:
        raise ValueError("a play of no cards has no action index")
    decks = lay.decks
    counts = [0, 0, 0, 0]
    face = 0
    for card in cards:
        if type(card) is not int or not 0 <= card < NO_CARD or not FACE[card]:
            raise ValueError(f"{card!r} is not a card, so the play has no action index")
        if (card & 7 if card < _JOKER_BASE else (card - _JOKER_BASE) >> 1) >= decks:
            raise ValueError(f"card {card} ({_card_text(card)}) is not in a game of {decks} "
                             f"deck{'s' if decks > 1 else ''}")
        if face and FACE[card] != face:
            raise ValueError("a play of cards of different faces has no action index")
        face = FACE[card]
        counts[(card >> 3) & 3] += 1
    if len(set(cards)) != len(cards):
        raise ValueError("a play naming a card twice has no action index")
    if face == JOKER:
        return lay.joker_base + len(cards) - 1
    return (face - 2) * lay.face_block + lay.offset[_code(counts, lay.radix)]


def action_index(state: ObsessionState, action: Action) -> int:
    """The index of ``action`` for the seat to move (legal or not).

    A play is indexed by its face and suit counts, whichever copies it names; a swap by the
    positions of its cards among the sorted hand and visible row of the seat to move.
    """
    lay = layout(state.rules.decks)
    kind = type(action)
    if kind is Play:
        return _play_index(lay, action.cards)  # type: ignore[union-attr]
    if kind is Blind:
        index = action.index  # type: ignore[union-attr]
        if type(index) is int and 1 <= index <= HIDDEN_CARDS:
            return lay.blind_base + index - 1
        raise ValueError(f"hidden position {index!r} is outside 1..{HIDDEN_CARDS}")
    if kind is Swap:
        seat = state.current
        pool = sorted(state.hands[seat] + state.visible[seat])
        chosen = action.visible  # type: ignore[union-attr]
        if len(pool) != SWAP_POOL:
            raise ValueError("a swap has an action index only while the seat holds its six "
                             "dealt hand and visible cards")
        if len(chosen) != 3 or len(set(chosen)) != 3 or any(c not in pool for c in chosen):
            raise ValueError("a swap names 3 different cards of the hand and visible row of "
                             "the seat to move")
        ranks = sorted(pool.index(card) for card in chosen)
        return lay.swap_base + _SWAP_RANK[(ranks[0], ranks[1], ranks[2])]
    raise ValueError(f"{action!r} is not an Obsession action")


def index_action(state: ObsessionState, index: int) -> Action:
    """The action of the seat to move at ``index``.

    Raises ValueError for an index outside ``num_actions`` and for one this state cannot give a
    concrete action: a play of cards the seat's active pile does not hold, or a swap after the deal.
    """
    lay = layout(state.rules.decks)
    if type(index) is not int or not 0 <= index < lay.size:
        raise ValueError(f"action index {index!r} is outside 0..{lay.size - 1}")
    if index >= lay.swap_base:
        if state.phase != _SWAP_PHASE:
            raise ValueError(f"action index {index} is a swap, and swaps are only made at the "
                             f"deal")
        seat = state.current
        pool = sorted(state.hands[seat] + state.visible[seat])
        return Swap(tuple(pool[i] for i in SWAP_CHOICES[index - lay.swap_base]))
    if index >= lay.blind_base:
        return Blind(index - lay.blind_base + 1)
    seat = state.current
    source = state.hands[seat] or state.visible[seat]
    if index >= lay.joker_base:
        wanted = index - lay.joker_base + 1
        chosen = [card for card in source if FACE[card] == JOKER][:wanted]
        if len(chosen) < wanted:
            raise ValueError(f"action index {index} plays {wanted} jokers, which the seat to "
                             f"move does not hold")
        return Play(tuple(chosen))
    face = index // lay.face_block + 2
    counts = lay.compositions[index % lay.face_block]
    taken = [0, 0, 0, 0]
    picked: list[int] = []
    for card in source:
        if FACE[card] == face:
            suit = (card >> 3) & 3
            if taken[suit] < counts[suit]:
                taken[suit] += 1
                picked.append(card)
    if taken != list(counts):
        named = ", ".join(f"{c} x {FACE_NAMES[face]}{SUITS[s]}" for s, c in enumerate(counts) if c)
        raise ValueError(f"action index {index} plays {named}, which the seat to move does "
                         f"not hold")
    return Play(tuple(picked))


def legal_mask(state: ObsessionState) -> bytes:
    """``num_actions`` bytes, 1 at the index of every legal action and 0 elsewhere."""
    lay = layout(state.rules.decks)
    mask = bytearray(lay.size)
    phase = state.phase
    if phase == _SWAP_PHASE:
        mask[lay.swap_base:] = b"\x01" * len(SWAP_CHOICES)
        return bytes(mask)
    if phase != _PLAY_PHASE:
        return bytes(mask)
    seat = state.current
    source = state.hands[seat] or state.visible[seat]
    if not source:
        base = lay.blind_base
        for position in range(len(state.hidden[seat])):
            mask[base + position] = 1
        return bytes(mask)
    row = LEGAL[state.active]
    held: dict[int, list[int]] = {}
    for card in source:
        face = FACE[card]
        if row[face]:
            counts = held.get(face)
            if counts is None:
                counts = held[face] = [0, 0, 0, 0]
            counts[(card >> 3) & 3] += 1
    radix = lay.radix
    offset = lay.offset
    for face, counts in held.items():
        if face == JOKER:
            jokers = sum(counts)
            mask[lay.joker_base:lay.joker_base + jokers] = b"\x01" * jokers
            continue
        base = (face - 2) * lay.face_block
        for c_c in range(counts[0] + 1):
            for c_d in range(counts[1] + 1):
                for c_h in range(counts[2] + 1):
                    partial = c_c + radix * (c_d + radix * c_h)
                    step = radix**3
                    for c_s in range(counts[3] + 1):
                        at = offset[partial + step * c_s]
                        if at >= 0:
                            mask[base + at] = 1
    return bytes(mask)
