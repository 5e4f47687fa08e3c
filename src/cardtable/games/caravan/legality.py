"""Which moves the rules allow (specification §4), from what the mover can see.

Each rule is stated once, as a condition paired with the message that refuses a move
breaking it, in the ``*_refusals`` functions below. Both questions the game asks are
answered from them:

- :func:`move_error` (a move is refused with the first broken rule's message) asks a
  family for the refusal of the one move it is given;
- :func:`legal_parts` / :func:`legal_codes` (the legal moves in canonical order) hand each
  family a list to fill with every move it does not refuse.

A family answers for a whole hand and all six caravans in one call, so listing the legal
moves costs a handful of calls, not one per move. The compiled core (``_core.c``) takes its
refusal messages from the constants here (:data:`MESSAGES`).

The functions take the public table and the mover's own hand, never decks, so they
serve the game state and a seat's observation alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.engine.compiled import load_core
from cardtable.games.caravan.board import (
    ASC,
    CARAVAN_NAMES,
    DESC,
    Caravan,
    Summary,
    effective_suit,
)
from cardtable.games.caravan.cards import (
    FACE_NAMES,
    JACK,
    JOKER,
    KING,
    NUMERAL_MAX,
    QUEEN,
    RANK_MASK,
    RANK_TEXT,
    SUIT_MASK,
    SUIT_SHIFT,
    rank_of,
)
from cardtable.games.caravan.errors import IllegalMove
from cardtable.games.caravan.notation import (
    CLEAR,
    DISCARD,
    HAND_OUT_OF_RANGE,
    PLAY,
    pack,
    unpack,
    with_slot,
)
from cardtable.games.caravan.rules import Rules

# The refusal messages (the line mode prints them; the compiled core reads them from here).
INVALID_MOVE = "Invalid move."
NUMERAL_NOT_OWN = "A numeral card can only be played on a player's own caravan."
NUMERAL_START_NOT_EMPTY = (
    "A numeral card must be played on an empty caravan during the Start round.")
NUMERAL_CAP = "The caravan is at its maximum numeral card capacity."
NUMERAL_SAME_RANK = (
    "A numeral card must not have same rank as the most recent card in the caravan.")
NUMERAL_DIRECTION = (
    "Caravan {caravan} is {direction} from {rank}: play a {wanted} numeral or a {suit}.")
"""Worded for one caravan by :func:`direction_refusal` (the compiled core asks it too)."""
NUMERAL_SLOT = "A numeral card takes no slot: it goes on the caravan, e.g. P2B."
FACE_START = "A face card cannot be played during the Start round."
FACE_NOT_OWN = "A face card can only be played on a player's own caravan."
SLOT_OUT_OF_RANGE = "The chosen card position is out of range."
FACE_NEEDS_SLOT = "Face cards are played on a card: give its slot, e.g. P4A2."
QUEEN_NOT_LAST = "A QUEEN can only be played on the latest numeral card in a caravan."
FACE_SUIT = "A JACK or KING must match the suit of the numeral card it is played on."
FACE_CAP = "The caravan is at its maximum face card capacity."
DISCARD_START = "A player cannot discard a card during the Start round."
CLEAR_START = "A player cannot clear a caravan during the Start round."
CLEAR_NOT_OWN = "A player cannot clear their opponent's caravans."
CLEAR_DISABLED = "Caravans cannot be cleared under the current rules."
CLEAR_EMPTY = "Cannot clear empty caravan."
RESTART_NUMERAL = "A new caravan must be started with a numeral card."
GAME_OVER = "The game has already been won."

MESSAGES = {
    name: value for name, value in globals().items()
    if name.isupper() and isinstance(value, str) and value.endswith(".")
}
"""Every refusal message by constant name (the compiled core looks its messages up here)."""


SUIT_NAMES = ("Spade", "Heart", "Diamond", "Club")
"""A suit as a refusal names it, by suit number (S H D C)."""


def direction_refusal(caravan: int, last_rank: int, suit: int, direction: int) -> str:
    """:data:`NUMERAL_DIRECTION` for ``caravan``, whose last numeral has ``last_rank`` and
    which runs in ``direction`` (ASC or DESC) in ``suit``: what it would take instead."""
    rising = direction == ASC
    return NUMERAL_DIRECTION.format(
        caravan=CARAVAN_NAMES[caravan], direction="ascending" if rising else "descending",
        rank=RANK_TEXT[last_rank], wanted="higher" if rising else "lower",
        suit=SUIT_NAMES[suit] if 0 <= suit < len(SUIT_NAMES) else "card of its suit")


class Table:
    """The public table plus one seat's hand and turn facts: all that legality depends on.

    ``crowding`` holds, per caravan, the most faces on any one of its slots.
    """

    __slots__ = ("caravans", "crowding", "discard_mulligan", "hand", "jack_as_joker", "mover",
                 "opening", "rules", "summaries")

    def __init__(
        self,
        caravans: Sequence[Caravan],
        summaries: Sequence[Summary],
        rules: tuple[Rules, Rules],
        mover: int,
        hand: Sequence[int],
        opening: bool,
        jack_as_joker: bool,
        discard_mulligan: bool,
        crowding: Sequence[int],
    ) -> None:
        self.caravans = caravans
        self.crowding = crowding
        self.summaries = summaries
        self.rules = rules
        self.mover = mover
        self.hand = hand
        self.opening = opening
        self.jack_as_joker = jack_as_joker
        self.discard_mulligan = discard_mulligan


# ------------------------------------------------------------------- moves as codes

FaceBlock = tuple[int, int, int | list[int]]
"""``(count, base_code, slots)``: face plays of one hand card onto one caravan. ``slots``
is the first slot of a run of ``count`` consecutive slots, or the list of slots."""

LegalParts = tuple[list[int], list[FaceBlock], list[int]]

# Packed-code pieces, computed once from the notation: a play's code is the OR of its hand
# and caravan pieces; the discards of hand cards 1, 2, ... step by one hand position.
_HAND_CODES = tuple(pack(PLAY, 0, position) for position in range(64))
_CARAVAN_CODES = tuple(pack(PLAY, caravan) for caravan in range(6))
_CLEAR_CODES = tuple(pack(CLEAR, caravan) for caravan in range(6))
_FIRST_DISCARD = pack(DISCARD, 0, 1)
_HAND_STEP = pack(PLAY, 0, 1)


def _hand_codes(size: int) -> tuple[int, ...]:
    """The hand piece of a play's code, for hand positions 0..size (and maybe more)."""
    if size < len(_HAND_CODES):
        return _HAND_CODES
    return tuple(pack(PLAY, 0, position) for position in range(size + 1))


# ------------------------------------------------------------------------ the rules
#
# Each function below states a family of rules once. Asked about one move it gives the
# refusal messages (a list per card, or per caravan); handed a list to fill (``moves`` or
# ``blocks``) it appends instead every move that no rule refuses, in canonical order. Both
# answers come from the same conditions, evaluated at the same place.

def numeral_refusals(table: Table, cards: Sequence[int], moves: list[int] | None = None,
                     only: int | None = None) -> list[list[str | None] | None]:
    """For each of ``cards``, per caravan A..F, the message refusing the card there, or None
    where it may go; None instead of that list for a card that is not a numeral. With
    ``only``, just that caravan's entry is worked out (the others read as not allowed).

    With ``moves``, ``cards`` is the hand: the plays no rule refuses are appended to it
    (hand position, then caravan) and nothing is returned."""
    mover = table.mover
    cap = table.rules[mover].max_numerals
    opening = table.opening
    summaries = table.summaries
    own: Sequence[int] = range(3 * mover, 3 * mover + 3)
    if only is not None:
        own = (only,) if only in own else ()
    rows: list[list[str | None] | None] = []
    listing = moves is not None
    hand_codes = _hand_codes(len(cards)) if listing else _HAND_CODES
    caravan_codes = _CARAVAN_CODES
    row: list[str | None] = _UNUSED
    refusal: str | None
    for position, card in enumerate(cards, 1):
        rank = card & RANK_MASK  # rank_of(card), inlined on the hot path
        if rank > NUMERAL_MAX:
            if not listing:
                rows.append(None)
            continue
        suit = (card >> SUIT_SHIFT) & SUIT_MASK  # suit_of(card), inlined
        if not listing:
            row = [NUMERAL_NOT_OWN] * 6
        for caravan in own:
            _value, size, last_rank, caravan_suit, direction = summaries[caravan]
            if not size:
                refusal = None
            elif opening:
                refusal = NUMERAL_START_NOT_EMPTY
            elif cap is not None and size >= cap:
                refusal = NUMERAL_CAP
            elif rank == last_rank:
                refusal = NUMERAL_SAME_RANK
            elif size >= 2 and suit != caravan_suit and (
                (direction == ASC and rank < last_rank) or (direction == DESC and rank > last_rank)
            ):
                # Worded only when asked about (listing moves needs no words).
                refusal = NUMERAL_DIRECTION if listing else direction_refusal(
                    caravan, last_rank, caravan_suit, direction)
            else:
                refusal = None
            if not listing:
                row[caravan] = refusal
            elif refusal is None:
                moves.append(hand_codes[position] | caravan_codes[caravan])  # type: ignore[union-attr]
        if not listing:
            rows.append(row)
    return rows


ALL_CARAVANS = range(6)
"""Caravans A..F by index (``CARAVAN_NAMES``)."""

_UNUSED: list[str | None] = []
"""Stands for a list of refusals that is not kept (when moves are listed instead)."""

SlotRefusals = str | list[str | None] | None
"""A face card's refusal on one caravan: a message for every slot alike, a message (or None)
per slot 1..size, or None when every slot takes it."""


def face_refusals(table: Table, cards: Sequence[int], blocks: list[FaceBlock] | None = None,
                  only: int | None = None) -> list[list[SlotRefusals] | None]:
    """For each of ``cards``, per caravan A..F, how the card is refused on its slots when it
    is a face card (see :data:`SlotRefusals`); None instead of that list for a numeral. A slot
    outside 1..size is refused by :func:`slot_range_error`, after these caravan-wide
    refusals and before the per-slot ones.

    With ``blocks``, ``cards`` is the hand: the face plays no rule refuses are appended to it
    as blocks (hand position, caravan, then slot; see :data:`FaceBlock`) and nothing is
    returned. With ``only``, just that caravan's entry is worked out (the others read as
    refused)."""
    rows: list[list[SlotRefusals] | None] = []
    for card in cards:
        if card & RANK_MASK > NUMERAL_MAX:
            break
    else:  # no face card: nothing to refuse, nothing to list
        if blocks is None:
            rows = [None] * len(cards)
        return rows
    if table.opening:
        if blocks is None:
            for card in cards:
                rows.append(None if card & RANK_MASK <= NUMERAL_MAX else [FACE_START] * 6)
        return rows
    mover = table.mover
    rules = table.rules[mover]
    opponents_refuse = not rules.faces_on_opponent
    face_cap = rules.max_faces
    jacks_capped = rules.jack_respects_face_cap
    queens_last = rules.queen_placement == "last"
    must_match = rules.face_must_match_suit
    summaries = table.summaries
    slots_of = table.caravans
    crowding = table.crowding
    hand_codes = _hand_codes(len(cards))
    caravan_codes = _CARAVAN_CODES
    caravans: Sequence[int] = ALL_CARAVANS if only is None else (only,)
    refusal: SlotRefusals
    for position, card in enumerate(cards, 1):
        rank = card & RANK_MASK  # rank_of(card), inlined on the hot path
        if rank <= NUMERAL_MAX:
            if blocks is None:
                rows.append(None)
            continue
        if rank == JACK and table.jack_as_joker:
            rank = JOKER
        capped = face_cap is not None and (rank != JACK or jacks_capped)
        last_only = queens_last and rank == QUEEN
        matching = must_match and rank in (JACK, KING)
        suit = (card >> SUIT_SHIFT) & SUIT_MASK  # suit_of(card), inlined
        row: list[SlotRefusals] = [FACE_NOT_OWN] * 6 if blocks is None else []
        base = hand_codes[position]
        for caravan in caravans:
            size = summaries[caravan][1]
            if opponents_refuse and caravan // 3 != mover:
                refusal = FACE_NOT_OWN
            elif not size:
                refusal = SLOT_OUT_OF_RANGE
            elif last_only:
                # Every slot but the last is refused; the last one unless it is full.
                last_full = capped and len(slots_of[caravan][-1][1]) >= face_cap  # type: ignore[operator]
                if blocks is not None:
                    if not last_full:
                        blocks.append((1, base | caravan_codes[caravan], size))
                    continue
                if size == 1 and not last_full:
                    refusal = None
                else:
                    refusal = [QUEEN_NOT_LAST] * (size - 1)
                    refusal.append(FACE_CAP if last_full else None)
            elif matching or (capped and crowding[caravan] >= face_cap):  # type: ignore[operator]
                queen_changes_suit = table.rules[caravan // 3].queen_changes_suit
                per_slot: list[str | None] = []
                slots: list[int] = []
                for slot, target in enumerate(slots_of[caravan], 1):
                    if matching and suit != effective_suit(target, queen_changes_suit):
                        message: str | None = FACE_SUIT
                    elif capped and len(target[1]) >= face_cap:  # type: ignore[operator]
                        message = FACE_CAP
                    else:
                        message = None
                    if blocks is None:
                        per_slot.append(message)
                    elif message is None:
                        slots.append(slot)
                if blocks is not None:
                    if slots:
                        blocks.append((len(slots), base | caravan_codes[caravan], slots))
                    continue
                refusal = per_slot
            else:
                refusal = None
            if blocks is None:
                row[caravan] = refusal
            elif refusal is None:
                blocks.append((size, base | caravan_codes[caravan], 1))
        if blocks is None:
            rows.append(row)
    return rows


def slot_range_error(size: int, slot: int) -> str | None:
    """A face card names a slot of its caravan, 1..size."""
    if 1 <= slot <= size:
        return None
    return FACE_NEEDS_SLOT if slot == 0 and size else SLOT_OUT_OF_RANGE


def discard_refusal(table: Table) -> str | None:
    """Discarding (any hand card)."""
    if table.opening and not table.discard_mulligan:
        return DISCARD_START
    return None


def clear_refusals(table: Table, moves: list[int] | None = None) -> list[str | None]:
    """Per caravan A..F, the message refusing to clear it, or None. Under ``destroy_restart``
    the card restarting the caravan is checked by :func:`restart_refusal`.

    With ``moves``, the clears no rule refuses are appended to it (caravan, then restart
    card) and nothing is returned."""
    if moves is None:
        refusals: list[str | None] = [CLEAR_START if table.opening else CLEAR_NOT_OWN] * 6
    else:
        refusals = _UNUSED
    if table.opening:
        return refusals
    mover = table.mover
    policy = table.rules[mover].clear_policy
    disabled = policy == "disabled"
    if disabled and moves is not None:
        return refusals
    restart = policy == "destroy_restart"
    summaries = table.summaries
    for caravan in range(3 * mover, 3 * mover + 3):
        if disabled:
            refusal: str | None = CLEAR_DISABLED
        elif not summaries[caravan][1]:
            refusal = CLEAR_EMPTY
        else:
            refusal = None
        if moves is None:
            refusals[caravan] = refusal
        elif refusal is None:
            if restart:
                for position, card in enumerate(table.hand, 1):
                    if restart_refusal(card) is None:
                        moves.append(pack(CLEAR, caravan, position))
            else:
                moves.append(_CLEAR_CODES[caravan])
    return refusals


def restart_refusal(card: int) -> str | None:
    """A destroyed caravan restarts with a numeral card."""
    return RESTART_NUMERAL if rank_of(card) > 10 else None


def restarts(table: Table) -> bool:
    """Whether the mover's clears restart the caravan with a hand card (``destroy_restart``)."""
    return table.rules[table.mover].clear_policy == "destroy_restart"


# ------------------------------------------------------------------- one move

def move_error(table: Table, code: int) -> str | None:
    """The message that refuses packed move ``code`` for the mover, or None if it is legal."""
    kind, caravan, hand_position, slot = unpack(code)
    if kind > CLEAR or caravan > 5:
        # Only reachable with hand-built codes; the notation cannot express them.
        return INVALID_MOVE
    hand = table.hand
    in_hand = 1 <= hand_position <= len(hand)
    if kind == PLAY:
        if not in_hand:
            return HAND_OUT_OF_RANGE
        card = hand[hand_position - 1]
        if rank_of(card) <= 10:
            if slot:
                return NUMERAL_SLOT
            return numeral_refusals(table, (card,), None, caravan)[0][caravan]  # type: ignore[index]
        refusal = face_refusals(table, (card,), None, caravan)[0][caravan]  # type: ignore[index]
        if isinstance(refusal, str):
            return refusal
        range_error = slot_range_error(table.summaries[caravan][1], slot)
        if range_error is not None or refusal is None:
            return range_error
        return refusal[slot - 1]
    if kind == DISCARD:
        return discard_refusal(table) or (None if in_hand else HAND_OUT_OF_RANGE)
    refusal = clear_refusals(table)[caravan]
    if refusal is not None or not restarts(table):
        return refusal
    if not in_hand:
        return HAND_OUT_OF_RANGE
    return restart_refusal(hand[hand_position - 1])


def check_move(table: Table, code: int) -> None:
    error = move_error(table, code)
    if error is not None:
        raise IllegalMove(error)


def face_name(card: int) -> str:
    return FACE_NAMES[rank_of(card)]


# ------------------------------------------------------------ every legal move

def legal_parts(table: Table) -> LegalParts:
    """The moves no rule refuses, in canonical order, in three parts: numeral plays (hand,
    caravan); face plays as blocks (hand, caravan, slot); discards then clears (caravan,
    restart card).

    Face plays are kept as blocks so that a move can be counted and picked by index
    without listing every slot (see :func:`nth_legal`). Where the compiled core is built
    (and outside the Start round), the core lists the moves, all in the first part: its walk
    is checked against these rules move by move by the tests.
    """
    if not table.opening:
        core = _CORE[0] if _CORE else _compiled_core()
        if core is not None:
            try:
                codes: list[int] = core.State.legal_of_table(
                    tuple(table.caravans), tuple(table.summaries), tuple(table.crowding),
                    table.rules, table.mover, table.hand, table.jack_as_joker)
            except ValueError:  # a card the core does not take (a hidden one): ask the rules
                return python_legal_parts(table)
            return codes, [], []
    return python_legal_parts(table)


_CORE: list[Any] = []
"""The compiled core once looked up (None in the list when it is not there or not allowed)."""


def _compiled_core() -> Any:
    # Looked up on first use: the core itself imports this module when it loads.
    if not _CORE:
        _CORE.append(load_core("caravan"))
    return _CORE[0]


def compiled_core() -> Any:
    """The compiled core, or None where it is not built or not allowed."""
    return _CORE[0] if _CORE else _compiled_core()


def python_legal_parts(table: Table) -> LegalParts:
    """:func:`legal_parts` worked out by the rule families of this module."""
    hand = table.hand
    numerals: list[int] = []
    blocks: list[FaceBlock] = []
    tail: list[int] = []
    numeral_refusals(table, hand, numerals)
    face_refusals(table, hand, blocks)
    if discard_refusal(table) is None:
        tail.extend(range(_FIRST_DISCARD, _FIRST_DISCARD + len(hand) * _HAND_STEP, _HAND_STEP))
    clear_refusals(table, tail)
    return numerals, blocks, tail


def count_legal(parts: LegalParts) -> int:
    numerals, blocks, tail = parts
    total = len(numerals) + len(tail)
    for block in blocks:
        total += block[0]
    return total


def nth_legal(parts: LegalParts, index: int) -> int:
    """The move at ``index`` of the canonical legal list, without building the list."""
    numerals, blocks, tail = parts
    if index < len(numerals):
        return numerals[index]
    index -= len(numerals)
    for count, code, slots in blocks:
        if index < count:
            return with_slot(code, slots + index if isinstance(slots, int) else slots[index])
        index -= count
    return tail[index]


def legal_codes(table: Table) -> list[int]:
    """Every legal move in canonical order: numeral plays (hand, caravan), face plays (hand,
    caravan, slot), discards (hand), clears (caravan, then restart card)."""
    numerals, blocks, tail = python_legal_parts(table)
    moves = numerals
    for count, code, slots in blocks:
        run = range(slots, slots + count) if isinstance(slots, int) else slots
        moves.extend(with_slot(code, slot) for slot in run)
    moves.extend(tail)
    return moves


def has_legal_move(table: Table) -> bool:
    """Whether the mover has any legal move: counted by the compiled core where it is built
    (the Start round included: asked after every opening move, where the rules would try
    every card of the hand on every caravan), else asking the cheapest families first."""
    core = _CORE[0] if _CORE else _compiled_core()
    if core is not None:
        try:
            state = core.State.of_table(
                tuple(table.caravans), tuple(table.summaries), tuple(table.crowding),
                table.rules, table.mover, table.hand, table.jack_as_joker,
                0 if table.opening else 3)
        except ValueError:  # a card the core does not take (a hidden one): ask the rules
            pass
        else:
            return bool(state.count_legal())
    return python_has_legal_move(table)


def python_has_legal_move(table: Table) -> bool:
    """:func:`has_legal_move` worked out by the rule families of this module."""
    if table.hand and discard_refusal(table) is None:
        return True
    moves: list[int] = []
    numeral_refusals(table, table.hand, moves)
    if moves:
        return True
    blocks: list[FaceBlock] = []
    face_refusals(table, table.hand, blocks)
    if blocks:
        return True
    clear_refusals(table, moves)
    return bool(moves)
