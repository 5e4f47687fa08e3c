"""Austerity rules: cards, the table every seat can see, and the hub's game (turns and endings).

One implementation serves three users, so that they cannot disagree on a rule:

* the hub validates replies and applies them to a :class:`Game`;
* each player program keeps a :class:`Table` as its model and updates it blindly from the
  hub's broadcasts (values may go negative there; the hub is trusted);
* the simulator runs :class:`Game` with the strategy functions directly, no processes.

This module is on the player's start-up path: it imports nothing (not even ``typing``).
Actions are plain tuples ``(kind, card index, values)`` because they sit on the hot path.
"""

COLOURS = "PBYR"
"""Colour letters in protocol order: Purple, Brown, Yellow, Red (Wild comes after them)."""

PURPLE = 0
BROWN = 1
YELLOW = 2
RED = 3

INT_MAX = 2147483647
MARKET_LIMIT = 8

WILD = 0
TAKE = 1
PURCHASE = 2

Action = tuple[int, int, tuple[int, ...]]
"""``(WILD, 0, ())``, ``(TAKE, 0, (p, b, y, r))`` or ``(PURCHASE, index, (p, b, y, r, w))``."""

WILD_ACTION: Action = (WILD, 0, ())


class Card:
    """A development card: its discount colour (index into ``COLOURS``), points and cost."""

    __slots__ = ("colour", "cost", "value")

    def __init__(self, colour: int, value: int, cost: tuple[int, int, int, int]) -> None:
        self.colour = colour
        self.value = value
        self.cost = cost

    def text(self) -> str:
        """The card as in deck files and ``newcard`` messages: ``D:V:P,B,Y,R``."""
        p, b, y, r = self.cost
        return f"{COLOURS[self.colour]}:{self.value}:{p},{b},{y},{r}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.colour, self.value, self.cost) == (other.colour, other.value, other.cost)

    def __hash__(self) -> int:
        return hash((self.colour, self.value, self.cost))

    def __repr__(self) -> str:
        return f"Card({self.text()!r})"


def letter(player: int) -> str:
    """Player 0 is ``A``, player 25 is ``Z``."""
    return chr(65 + player)


class Table:
    """Everything public: the four coloured piles, the market and every player's holdings.

    The ``record_*`` methods apply an action without checking it. The hub checks first
    (:meth:`Game.is_valid`); a player applies whatever the hub broadcasts, as the protocol says.
    """

    __slots__ = ("count", "discounts", "market", "piles", "points", "tokens", "wilds")

    def __init__(self, count: int, piles: int = 0) -> None:
        self.count = count
        self.piles = [piles, piles, piles, piles]
        self.tokens = [[0, 0, 0, 0] for _ in range(count)]
        self.wilds = [0] * count
        self.discounts = [[0, 0, 0, 0] for _ in range(count)]
        self.points = [0] * count
        self.market: list[Card] = []

    # --- what a player can do -------------------------------------------------------------

    def wilds_needed(self, player: int, card: Card) -> int:
        """Wild tokens ``player`` would need for ``card`` after its discounts and own tokens."""
        tok = self.tokens[player]
        disc = self.discounts[player]
        cost = card.cost
        short = 0
        # Unrolled over the four colours: this is the simulator's innermost loop.
        need = cost[0] - disc[0]
        gap = (need if need > 0 else 0) - tok[0]
        if gap > 0:
            short += gap
        need = cost[1] - disc[1]
        gap = (need if need > 0 else 0) - tok[1]
        if gap > 0:
            short += gap
        need = cost[2] - disc[2]
        gap = (need if need > 0 else 0) - tok[2]
        if gap > 0:
            short += gap
        need = cost[3] - disc[3]
        gap = (need if need > 0 else 0) - tok[3]
        if gap > 0:
            short += gap
        return short

    def can_afford(self, player: int, card: Card) -> bool:
        return self.wilds_needed(player, card) <= self.wilds[player]

    def price(self, player: int, card: Card) -> int:
        """The discounted price: tokens of any kind ``player`` must hand over for ``card``."""
        disc = self.discounts[player]
        total = 0
        for colour, cost in enumerate(card.cost):
            need = cost - disc[colour]
            if need > 0:
                total += need
        return total

    def payment(self, player: int, card: Card) -> tuple[int, int, int, int, int]:
        """The canonical payment: coloured tokens first, wilds only for the shortfall.

        ``use[c] = min(need[c], held[c])`` and ``W = sum(need[c] - use[c])``; the hub accepts
        this vector and no other.
        """
        tok = self.tokens[player]
        disc = self.discounts[player]
        use = [0, 0, 0, 0]
        wild = 0
        for colour in range(4):
            need = card.cost[colour] - disc[colour]
            if need < 0:
                need = 0
            held = tok[colour]
            paid = need if need < held else held
            use[colour] = paid
            wild += need - paid
        return (use[0], use[1], use[2], use[3], wild)

    def can_take(self) -> bool:
        """Three tokens can be taken when at least three coloured piles are non-empty."""
        piles = self.piles
        return (piles[0] > 0) + (piles[1] > 0) + (piles[2] > 0) + (piles[3] > 0) >= 3

    def take_in_order(self, order: tuple[int, ...] | list[int]) -> tuple[int, int, int, int]:
        """Walk ``order`` marking colours whose pile is non-empty, stopping after three marks."""
        piles = self.piles
        marks = [0, 0, 0, 0]
        marked = 0
        for colour in order:
            if piles[colour] > 0 and not marks[colour]:
                marks[colour] = 1
                marked += 1
                if marked == 3:
                    break
        return (marks[0], marks[1], marks[2], marks[3])

    def winners(self) -> list[int]:
        """Every player holding the most points (all of them when nobody scored)."""
        best = max(self.points)
        return [player for player, points in enumerate(self.points) if points == best]

    # --- applying actions (no checks) -----------------------------------------------------

    def record_take(self, player: int, values: tuple[int, ...]) -> None:
        piles = self.piles
        tok = self.tokens[player]
        for colour in range(4):
            piles[colour] -= values[colour]
            tok[colour] += values[colour]

    def record_wild(self, player: int) -> None:
        self.wilds[player] += 1

    def record_purchase(self, player: int, index: int, paid: tuple[int, ...]) -> Card:
        card = self.market.pop(index)
        piles = self.piles
        tok = self.tokens[player]
        for colour in range(4):
            tok[colour] -= paid[colour]
            piles[colour] += paid[colour]
        self.wilds[player] -= paid[4]
        self.points[player] += card.value
        self.discounts[player][card.colour] += 1
        return card


class Game:
    """The hub's view: a :class:`Table` plus the deck, the target and whose turn it is.

    ``finished`` becomes true when a purchase empties the market (at once, even mid-round)
    or when a round ends with some player at or above the target.
    """

    __slots__ = ("current", "deck", "finished", "next_card", "table", "target")

    def __init__(self, deck: list[Card], tokens: int, points: int, count: int) -> None:
        self.table = Table(count, tokens)
        self.deck = deck
        self.next_card = 0
        self.target = points
        self.current = 0
        self.finished = False

    def opening(self) -> list[Card]:
        """Turn up the first cards of the deck (at most eight), in deck order."""
        cards = self.deck[:MARKET_LIMIT]
        self.table.market.extend(cards)
        self.next_card = len(cards)
        return cards

    def is_valid(self, action: Action) -> bool:
        """Whether the current player may do ``action`` now (the grammar is checked elsewhere)."""
        kind, index, values = action
        if kind == WILD:
            return True
        table = self.table
        if kind == TAKE:
            if sorted(values) != [0, 1, 1, 1]:
                return False
            piles = table.piles
            return all(piles[colour] > 0 for colour in range(4) if values[colour])
        if not 0 <= index < len(table.market):
            return False
        card = table.market[index]
        player = self.current
        if not table.can_afford(player, card):
            return False
        return values == table.payment(player, card)

    def play(self, action: Action) -> Card | None:
        """Apply a valid action for the current player and pass the turn.

        Returns the card drawn from the deck into the market after a purchase, if any.
        """
        kind, index, values = action
        table = self.table
        player = self.current
        drawn = None
        if kind == WILD:
            table.wilds[player] += 1
        elif kind == TAKE:
            table.record_take(player, values)
        else:
            table.record_purchase(player, index, values)
            if self.next_card < len(self.deck):
                drawn = self.deck[self.next_card]
                self.next_card += 1
                table.market.append(drawn)
            elif not table.market:
                self.finished = True
                return None
        player += 1
        if player == table.count:
            player = 0
            if max(table.points) >= self.target:
                self.finished = True
        self.current = player
        return drawn
