"""Which moves the rules allow (specification §4), from what the mover can see.

Each rule is stated once, as a condition paired with the message that refuses a move
breaking it, in the ``*_refusals`` functions below. Both questions the game asks are
answered from them:

- :func:`move_error` (a move is refused with the first broken rule's message) looks up
  the refusal of the one move it is given;
- :func:`legal_parts` / :func:`legal_codes` (the legal moves in canonical order) list
  every move whose refusal is None.

The refusal functions work per hand card (across all six caravans at once) rather than
per move, so that listing the legal moves costs a handful of calls, not one per move.
The compiled core (``_core.c``) takes its refusal messages from the constants here.

The functions take the public table and the mover's own hand, never decks, so they
serve the game state and a seat's observation alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.games.caravan.board import ASC, DESC, Caravan, Summary, effective_suit
from cardtable.games.caravan.cards import (
    FACE_NAMES,
    JACK,
    JOKER,
    KING,
    NUMERAL_MAX,
    QUEEN,
    RANK_MASK,
    rank_of,
    suit_of,
)
from cardtable.games.caravan.errors import IllegalMove
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, pack, unpack, with_slot
from cardtable.games.caravan.rules import Rules

# The refusal messages (the line mode prints them; the compiled core reads them from here).
INVALID_MOVE = "Invalid move."
HAND_OUT_OF_RANGE = "The chosen hand position is out of range."
NUMERAL_NOT_OWN = "A numeral card can only be played on a player's own caravan."
NUMERAL_START_NOT_EMPTY = (
    "A numeral card must be played on an empty caravan during the Start round.")
NUMERAL_CAP = "The caravan is at its maximum numeral card capacity."
NUMERAL_SAME_RANK = (
    "A numeral card must not have same rank as the most recent card in the caravan.")
NUMERAL_DIRECTION = (
    "The numeral card must follow the caravan's direction or match the caravan's suit.")
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


# ------------------------------------------------------------------------ the rules

ALL_CARAVANS = range(6)

def numeral_refusals(table: Table, cards: Sequence[int],
                     caravans: Sequence[int] = ALL_CARAVANS) -> list[list[str | None]]:
    """For each of the numeral ``cards``, per caravan of ``caravans`` (default A..F), the
    message refusing the card there, or None where it may go."""
    mover = table.mover
    cap = table.rules[mover].max_numerals
    opening = table.opening
    summaries = table.summaries
    whole: list[str | None] = []
    """The refusals that hold for every card alike; None where it depends on the card."""
    open_caravans = []
    for at, caravan in enumerate(caravans):
        summary = summaries[caravan]
        size = summary[1]
        if caravan // 3 != mover:
            whole.append(NUMERAL_NOT_OWN)
        elif not size:
            whole.append(None)
        elif opening:
            whole.append(NUMERAL_START_NOT_EMPTY)
        elif cap is not None and size >= cap:
            whole.append(NUMERAL_CAP)
        else:
            whole.append(None)
            open_caravans.append((at, summary))
    if not open_caravans:
        return [whole[:] for _ in cards]
    rows = []
    for card in cards:
        rank = card & RANK_MASK  # rank_of(card), inlined on the hot path
        suit = suit_of(card)
        row = whole[:]
        # Each card on its own, against the caravan's latest rank, suit and direction.
        for at, (_value, size, last_rank, caravan_suit, direction) in open_caravans:
            if rank == last_rank:
                row[at] = NUMERAL_SAME_RANK
            elif size >= 2 and suit != caravan_suit and (
                (direction == ASC and rank < last_rank) or (direction == DESC and rank > last_rank)
            ):
                row[at] = NUMERAL_DIRECTION
        rows.append(row)
    return rows


SlotRefusals = str | list[str | None] | None
"""A face card's refusal on one caravan: a message for every slot alike, a message (or None)
per slot 1..size, or None when every slot takes it."""


def face_refusals(table: Table, card: int, caravans: Sequence[int] = ALL_CARAVANS
                  ) -> list[SlotRefusals]:
    """Per caravan of ``caravans`` (default A..F), how face ``card`` is refused on its slots
    (see :data:`SlotRefusals`).

    A slot outside 1..size is refused by :func:`slot_range_error`, after these caravan-wide
    refusals and before the per-slot ones."""
    if table.opening:
        return [FACE_START] * len(caravans)
    mover = table.mover
    rules = table.rules[mover]
    rank = rank_of(card)
    if rank == JACK and table.jack_as_joker:
        rank = JOKER
    opponents_refuse = not rules.faces_on_opponent
    face_cap = rules.max_faces
    capped = face_cap is not None and (rank != JACK or rules.jack_respects_face_cap)
    last_only = rank == QUEEN and rules.queen_placement == "last"
    matching = rules.face_must_match_suit and rank in (JACK, KING)
    suit = suit_of(card)
    summaries = table.summaries
    slots_of = table.caravans
    crowding = table.crowding
    refusals: list[SlotRefusals] = []
    for caravan in caravans:
        size = summaries[caravan][1]
        if opponents_refuse and caravan // 3 != mover:
            refusals.append(FACE_NOT_OWN)
        elif not size:
            refusals.append(SLOT_OUT_OF_RANGE)
        elif last_only:
            last_full = capped and len(slots_of[caravan][-1][1]) >= face_cap  # type: ignore[operator]
            if size == 1 and not last_full:
                refusals.append(None)
            else:
                per_slot: list[str | None] = [QUEEN_NOT_LAST] * (size - 1)
                per_slot.append(FACE_CAP if last_full else None)
                refusals.append(per_slot)
        elif matching or (capped and crowding[caravan] >= face_cap):  # type: ignore[operator]
            queen_changes_suit = table.rules[caravan // 3].queen_changes_suit
            refusals.append([
                FACE_SUIT if matching and suit != effective_suit(target, queen_changes_suit)
                else FACE_CAP if capped and len(target[1]) >= face_cap  # type: ignore[operator]
                else None
                for target in slots_of[caravan]
            ])
        else:
            refusals.append(None)
    return refusals


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


def clear_refusals(table: Table) -> list[str | None]:
    """Per caravan A..F, the message refusing to clear it, or None. Under ``destroy_restart``
    the card restarting the caravan is checked by :func:`restart_refusal`."""
    if table.opening:
        return [CLEAR_START] * 6
    mover = table.mover
    refusals: list[str | None] = [CLEAR_NOT_OWN] * 6
    disabled = table.rules[mover].clear_policy == "disabled"
    summaries = table.summaries
    for caravan in range(3 * mover, 3 * mover + 3):
        refusals[caravan] = (CLEAR_DISABLED if disabled
                             else None if summaries[caravan][1] else CLEAR_EMPTY)
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
            return numeral_refusals(table, (card,), (caravan,))[0][0]
        refusal = face_refusals(table, card, (caravan,))[0]
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

FaceBlock = tuple[int, int, int | list[int]]
"""``(count, base_code, slots)``: face plays of one hand card onto one caravan. ``slots``
is the first slot of a run of ``count`` consecutive slots, or the list of slots."""

LegalParts = tuple[list[int], list[FaceBlock], list[int]]

# Packed-code pieces, computed once from the notation: a play's code is the OR of its hand
# and caravan pieces; the discards of hand cards 1, 2, ... step by one hand position.
_KEPT = 64
_HAND_CODES = tuple(pack(PLAY, 0, position) for position in range(_KEPT))
_CARAVAN_CODES = tuple(pack(PLAY, caravan) for caravan in range(6))
_CLEAR_CODES = tuple(pack(CLEAR, caravan) for caravan in range(6))
_FIRST_DISCARD = pack(DISCARD, 0, 1)
_HAND_STEP = pack(PLAY, 0, 1)


def legal_parts(table: Table) -> LegalParts:
    """The moves no rule refuses, in canonical order, in three parts: numeral plays (hand,
    caravan); face plays as blocks (hand, caravan, slot); discards then clears (caravan,
    restart card).

    Face plays are kept as blocks so that a move can be counted and picked by index
    without listing every slot (see :func:`nth_legal`).
    """
    hand = table.hand
    numerals: list[int] = []
    blocks: list[FaceBlock] = []
    tail: list[int] = []
    numeral_cards: list[int] = []
    numeral_positions: list[int] = []
    face_positions: list[int] = []
    for position, card in enumerate(hand, 1):
        if card & RANK_MASK <= NUMERAL_MAX:  # is_numeral(card), inlined on the hot path
            numeral_cards.append(card)
            numeral_positions.append(position)
        else:
            face_positions.append(position)
    caravan_codes = _CARAVAN_CODES
    if numeral_cards:
        rows = numeral_refusals(table, numeral_cards)
        for position, row in zip(numeral_positions, rows, strict=True):
            base = _HAND_CODES[position] if position < _KEPT else pack(PLAY, 0, position)
            for caravan, refusal in enumerate(row):
                if refusal is None:
                    numerals.append(base | caravan_codes[caravan])
    if face_positions and not table.opening:
        # (During the Start round every face play is refused alike; no need to ask per card.)
        summaries = table.summaries
        for position in face_positions:
            base = _HAND_CODES[position] if position < _KEPT else pack(PLAY, 0, position)
            for caravan, refusals in enumerate(face_refusals(table, hand[position - 1])):
                if refusals is None:
                    blocks.append((summaries[caravan][1], base | caravan_codes[caravan], 1))
                elif not isinstance(refusals, str):
                    slots = [slot for slot, refusal in enumerate(refusals, 1) if refusal is None]
                    if slots:
                        blocks.append((len(slots), base | caravan_codes[caravan], slots))
    if discard_refusal(table) is None:
        tail.extend(range(_FIRST_DISCARD, _FIRST_DISCARD + len(hand) * _HAND_STEP, _HAND_STEP))
    restart = restarts(table)
    for caravan, refusal in enumerate(clear_refusals(table)):
        if refusal is None:
            if restart:
                tail.extend(
                    pack(CLEAR, caravan, position)
                    for position, card in enumerate(hand, 1)
                    if restart_refusal(card) is None
                )
            else:
                tail.append(_CLEAR_CODES[caravan])
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
    numerals, blocks, tail = legal_parts(table)
    moves = numerals
    for count, code, slots in blocks:
        run = range(slots, slots + count) if isinstance(slots, int) else slots
        moves.extend(with_slot(code, slot) for slot in run)
    moves.extend(tail)
    return moves


def has_legal_move(table: Table) -> bool:
    """Whether the mover has any legal move."""
    return count_legal(legal_parts(table)) > 0
