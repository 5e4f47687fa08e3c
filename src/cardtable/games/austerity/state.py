"""Austerity as an engine game state: the hub's :class:`~cardtable.games.austerity.rules.Game`
behind the protocol every game implements (seats, legal actions, apply, observation, result).

Actions are the protocol's tuples and their text is the protocol's reply line without its line
break: ``wild``, ``take1,0,1,1``, ``purchase2:1,0,0,0,1``. Seats are the player letters ``A``,
``B``, ... The game has no chance once dealt: the deck order is given (the file's, or a
shuffled one, see ``AusterityGame``), so a state is fixed by its deck, parameters and the
actions so far.

Every Austerity program runs on this state: the hub validates and applies each reply with
:meth:`AusterityState.apply`, the player programs keep their own view of the table as a state
made by :meth:`AusterityState.watching` and updated from the hub's broadcasts, and the
simulator plays its games on it. So this module is on their start-up path: it imports only the
small Austerity modules; the engine's parts (its exception types, results, seat names, one-line
messages) are imported on first use.
"""

from cardtable.games.austerity.codec import format_action, parse_action, vector_text
from cardtable.games.austerity.rules import (
    MARKET_LIMIT,
    PURCHASE,
    TAKE,
    TAKE_VALUES,
    WILD,
    WILD_ACTION,
    Action,
    Card,
    Game,
    Table,
    letter,
)

# Not ``typing.TYPE_CHECKING``: importing typing costs every player start (mypy reads any
# constant of this name as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from cardtable.engine.protocol import Result

COLOUR_NAMES = ("Purple", "Brown", "Yellow", "Red")


class Observation:
    """What a player program is told: everything on the table (the game hides nothing but the
    order of the deck), its own letter and whose turn it is. A plain value: it compares equal
    when it shows the same, and :meth:`table` gives the strategies' view of it."""

    __slots__ = ("discounts", "market", "piles", "points", "seat", "target", "to_move",
                 "tokens", "wilds")

    seat: int
    to_move: int | None
    piles: tuple[int, ...]
    tokens: tuple[tuple[int, ...], ...]
    wilds: tuple[int, ...]
    discounts: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    market: tuple[Card, ...]
    target: int

    def __init__(self, seat: int, to_move: int | None, piles: tuple[int, ...],
                 tokens: tuple[tuple[int, ...], ...], wilds: tuple[int, ...],
                 discounts: tuple[tuple[int, ...], ...], points: tuple[int, ...],
                 market: tuple[Card, ...], target: int) -> None:
        # Frozen: fields are set past ``__setattr__``, which refuses any later change.
        define = object.__setattr__
        define(self, "seat", seat)
        define(self, "to_move", to_move)
        define(self, "piles", piles)
        define(self, "tokens", tokens)
        define(self, "wilds", wilds)
        define(self, "discounts", discounts)
        define(self, "points", points)
        define(self, "market", market)
        define(self, "target", target)

    def _key(self) -> tuple[object, ...]:
        return (self.seat, self.to_move, self.piles, self.tokens, self.wilds, self.discounts,
                self.points, self.market, self.target)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field '{name}'")

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in (
            "seat", "to_move", "piles", "tokens", "wilds", "discounts", "points", "market",
            "target"))
        return f"Observation({fields})"

    def table(self) -> Table:
        """A fresh :class:`Table` showing what this observation shows (the strategies'
        argument)."""
        return Table.showing(self.piles, self.tokens, self.wilds, self.discounts, self.points,
                             self.market)

    def legal_actions(self) -> list[Action]:
        """The seat's legal actions, as the state lists them; empty when it is not to move (the
        observation shows everything legality depends on)."""
        if self.to_move != self.seat:
            return []
        return legal_actions_on(self.table(), self.seat)


def legal_actions_on(table: Table, player: int) -> list[Action]:
    """``player``'s legal actions on ``table``: takes (three non-empty colours), affordable
    purchases (market order), then ``wild``."""
    piles = table.piles
    actions: list[Action] = [
        (TAKE, 0, values)
        for values in TAKE_VALUES
        if all(piles[colour] > 0 for colour in range(4) if values[colour])
    ]
    for index, card in enumerate(table.market):
        if table.can_afford(player, card):
            actions.append((PURCHASE, index, table.payment(player, card)))
    actions.append(WILD_ACTION)
    return actions


class AusterityState:
    """One game of Austerity between ``count`` players ``A``, ``B``, ...

    ``apply`` mutates the state (``clone`` first to keep it) and raises :class:`IllegalAction`
    without changing anything for an action the hub would refuse.
    """

    __slots__ = ("_result", "game", "setup", "shuffled", "turns")

    def __init__(self, deck: list[Card], tokens: int, points: int, count: int,
                 shuffled: bool = False) -> None:
        self.game = Game(deck, tokens, points, count)
        self.game.opening()
        self.turns = 0
        self._result: Result | None = None
        self.setup: tuple[Sequence[Card], int, int, int] = (deck, tokens, points, count)
        """The game's parameters: the whole deck as dealt (top card first, never changed),
        the tokens of each pile, the target and the number of players. Positions carry a
        fingerprint."""
        self.shuffled = shuffled
        """Whether the deck was dealt shuffled (``deal="shuffled"``) rather than in the deck
        file's order: a position's fingerprint then covers the deck's cards, not their order."""

    @classmethod
    def watching(cls, count: int) -> "AusterityState":
        """A player program's view of a game of ``count`` players before the hub's first
        message: no deck (the hub announces each card as it turns it up), empty piles (until
        ``tokens``) and no target (the players are never told it). Keep it up to date with
        :meth:`fill_piles`, :meth:`turn_up` and :meth:`record`."""
        return cls([], 0, 0, count)

    @classmethod
    def under_way(cls, rules: Game, turns: int, setup: "tuple[Sequence[Card], int, int, int]",
                  shuffled: bool, result: "Result | None" = None) -> "AusterityState":
        """A state around ``rules``, a game already under way (a restored position, a sampled
        world), after ``turns`` turns; ``setup`` and ``shuffled`` as :attr:`setup` and
        :attr:`shuffled` say, and ``result`` the ending when it is known (else it is worked
        out when asked)."""
        state = cls.__new__(cls)
        state.game = rules
        state.turns = turns
        state._result = result
        state.setup = setup
        state.shuffled = shuffled
        return state

    # --- the engine protocol -----------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(letter(player) for player in range(self.game.table.count))

    @property
    def to_move(self) -> str | None:
        return None if self.game.finished else letter(self.game.current)

    @property
    def table(self) -> Table:
        """Everything public: piles, market and every player's holdings (do not change it)."""
        return self.game.table

    @property
    def result(self) -> "Result | None":
        """Winners, the ending (``points``: a round ended with the target reached;
        ``market_empty``) and each player's points and the number of turns as details."""
        if self._result is None and self.game.finished:
            # Imported here, once per game: the engine's dataclasses would slow every start.
            from cardtable.engine.protocol import Result

            table = self.game.table
            self._result = Result(
                tuple(letter(player) for player in table.winners()),
                "market_empty" if not table.market else "points",
                {"points": list(table.points), "turns": self.turns},
            )
        return self._result

    def legal_actions(self) -> list[Action]:
        """Takes (three non-empty colours), affordable purchases (market order), then ``wild``."""
        game = self.game
        if game.finished:
            return []
        return legal_actions_on(game.table, game.current)

    def apply(self, action: Action) -> Card | None:
        """Apply ``action`` for the seat to move; returns the card turned up after a purchase.

        Raises :class:`IllegalAction` (state unchanged) for anything the hub refuses."""
        game = self.game
        if game.finished or not game.is_valid(action):
            from cardtable.engine.errors import IllegalAction

            raise IllegalAction(self.refusal(action) or "That is not an action.")
        drawn = game.play(action)
        self.turns += 1
        return drawn

    def observation(self, seat: str | int) -> Observation:
        table = self.game.table
        return Observation(
            self.seat_number(seat),
            None if self.game.finished else self.game.current,
            tuple(table.piles),
            tuple(map(tuple, table.tokens)),
            tuple(table.wilds),
            tuple(map(tuple, table.discounts)),
            tuple(table.points),
            tuple(table.market),
            self.game.target,
        )

    def clone(self) -> "AusterityState":
        other = AusterityState.__new__(AusterityState)
        game = self.game
        copy = Game.__new__(Game)
        copy.deck = game.deck  # never changed: ``next_card`` walks it
        copy.next_card = game.next_card
        copy.target = game.target
        copy.current = game.current
        copy.finished = game.finished
        copy.table = game.table.copy()
        other.game = copy
        other.turns = self.turns
        other._result = self._result
        other.setup = self.setup
        other.shuffled = self.shuffled
        return other

    def sample_world(self, seat: str | int, seed: int | str) -> "AusterityState":
        """A new, independent state that ``seat`` cannot tell from this one: the cards not
        yet turned up in an order drawn from ``seed`` under a shuffled deal, a copy under the
        deck file's order (every seat sees the same: only the deck's order is hidden)."""
        from cardtable.games.austerity.worlds import sample_world

        return sample_world(self, seat, seed)

    # --- a player program's view: the hub's broadcasts, applied blindly -------------------

    def fill_piles(self, tokens: int) -> None:
        """``tokensT``: every coloured pile holds ``tokens``."""
        self.game.table.piles = [tokens, tokens, tokens, tokens]

    def turn_up(self, card: Card) -> bool:
        """``newcard``: ``card`` joins the market; False (nothing changed) when it is full."""
        table = self.game.table
        if len(table.market) >= MARKET_LIMIT:
            return False
        table.add_to_market(card)
        return True

    def record(self, player: int, action: Action) -> bool:
        """``purchased``, ``took`` or ``wild``: ``player`` did ``action``, as the hub says.

        Applied without any check of the rules (values may go negative: the hub is trusted,
        as the protocol says), then the turn passes to the next player. False (nothing
        changed) only for a purchase of a card the market does not have."""
        kind, index, values = action
        table = self.game.table
        if kind == PURCHASE:
            if index >= len(table.market):
                return False
            table.record_purchase(player, index, values)
        elif kind == TAKE:
            table.record_take(player, values)
        elif kind == WILD:
            table.record_wild(player)
        self.game.current = (player + 1) % table.count
        self.turns += 1
        return True

    # --- refusals --------------------------------------------------------------------------

    def refusal(self, action: Action) -> str | None:
        """Why the seat to move may not do ``action`` now, or None when it may."""
        game = self.game
        if game.finished:
            return "The game is over."
        if game.is_valid(action):
            return None
        # The hub's check decides; what follows only says why it refused.
        kind, index, values = action
        table = game.table
        if kind == TAKE:
            if sorted(values) != [0, 1, 1, 1]:
                return "A take is one token from each of three different colours."
            for colour in range(4):
                if values[colour] and table.piles[colour] <= 0:
                    return f"The {COLOUR_NAMES[colour]} pile is empty."
        if kind != PURCHASE:
            return "That is not an action."
        if not 0 <= index < len(table.market):
            return f"There is no market card {index}."
        card = table.market[index]
        player = game.current
        if not table.can_afford(player, card):
            return f"Player {letter(player)} cannot afford market card {index}."
        payment = table.payment(player, card)
        return (f"The payment for market card {index} is {vector_text(payment)} "
                "(coloured tokens first, wilds for the shortfall).")

    # --- game API: notation and seats

    def seat_number(self, seat: str | int) -> int:
        """The index of ``seat`` (``A``, ``B``, ... or 0, 1, ...); ``UnknownSeat`` otherwise."""
        if type(seat) is str and len(seat) == 1:
            # The match loop's question on every turn: a seat letter as ``to_move`` gives it.
            number = ord(seat) - 65
            if 0 <= number < self.game.table.count:
                return number
        from cardtable.engine.seats import seat_number

        return seat_number(seat, self.seats)

    def parse_action(self, text: str) -> Action:
        """The action written as a protocol reply: ``wild``, ``takeP,B,Y,R``,
        ``purchaseC:P,B,Y,R,W``; raises :class:`NotationError` for anything else."""
        action = parse_action(text.strip().encode("utf-8", "replace"))
        if action is None:
            from cardtable.engine.errors import NotationError
            from cardtable.engine.one_line import one_line, shortened

            shown = shortened(one_line(text.strip()), 40)
            raise NotationError(
                f"Invalid action '{shown}' (expected wild, takeP,B,Y,R or purchaseC:P,B,Y,R,W)."
            )
        return action

    def action_text(self, action: Action) -> str:
        return format_action(action).decode().rstrip("\n")

    # --- game API: positions

    def to_position(self) -> str:
        """The whole state as one line of text; ``position.from_position`` restores it."""
        from cardtable.games.austerity.position import to_position

        return to_position(self)

    # --- game API: action indices

    def action_index(self, action: Action) -> int:
        """The fixed index of ``action`` (see ``cardtable.games.austerity.action_index``)."""
        from cardtable.games.austerity import action_index

        return action_index.action_index(self, action)

    def index_action(self, index: int) -> Action:
        """The action of the seat to move at action index ``index``."""
        from cardtable.games.austerity import action_index

        return action_index.index_action(self, index)

    def legal_mask(self) -> bytes:
        """``num_actions`` bytes: 1 at the index of each legal action."""
        from cardtable.games.austerity import action_index

        return action_index.legal_mask(self)
