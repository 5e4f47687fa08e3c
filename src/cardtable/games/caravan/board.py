"""Caravans and what is derived from them: value, suit, direction.

A caravan is a tuple of slots; a slot is ``(numeral, faces)`` with ``faces`` the
tuple of attached face cards in attachment order. Only the slots and ``held`` are
game state; the summary below is derived and recomputed whenever a caravan changes.
"""

from __future__ import annotations

from cardtable.games.caravan.cards import KING, QUEEN, RANK_MASK
from cardtable.games.caravan.rules import Rules

Slot = tuple[int, tuple[int, ...]]
Caravan = tuple[Slot, ...]

ANY, ASC, DESC = 0, 1, 2
DIRECTION_TEXT = ("ANY", "ASC", "DES")
NO_SUIT = -1
EMPTY: Caravan = ()

# A summary is (value, size, last_rank, suit, direction); suit is NO_SUIT when empty.
Summary = tuple[int, int, int, int, int]
EMPTY_SUMMARY: Summary = (0, 0, 0, NO_SUIT, ANY)

CARAVAN_NAMES = "ABCDEF"


def owner_of_caravan(index: int) -> int:
    return 0 if index < 3 else 1


def partner(index: int) -> int:
    """The opposing caravan in the same lane."""
    return index + 3 if index < 3 else index - 3


def slot_value(slot: Slot, king_doubles: bool) -> int:
    value = slot[0] & RANK_MASK
    kings = 0
    for face in slot[1]:
        if face & RANK_MASK == KING:
            kings += 1
    if not kings:
        return value
    return value << kings if king_doubles else value * (1 + kings)


def effective_suit(slot: Slot, queen_changes_suit: bool) -> int:
    """The suit of the latest Queen on the slot (when Queens change suit), else the printed suit."""
    if queen_changes_suit:
        for face in reversed(slot[1]):
            if face & RANK_MASK == QUEEN:
                return (face >> 4) & 7
    return (slot[0] >> 4) & 7


def queens_on(slot: Slot) -> int:
    count = 0
    for face in slot[1]:
        if face & RANK_MASK == QUEEN:
            count += 1
    return count


def summarize(caravan: Caravan, held: int | None, rules: Rules) -> Summary:
    """Value, size, last numeral rank, suit and direction of a caravan under its owner's rules."""
    size = len(caravan)
    if not size:
        return EMPTY_SUMMARY
    king_doubles = rules.king_mode == "double"
    value = 0
    for slot in caravan:
        if slot[1]:
            value += slot_value(slot, king_doubles)
        else:
            value += slot[0] & RANK_MASK
    last = caravan[-1]
    last_rank = last[0] & RANK_MASK
    suit = effective_suit(last, rules.queen_changes_suit) if last[1] else (last[0] >> 4) & 7
    if size < 2:
        return (value, size, last_rank, suit, ANY)
    previous_rank = caravan[-2][0] & RANK_MASK
    if previous_rank != last_rank:
        direction = ASC if last_rank > previous_rank else DESC
    else:
        mode = rules.equal_rank_direction
        if mode == "any":
            return (value, size, last_rank, suit, ANY)
        if mode == "keep_previous":
            return (value, size, last_rank, suit, held if held is not None else ANY)
        direction = DESC
    if last[1] and rules.queen_changes_direction and queens_on(last) & 1:
        direction = ASC if direction == DESC else DESC
    return (value, size, last_rank, suit, direction)


def summary_with_numeral(summary: Summary, card: int, rules: Rules) -> Summary:
    """``summarize(caravan + ((card, ()),), None, rules)`` from ``summary``, the summary of
    ``caravan``: a numeral just played on a caravan whose held direction is cleared. The new
    slot has no faces, so only its rank and suit are added (the move's hot path)."""
    value, size, previous_rank, _, _ = summary
    rank = card & RANK_MASK
    suit = (card >> 4) & 7
    if not size:
        return (rank, 1, rank, suit, ANY)
    if previous_rank != rank:
        return (value + rank, size + 1, rank, suit, ASC if rank > previous_rank else DESC)
    mode = rules.equal_rank_direction
    direction = ANY if mode == "any" or mode == "keep_previous" else DESC
    return (value + rank, size + 1, rank, suit, direction)


def most_faces(caravan: Caravan) -> int:
    """The most faces attached to any one slot (face caps are checked against this)."""
    most = 0
    for slot in caravan:
        if len(slot[1]) > most:
            most = len(slot[1])
    return most


def ends_in_equal_ranks(caravan: Caravan) -> bool:
    return len(caravan) >= 2 and (caravan[-1][0] ^ caravan[-2][0]) & RANK_MASK == 0


def in_range(value: int, rules: Rules) -> bool:
    return rules.sold_min <= value <= rules.sold_max


def lane_taker(abc_value: int, def_value: int, abc: Rules, def_: Rules) -> int | None:
    """0 or 1 for the seat that takes the lane, None while it is undecided."""
    abc_takes = abc.sold_min <= abc_value <= abc.sold_max and (
        def_value < abc_value or def_value > abc.sold_max
    )
    def_takes = def_.sold_min <= def_value <= def_.sold_max and (
        abc_value < def_value or abc_value > def_.sold_max
    )
    if abc_takes and def_takes:
        return 0 if abc_value > def_value else 1
    if abc_takes:
        return 0
    if def_takes:
        return 1
    return None
