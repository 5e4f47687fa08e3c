"""Austerity rules: cards, the table every seat can see, and the hub's game (turns and endings).

One implementation serves three users, so that they cannot disagree on a rule:

* the hub validates replies and applies them to a :class:`Game`;
* each player program keeps a :class:`Table` as its model and updates it blindly from the
  hub's broadcasts (values may go negative there; the hub is trusted);
* the simulator runs :class:`Game` with the strategy functions directly, no processes.

This module is on the player's start-up path: it imports nothing (not even ``typing``).
Actions are plain tuples ``(kind, card index, values)`` because they sit on the hot path.
"""

# Not ``typing.TYPE_CHECKING``: mypy reads any constant of this name as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

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

TAKE_VALUES: tuple[tuple[int, ...], ...] = (
    (1, 1, 1, 0), (1, 1, 0, 1), (1, 0, 1, 1), (0, 1, 1, 1))
"""Every take of one token from each of three colours, in a fixed order (the colour left out:
Red, Yellow, Brown, Purple): the order of the legal actions and of the action indices."""


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

    __slots__ = ("affordable", "count", "discounts", "market", "piles", "points", "shortfalls",
                 "tokens", "wilds")

    def __init__(self, count: int, piles: int = 0) -> None:
        self.count = count
        self.piles = [piles, piles, piles, piles]
        self.tokens = [[0, 0, 0, 0] for _ in range(count)]
        self.wilds = [0] * count
        self.discounts = [[0, 0, 0, 0] for _ in range(count)]
        self.points = [0] * count
        self.market: list[Card] = []
        self.affordable: list[int] | None = None
        """Once :meth:`track_affordability` is called: for each market card, a bit mask of the
        players who can afford it (bit ``p`` for player ``p``), kept up to date by the
        ``record_*`` methods and :meth:`add_to_market`. ``None`` when not tracked."""
        self.shortfalls: list[list[int]] = []
        """With :attr:`affordable`: for each market card, ``wilds_needed`` of every player."""

    @classmethod
    def showing(cls, piles: "Sequence[int]", tokens: "Sequence[Sequence[int]]",
                wilds: "Sequence[int]", discounts: "Sequence[Sequence[int]]",
                points: "Sequence[int]", market: "Sequence[Card]") -> "Table":
        """A new table holding copies of these holdings (no affordability index): a copy of
        another table, or the table an observation shows."""
        table = cls.__new__(cls)
        table.count = len(points)
        table.piles = list(piles)
        table.tokens = [list(held) for held in tokens]
        table.wilds = list(wilds)
        table.discounts = [list(held) for held in discounts]
        table.points = list(points)
        table.market = list(market)
        table.affordable = None
        table.shortfalls = []
        return table

    def copy(self) -> "Table":
        """An independent copy (without the affordability index)."""
        return Table.showing(self.piles, self.tokens, self.wilds, self.discounts, self.points,
                             self.market)

    # --- affordability index ----------------------------------------------------------------

    def track_affordability(self) -> None:
        """Keep :attr:`affordable` (and the shortfalls behind it) from now on.

        Only the player who acts changes what it can afford, so the index costs one pass over
        the market per turn whatever the number of players, and a question such as "who is the
        first opponent able to buy this card?" needs no scan of the players. The table must
        then be changed only through the ``record_*`` methods and :meth:`add_to_market`.
        """
        self.shortfalls = []
        self.affordable = []
        for card in self.market:
            self._index(card)

    def _index(self, card: Card) -> None:
        """Append the shortfalls and the mask of a card new to the market."""
        shorts = [self.wilds_needed(player, card) for player in range(self.count)]
        mask = 0
        for player, wild in enumerate(self.wilds):
            if shorts[player] <= wild:
                mask |= 1 << player
        self.shortfalls.append(shorts)
        assert self.affordable is not None
        self.affordable.append(mask)

    def _refresh(self, player: int) -> None:
        """Recompute ``player``'s shortfall and bit for every market card after its tokens
        or discounts changed."""
        affordable = self.affordable
        assert affordable is not None
        shortfalls = self.shortfalls
        bit = 1 << player
        keep = ~bit
        t0, t1, t2, t3 = self.tokens[player]
        d0, d1, d2, d3 = self.discounts[player]
        wild = self.wilds[player]
        for index, card in enumerate(self.market):
            # ``wilds_needed`` inlined: this runs once per market card on most turns.
            c0, c1, c2, c3 = card.cost
            short = 0
            gap = (c0 - d0 if c0 > d0 else 0) - t0
            if gap > 0:
                short += gap
            gap = (c1 - d1 if c1 > d1 else 0) - t1
            if gap > 0:
                short += gap
            gap = (c2 - d2 if c2 > d2 else 0) - t2
            if gap > 0:
                short += gap
            gap = (c3 - d3 if c3 > d3 else 0) - t3
            if gap > 0:
                short += gap
            shortfalls[index][player] = short
            if short <= wild:
                affordable[index] |= bit
            else:
                affordable[index] &= keep

    def add_to_market(self, card: Card) -> None:
        """Turn ``card`` up at the end of the market."""
        self.market.append(card)
        if self.affordable is not None:
            self._index(card)

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
        if self.affordable is not None:
            self._refresh(player)

    def record_wild(self, player: int) -> None:
        self.wilds[player] += 1
        affordable = self.affordable
        if affordable is not None:
            # One more wild: the shortfalls stand, a card may only become affordable.
            wild = self.wilds[player]
            bit = 1 << player
            for index, shorts in enumerate(self.shortfalls):
                if shorts[player] <= wild:
                    affordable[index] |= bit

    def record_purchase(self, player: int, index: int, paid: tuple[int, ...]) -> Card:
        card = self.market.pop(index)
        if self.affordable is not None:
            del self.affordable[index]
            del self.shortfalls[index]
        piles = self.piles
        tok = self.tokens[player]
        for colour in range(4):
            tok[colour] -= paid[colour]
            piles[colour] += paid[colour]
        self.wilds[player] -= paid[4]
        self.points[player] += card.value
        self.discounts[player][card.colour] += 1
        if self.affordable is not None:
            self._refresh(player)
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
        for card in cards:
            self.table.add_to_market(card)
        self.next_card = len(cards)
        return cards

    def is_valid(self, action: Action) -> bool:
        """Whether the current player may do ``action`` now (the grammar is checked elsewhere)."""
        kind, index, values = action
        if kind == WILD:
            return True
        table = self.table
        if kind == TAKE:
            # Three 1s and one 0 (written out: this runs on every turn of every simulated game).
            if len(values) != 4 or values.count(1) != 3 or values.count(0) != 1:
                return False
            piles = table.piles
            return not ((values[0] and piles[0] <= 0) or (values[1] and piles[1] <= 0)
                        or (values[2] and piles[2] <= 0) or (values[3] and piles[3] <= 0))
        if not 0 <= index < len(table.market):
            return False
        player = self.current
        # The payment's wilds are the shortfall: affordable exactly when they are at hand.
        payment = table.payment(player, table.market[index])
        return payment[4] <= table.wilds[player] and tuple(values) == payment

    def play(self, action: Action) -> Card | None:
        """Apply a valid action for the current player and pass the turn.

        Returns the card drawn from the deck into the market after a purchase, if any.
        """
        kind, index, values = action
        table = self.table
        player = self.current
        drawn = None
        if kind == WILD:
            table.record_wild(player)
        elif kind == TAKE:
            table.record_take(player, values)
        else:
            table.record_purchase(player, index, values)
            if self.next_card < len(self.deck):
                drawn = self.deck[self.next_card]
                self.next_card += 1
                table.add_to_market(drawn)
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
