"""The three players' strategies as pure functions of the table: ``choose(table, me) -> action``.

Used by the player programs (on their own model of the table) and by the simulator (on the
hub's table, which every player's model equals). Tie-breakers follow the specification
exactly; each one is named in a comment where it is applied.

On the player's start-up path: imports only :mod:`rules`.
"""

from cardtable.games.austerity.rules import (
    BROWN,
    PURCHASE,
    PURPLE,
    RED,
    TAKE,
    WILD_ACTION,
    YELLOW,
    Action,
    Table,
)

SHENZI_ORDER = (PURPLE, BROWN, YELLOW, RED)
BANZAI_ORDER = (YELLOW, BROWN, PURPLE, RED)
ED_ORDER = (YELLOW, RED, BROWN, PURPLE)


def shenzi(table: Table, me: int) -> Action:
    """Buy the affordable card with most points, then cheapest (discounted), then newest.

    Otherwise take in order P, B, Y, R, or a wild when three tokens cannot be taken.
    """
    wild = table.wilds[me]
    best = -1
    best_key = (0, 0)
    affordable = table.affordable
    for index, card in enumerate(table.market):
        # The table's index, when kept, tells the same as ``wilds_needed(me, card) > wild``.
        if (not (affordable[index] >> me & 1) if affordable is not None
                else table.wilds_needed(me, card) > wild):
            continue
        # Scanning oldest to newest with ">=" lets a full tie go to the newest card.
        key = (card.value, -table.price(me, card))
        if best < 0 or key >= best_key:
            best = index
            best_key = key
    if best >= 0:
        return (PURCHASE, best, table.payment(me, table.market[best]))
    if table.can_take():
        return (TAKE, 0, table.take_in_order(SHENZI_ORDER))
    return WILD_ACTION


def banzai(table: Table, me: int) -> Action:
    """With fewer than three tokens (wilds included) take in order Y, B, P, R.

    Otherwise buy the dearest (discounted) card worth points, then the one needing most
    wilds, then the oldest; or take a wild. 0-point cards are never bought.
    """
    tok = table.tokens[me]
    wild = table.wilds[me]
    if tok[0] + tok[1] + tok[2] + tok[3] + wild < 3 and table.can_take():
        return (TAKE, 0, table.take_in_order(BANZAI_ORDER))
    best = -1
    best_key = (0, 0)
    shortfalls = table.shortfalls if table.affordable is not None else None
    for index, card in enumerate(table.market):
        if card.value <= 0:
            continue
        short = (shortfalls[index][me] if shortfalls is not None
                 else table.wilds_needed(me, card))
        if short > wild:
            continue
        # Strict ">" while scanning oldest to newest keeps the oldest on a full tie.
        key = (table.price(me, card), short)
        if best < 0 or key > best_key:
            best = index
            best_key = key
    if best >= 0:
        return (PURCHASE, best, table.payment(me, table.market[best]))
    return WILD_ACTION


def ed_target(table: Table, me: int) -> int:
    """The card ed denies its opponents: the index of the market card, or -1.

    Among cards some opponent can afford: most points, then affordable by the opponent who
    plays soonest after ed, then the oldest. ed's own means play no part here.
    """
    count = table.count
    best = -1
    best_key = (0, 0)
    affordable = table.affordable
    if affordable is not None:
        # The same scan on the table's index: rotate each card's mask of players able to
        # afford it so that bit 0 is the opponent after ed and ed's own bit falls off the top;
        # the lowest bit left is the first opponent in playing order who can afford it.
        shift = me + 1
        back = count - shift
        opponents_only = (1 << (count - 1)) - 1
        for index, mask in enumerate(affordable):
            rotated = ((mask >> shift) | (mask << back)) & opponents_only
            if rotated:
                key = (table.market[index].value, 1 - (rotated & -rotated).bit_length())
                if best < 0 or key > best_key:
                    best = index
                    best_key = key
        return best
    opponents = [(me + step) % count for step in range(1, count)]
    for index, card in enumerate(table.market):
        # The first opponent in playing order who can afford the card gives its best rank.
        for rank, player in enumerate(opponents):
            if table.wilds_needed(player, card) <= table.wilds[player]:
                key = (card.value, -rank)
                # Strict ">" while scanning oldest to newest keeps the oldest on a full tie.
                if best < 0 or key > best_key:
                    best = index
                    best_key = key
                break
    return best


def ed(table: Table, me: int) -> Action:
    """Buy the target card if ed can; otherwise take colours the target needs first."""
    target = ed_target(table, me)
    if target >= 0:
        card = table.market[target]
        if table.can_afford(me, card):
            return (PURCHASE, target, table.payment(me, card))
    if not table.can_take():
        return WILD_ACTION
    order: list[int] = []
    if target >= 0:
        cost = table.market[target].cost
        tok = table.tokens[me]
        disc = table.discounts[me]
        # "Not enough of a colour" counts tokens and discounts of that colour, never wilds.
        order = [c for c in ED_ORDER if cost[c] > 0 and tok[c] + disc[c] < cost[c]]
    order.extend(ED_ORDER)
    return (TAKE, 0, table.take_in_order(order))


STRATEGIES = {"shenzi": shenzi, "banzai": banzai, "ed": ed}
"""Strategy functions by program name."""
