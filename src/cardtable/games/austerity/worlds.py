"""Austerity's sampled worlds: the deck's hidden order dealt at random, everything else as seen.

Austerity hides nothing but the order of the deck still to be turned up, and every seat sees
the same table, so a world consistent with a seat's view is the table it sees with the rest
of the deck in some order:

- ``state.sample_world(seat, seed)`` (:func:`sample_world`): under a shuffled deal
  (``deal="shuffled"``) the cards not yet turned up, which a seat that watched the game from
  the deal knows (the deck file's cards less every card turned up so far), in a random order
  drawn from ``seed``; under the deck file's order (``deal="file"``) nothing is hidden and
  the world is a copy of the state.
- ``game.sample_world(observation, seed)`` (:func:`sample_world_from_observation`) has only
  the table, which shows how many cards each player bought of each colour and its points but
  not which cards: under a shuffled deal it draws the bought cards from the deck's cards not
  in the market, each player's of its colours and worth its points (when a search of
  :data:`BOUGHT_STEPS` steps finds such cards), and deals the rest of the deck in a random
  order; under the file's order the deck is known and only the number of cards turned
  up (the opening market and one a purchase) places the next card.

The table, the turn and the target come from the observation as they are, so a world shows the
seat exactly what it was shown. A world's count of turns is not part of what a seat sees:
:func:`sample_world_from_observation` starts it at 0.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from cardtable.engine.randomness import derived_random
from cardtable.games.austerity.rules import MARKET_LIMIT, Card, Game, Table

if TYPE_CHECKING:
    import random

    from cardtable.games.austerity.game import AusterityGame
    from cardtable.games.austerity.state import AusterityState, Observation

BOUGHT_STEPS = 2_000
"""The longest search for bought cards worth every player's points; past it (or when no such
cards exist) the cards bought are drawn of the right colours alone."""

def _rules(deck: list[Card], next_card: int, table: Table, target: int, current: int,
           finished: bool) -> Game:
    """The rules' game dealt ``deck``, at the point the other values say."""
    game = Game.__new__(Game)
    game.deck = deck
    game.next_card = next_card
    game.table = table
    game.target = target
    game.current = current
    game.finished = finished
    return game


def sample_world(state: AusterityState, seat: str | int, seed: int | str) -> AusterityState:
    """A new, independent state that ``seat`` cannot tell from ``state``: the cards not yet
    turned up in an order drawn from ``seed`` (a shuffled deal), or a copy (the file's
    order)."""
    state.seat_number(seat)  # a seat of the game, or UnknownSeat
    # A plain state whatever the class of ``state``, as every clone is.
    plain = state.clone()
    if not state.shuffled:
        return plain
    game = state.game
    rest = list(game.deck[game.next_card:])
    derived_random(seed, "sample_world").shuffle(rest)
    deck = list(game.deck[:game.next_card]) + rest
    _, tokens, points, count = state.setup
    rules = _rules(deck, game.next_card, plain.game.table, game.target, game.current,
                   game.finished)
    return plain.under_way(rules, state.turns, (deck, tokens, points, count), True)


def _purchases(observation: Observation) -> int:
    """Every card bought so far: each purchase adds one to its buyer's discount of a colour."""
    return sum(sum(discounts) for discounts in observation.discounts)


class _OutOfSteps(Exception):
    pass


def _draw_bought(pool: list[Card], observation: Observation,
                 rng: random.Random) -> list[Card]:
    """Cards of ``pool`` for every player's purchases: as many of each colour as its discount
    of that colour, worth its points (a random depth-first search through the kinds of cards;
    when none is found within :data:`BOUGHT_STEPS` steps, the colours alone). Raises
    ValueError when the pool lacks cards of a colour (an observation of another deck)."""
    counts = Counter(pool)
    kinds: dict[int, list[Card]] = {}
    for card in sorted(counts, key=Card.text):
        kinds.setdefault(card.colour, []).append(card)
    slots = [(player, colour) for player, discounts in enumerate(observation.discounts)
             for colour, bought in enumerate(discounts) for _ in range(bought)]
    for colour, needed in Counter(colour for _, colour in slots).items():
        if needed > sum(counts[card] for card in kinds.get(colour, ())):
            raise ValueError("the observation shows more cards of a colour bought than the "
                             "game's deck holds")
    low = {colour: min(card.value for card in cards) for colour, cards in kinds.items()}
    high = {colour: max(card.value for card in cards) for colour, cards in kinds.items()}
    players = len(observation.points)
    # What each player's slots from each slot on weigh at the least and at the most.
    floor = [[0] * players for _ in range(len(slots) + 1)]
    ceiling = [[0] * players for _ in range(len(slots) + 1)]
    for index in range(len(slots) - 1, -1, -1):
        owner, colour = slots[index]
        floor[index] = list(floor[index + 1])
        ceiling[index] = list(ceiling[index + 1])
        floor[index][owner] += low[colour]
        ceiling[index][owner] += high[colour]
    owed = list(observation.points)
    chosen: list[Card] = []
    picked: list[int] = []
    steps = [0]

    def reachable(player: int, start: int) -> bool:
        """Whether the player's slots from ``start`` on can still be worth what it is owed."""
        return floor[start][player] <= owed[player] <= ceiling[start][player]

    def fill(index: int) -> bool:
        if index == len(slots):
            return True
        steps[0] += 1
        if steps[0] > BOUGHT_STEPS:
            raise _OutOfSteps
        player, colour = slots[index]
        # One order of the cards of a player's colour: a kind no earlier than the last one's.
        first = picked[-1] if index and slots[index - 1] == slots[index] else 0
        candidates = [number for number in range(first, len(kinds[colour]))
                      if counts[kinds[colour][number]] > 0]
        rng.shuffle(candidates)
        for number in candidates:
            card = kinds[colour][number]
            counts[card] -= 1
            owed[player] -= card.value
            chosen.append(card)
            picked.append(number)
            if reachable(player, index + 1) and fill(index + 1):
                return True
            picked.pop()
            chosen.pop()
            owed[player] += card.value
            counts[card] += 1
        return False

    if all(reachable(player, 0) for player in range(len(owed))):
        try:
            if fill(0):
                return chosen
        except _OutOfSteps:
            pass
    # No cards found worth the points: the colours alone.
    left = Counter(pool)
    drawn: list[Card] = []
    for _, colour in slots:
        cards = [card for card in kinds[colour] for _ in range(left[card])]
        card = cards[rng.randrange(len(cards))]
        left[card] -= 1
        drawn.append(card)
    return drawn

def sample_world_from_observation(game: AusterityGame, observation: Observation,
                                  seed: int | str) -> AusterityState:
    """A state of ``game`` agreeing with ``observation``, the deck's hidden order (and, under
    a shuffled deal, the cards bought) drawn from ``seed``. Raises ValueError for an
    observation that ``game``'s deck cannot give."""
    deck = list(game.deck)
    next_card = min(len(deck), MARKET_LIMIT + _purchases(observation))
    table = observation.table()
    current = 0 if observation.to_move is None else observation.to_move
    finished = observation.to_move is None
    setup = (deck, game.tokens, game.points, game.players)
    make = game.state_class.under_way
    if game.deal == "file":
        return make(_rules(deck, next_card, table, observation.target, current, finished), 0,
                    setup, False)
    unseen = Counter(deck)
    unseen.subtract(observation.market)
    if min(unseen.values(), default=0) < 0:
        raise ValueError("the observation's market holds a card the game's deck does not")
    rng = derived_random(seed, "sample_world")
    pool = sorted(unseen.elements(), key=Card.text)
    bought = _draw_bought(pool, observation, rng)
    rest = Counter(pool)
    rest.subtract(bought)
    remaining = sorted(rest.elements(), key=Card.text)
    rng.shuffle(remaining)
    dealt = [*observation.market, *bought, *remaining]
    return make(_rules(dealt, len(dealt) - len(remaining), table, observation.target, current,
                       finished), 0, (dealt, game.tokens, game.points, game.players), True)
