"""Which of shenzi, banzai and ed each opponent plays, read from the table between two turns.

A player sees the table at each of its turns and knows its own action. Every other player's
holdings change only on that player's own turn, so the difference between two tables tells
what each opponent did (tokens taken, a wild, or which card it bought and how it paid), and the
cards turned up meanwhile are the last ones in the market. Replaying those moves in playing
order from the earlier table gives the table each opponent acted on; a strategy stays a
candidate for an opponent while it would have chosen every action that opponent took.

An opponent whose moves no strategy explains plays something else (a person, another search):
it is marked unknown for the rest of the game. When the two tables cannot be linked (a card
turned up and bought between them, the deck running out, a table that does not follow), the
turn teaches nothing and the candidates stand.

On the player's start-up path: imports only the rules and the strategies.
"""

from cardtable.games.austerity.rules import (
    PURCHASE,
    TAKE,
    WILD_ACTION,
    Action,
    Card,
    Game,
    Table,
)
from cardtable.games.austerity.strategies import banzai, ed, shenzi

POLICIES = (shenzi, banzai, ed)
"""The strategies an opponent may be playing, in the order of the candidate bits."""

ANY = (1 << len(POLICIES)) - 1
"""Candidate bits before any evidence: every strategy."""

UNKNOWN = 0
"""Candidate bits of an opponent that none of the strategies explains."""


def game_on(table: Table, current: int, deck: list[Card], target: int) -> Game:
    """A game going on from a copy of ``table`` with ``current`` to play: cards turned up
    after a purchase come from ``deck`` (none once it is spent)."""
    game = Game.__new__(Game)
    game.table = table.copy()
    game.deck = deck
    game.next_card = 0
    game.target = target
    game.current = current
    game.finished = False
    return game


def _action_of(before: Table, after: Table, player: int, table: Table) -> Action | None:
    """What ``player`` did on ``table`` to get from its holdings in ``before`` to those in
    ``after``; None when no single action does it."""
    bought = [after.discounts[player][c] - before.discounts[player][c] for c in range(4)]
    tokens = tuple(after.tokens[player][c] - before.tokens[player][c] for c in range(4))
    wilds = after.wilds[player] - before.wilds[player]
    points = after.points[player] - before.points[player]
    if bought == [0, 0, 0, 0] and points == 0:
        if wilds == 1 and tokens == (0, 0, 0, 0):
            return WILD_ACTION
        if wilds == 0 and sorted(tokens) == [0, 1, 1, 1]:
            return (TAKE, 0, tokens)
        return None
    if sorted(bought) != [0, 0, 0, 1]:
        return None
    colour = bought.index(1)
    paid = (-tokens[0], -tokens[1], -tokens[2], -tokens[3], -wilds)
    for index, card in enumerate(table.market):
        if card.colour == colour and card.value == points and \
                table.payment(player, card) == paid and paid[4] <= table.wilds[player]:
            return (PURCHASE, index, paid)
    return None


def _same(one: Table, two: Table) -> bool:
    return (one.piles == two.piles and one.tokens == two.tokens and one.wilds == two.wilds
            and one.discounts == two.discounts and one.points == two.points
            and one.market == two.market)


class OpponentModel:
    """Each player's candidate strategies (bits over :data:`POLICIES`), narrowed turn by turn
    from what the owner of the model sees: :meth:`learn` after each of its turns."""

    def __init__(self, count: int) -> None:
        self.candidates = [ANY] * count

    def policies(self, player: int) -> tuple[int, ...]:
        """Indices into :data:`POLICIES` still possible for ``player`` (empty: unknown)."""
        bits = self.candidates[player]
        return tuple(number for number in range(len(POLICIES)) if bits >> number & 1)

    def learn(self, before: Table, me: int, mine: Action, after: Table) -> None:
        """Narrow the candidates with the moves played between the table ``before`` (on which
        ``me`` chose ``mine``) and the table ``after``, at ``me``'s next turn."""
        count = before.count
        if after.count != count:
            return
        purchases = sum(sum(after.discounts[player]) - sum(before.discounts[player])
                        for player in range(count))
        if not 0 <= purchases <= len(after.market):
            return
        turned_up = list(after.market[len(after.market) - purchases:]) if purchases else []
        replay = game_on(before, me, turned_up, 1 << 62)
        replay.play(mine)
        fits: list[tuple[int, int]] = []
        for step in range(1, count):
            player = (me + step) % count
            action = _action_of(before, after, player, replay.table)
            if action is None:
                return
            bits = 0
            for number, policy in enumerate(POLICIES):
                if policy(replay.table, player) == action:
                    bits |= 1 << number
            fits.append((player, bits))
            replay.play(action)
        if not _same(replay.table, after):
            return
        for player, bits in fits:
            self.candidates[player] &= bits
