"""Which moves the rules allow (specification §4), from what the mover can see.

The functions take the public table and the mover's own hand, never decks, so
they serve the game state and a seat's observation alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.games.caravan.board import ASC, DESC, Caravan, Summary, effective_suit
from cardtable.games.caravan.cards import FACE_NAMES, JACK, JOKER, KING, QUEEN, RANK_MASK
from cardtable.games.caravan.errors import IllegalMove
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, pack, unpack
from cardtable.games.caravan.rules import Rules

HAND_OUT_OF_RANGE = "The chosen hand position is out of range."
SLOT_OUT_OF_RANGE = "The chosen card position is out of range."
FACE_NEEDS_SLOT = "Face cards are played on a card: give its slot, e.g. P4A2."
_FIRST_DISCARD = pack(DISCARD, 0, 1)
_NEXT_HAND = pack(PLAY, 0, 1)
"""Discards of hand cards 1, 2, ... are _FIRST_DISCARD, _FIRST_DISCARD + _NEXT_HAND, ..."""


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


def _numeral_error(table: Table, card: int, caravan: int) -> str | None:
    if caravan // 3 != table.mover:
        return "A numeral card can only be played on a player's own caravan."
    _value, size, last_rank, suit, direction = table.summaries[caravan]
    if table.opening:
        if size:
            return "A numeral card must be played on an empty caravan during the Start round."
        return None
    cap = table.rules[table.mover].max_numerals
    if cap is not None and size >= cap:
        return "The caravan is at its maximum numeral card capacity."
    if size:
        rank = card & RANK_MASK
        if rank == last_rank:
            return ("A numeral card must not have same rank as the most recent card in the "
                    "caravan.")
        if size >= 2 and (card >> 4) & 7 != suit:
            if direction == ASC:
                follows = rank > last_rank
            elif direction == DESC:
                follows = rank < last_rank
            else:
                follows = True
            if not follows:
                return ("The numeral card must follow the caravan's direction or match the "
                        "caravan's suit.")
    return None


def _face_error(table: Table, card: int, caravan: int, slot: int) -> str | None:
    if table.opening:
        return "A face card cannot be played during the Start round."
    rules = table.rules[table.mover]
    if caravan // 3 != table.mover and not rules.faces_on_opponent:
        return "A face card can only be played on a player's own caravan."
    size = table.summaries[caravan][1]
    if not 1 <= slot <= size:
        return FACE_NEEDS_SLOT if slot == 0 and size else SLOT_OUT_OF_RANGE
    rank = card & RANK_MASK
    if rank == JACK and table.jack_as_joker:
        rank = JOKER
    if rank == QUEEN and rules.queen_placement == "last" and slot != size:
        return "A QUEEN can only be played on the latest numeral card in a caravan."
    target = table.caravans[caravan][slot - 1]
    if (rank in (JACK, KING)) and rules.face_must_match_suit:
        owner_rules = table.rules[caravan // 3]
        if (card >> 4) & 7 != effective_suit(target, owner_rules.queen_changes_suit):
            return "A JACK or KING must match the suit of the numeral card it is played on."
    cap = rules.max_faces
    if cap is not None and len(target[1]) >= cap and (rank != JACK or rules.jack_respects_face_cap):
        return "The caravan is at its maximum face card capacity."
    return None


def move_error(table: Table, code: int) -> str | None:
    """The message that refuses packed move ``code`` for the mover, or None if it is legal."""
    kind, caravan, hand_position, slot = unpack(code)
    if kind > CLEAR or caravan > 5:
        # Only reachable with hand-built codes; the notation cannot express them.
        return "Invalid move."
    hand = table.hand
    if kind == PLAY:
        if not 1 <= hand_position <= len(hand):
            return HAND_OUT_OF_RANGE
        card = hand[hand_position - 1]
        if card & RANK_MASK <= 10:
            return _numeral_error(table, card, caravan)
        return _face_error(table, card, caravan, slot)
    if kind == DISCARD:
        if table.opening and not table.discard_mulligan:
            return "A player cannot discard a card during the Start round."
        if not 1 <= hand_position <= len(hand):
            return HAND_OUT_OF_RANGE
        return None
    if table.opening:
        return "A player cannot clear a caravan during the Start round."
    if caravan // 3 != table.mover:
        return "A player cannot clear their opponent's caravans."
    rules = table.rules[table.mover]
    if rules.clear_policy == "disabled":
        return "Caravans cannot be cleared under the current rules."
    if not table.summaries[caravan][1]:
        return "Cannot clear empty caravan."
    if rules.clear_policy == "destroy_restart":
        if not 1 <= hand_position <= len(hand):
            return HAND_OUT_OF_RANGE
        if hand[hand_position - 1] & RANK_MASK > 10:
            return "A new caravan must be started with a numeral card."
    return None


def check_move(table: Table, code: int) -> None:
    error = move_error(table, code)
    if error is not None:
        raise IllegalMove(error)


def face_name(card: int) -> str:
    return FACE_NAMES[card & RANK_MASK]


FaceBlock = tuple[int, int, int | list[int]]
"""``(count, base_code, slots)``: face plays of one hand card onto one caravan. ``slots``
is the first slot of a run of ``count`` consecutive slots, or the list of slots."""


def legal_parts(table: Table) -> tuple[list[int], list[FaceBlock], list[int]]:
    """The legal moves in canonical order, in three parts: numeral plays (hand, caravan);
    face plays as blocks (hand, caravan, slot); discards then clears (caravan, restart card).

    Face plays are kept as blocks so that a move can be counted and picked by index
    without listing every slot (see :func:`nth_legal`).
    """
    hand = table.hand
    mover = table.mover
    rules = table.rules[mover]
    summaries = table.summaries
    first_own = 3 * mover
    own = range(first_own, first_own + 3)
    opening = table.opening
    numerals: list[int] = []
    blocks: list[FaceBlock] = []
    tail: list[int] = []
    if opening:
        for position, card in enumerate(hand, 1):
            if card & RANK_MASK <= 10:
                base = position << 5
                for caravan in own:
                    if not summaries[caravan][1]:
                        numerals.append(base | caravan << 2)
        if table.discard_mulligan:
            tail.extend(range(_FIRST_DISCARD, _FIRST_DISCARD + len(hand) * _NEXT_HAND, _NEXT_HAND))
        return numerals, blocks, tail
    cap = rules.max_numerals
    targets = range(6) if rules.faces_on_opponent else own
    face_cap = rules.max_faces
    must_match = rules.face_must_match_suit
    last_only = rules.queen_placement == "last"
    caravans = table.caravans
    crowding = table.crowding
    for position, card in enumerate(hand, 1):
        rank = card & RANK_MASK
        base = position << 5
        if rank <= 10:
            suit = (card >> 4) & 7
            for caravan in own:
                _value, size, last_rank, caravan_suit, direction = summaries[caravan]
                if size:
                    if rank == last_rank or (cap is not None and size >= cap):
                        continue
                    if size >= 2 and suit != caravan_suit and (
                        (direction == ASC and rank <= last_rank)
                        or (direction == DESC and rank >= last_rank)
                    ):
                        continue
                numerals.append(base | caravan << 2)
            continue
        if rank == JACK and table.jack_as_joker:
            rank = JOKER
        capped = face_cap is not None and (rank != JACK or rules.jack_respects_face_cap)
        matching = must_match and (rank in (JACK, KING))
        for caravan in targets:
            size = summaries[caravan][1]
            if not size:
                continue
            code = base | caravan << 2
            if rank == QUEEN and last_only:
                if capped and len(caravans[caravan][-1][1]) >= face_cap:  # type: ignore[operator]
                    continue
                blocks.append((1, code, size))
            elif matching or (capped and crowding[caravan] >= face_cap):  # type: ignore[operator]
                suit_rules = table.rules[caravan // 3].queen_changes_suit
                slots = [
                    number for number, target in enumerate(caravans[caravan], 1)
                    if not (capped and len(target[1]) >= face_cap)  # type: ignore[operator]
                    and not (matching and (card >> 4) & 7 != effective_suit(target, suit_rules))
                ]
                if slots:
                    blocks.append((len(slots), code, slots))
            else:
                blocks.append((size, code, 1))
    tail.extend(range(_FIRST_DISCARD, _FIRST_DISCARD + len(hand) * _NEXT_HAND, _NEXT_HAND))
    if rules.clear_policy != "disabled":
        restart = rules.clear_policy == "destroy_restart"
        for caravan in own:
            if not summaries[caravan][1]:
                continue
            if restart:
                tail.extend(
                    pack(CLEAR, caravan, position)
                    for position, card in enumerate(hand, 1)
                    if card & RANK_MASK <= 10
                )
            else:
                tail.append(caravan << 2 | CLEAR)
    return numerals, blocks, tail


def count_legal(parts: tuple[list[int], list[FaceBlock], list[int]]) -> int:
    numerals, blocks, tail = parts
    total = len(numerals) + len(tail)
    for block in blocks:
        total += block[0]
    return total


def nth_legal(parts: tuple[list[int], list[FaceBlock], list[int]], index: int) -> int:
    """The move at ``index`` of the canonical legal list, without building the list."""
    numerals, blocks, tail = parts
    if index < len(numerals):
        return numerals[index]
    index -= len(numerals)
    for count, code, slots in blocks:
        if index < count:
            slot = slots + index if isinstance(slots, int) else slots[index]
            return code | slot << 21
        index -= count
    return tail[index]


def legal_codes(table: Table) -> list[int]:
    """Every legal move in canonical order: numeral plays (hand, caravan), face plays (hand,
    caravan, slot), discards (hand), clears (caravan, then restart card)."""
    numerals, blocks, tail = legal_parts(table)
    moves = numerals
    for count, code, slots in blocks:
        if isinstance(slots, int):
            moves.extend(code | slot << 21 for slot in range(slots, slots + count))
        else:
            moves.extend(code | slot << 21 for slot in slots)
    moves.extend(tail)
    return moves


def has_legal_move(table: Table) -> bool:
    """Whether the mover has any legal move; cheaper than listing them."""
    if not table.opening:
        return bool(table.hand)
    if table.discard_mulligan and table.hand:
        return True
    mover = table.mover
    for card in table.hand:
        if card & RANK_MASK <= 10:
            for caravan in range(3 * mover, 3 * mover + 3):
                if _numeral_error(table, card, caravan) is None:
                    return True
    return False
