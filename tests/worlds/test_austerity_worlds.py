"""Austerity sampled worlds: they show every seat what it was shown, keep the deck's cards,
deal only the hidden order (uniformly, for the cards not yet turned up), and play on."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.games.austerity.game import AusterityGame
from cardtable.games.austerity.rules import Card
from cardtable.games.austerity.state import AusterityState
from cardtable.games.austerity.worlds import sample_world_from_observation

from .helpers import chi_square, chi_square_bound

DEALS = ("shuffled", "file")


def played(game: AusterityGame, seed: int, moves: int) -> AusterityState:
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.result is not None:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def deck_cards(state: AusterityState) -> Counter[str]:
    return Counter(card.text() for card in state.game.deck)


def unseen(state: AusterityState) -> list[Card]:
    return list(state.game.deck[state.game.next_card:])


def _ending(state: AusterityState) -> object:
    """The result but for the count of turns, which no seat is shown."""
    result = state.result
    return None if result is None else (result.winners, result.reason,
                                        result.details["points"])


Case = tuple[str, int, int, int, int]
situations = st.tuples(st.sampled_from(DEALS), st.integers(2, 4), st.integers(0, 2**32),
                       st.integers(0, 60), st.integers(0, 2**32))
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _state(case: Case) -> tuple[AusterityGame, AusterityState]:
    deal, players, seed, moves, _ = case
    game = cardtable.load_game("austerity", deal=deal, players=players)
    return game, played(game, seed, moves)


@SETTINGS
@given(situations)
def test_a_world_shows_every_seat_what_the_state_shows(case: Case) -> None:
    game, state = _state(case)
    for seat in state.seats:
        for world in (state.sample_world(seat, case[4]),
                      game.sample_world(state.observation(seat), case[4])):
            assert world.to_move == state.to_move
            assert _ending(world) == _ending(state)
            for other in state.seats:  # every seat sees the whole table
                assert world.observation(other) == state.observation(other)
            assert world.legal_actions() == state.legal_actions()


@SETTINGS
@given(situations)
def test_a_world_keeps_the_deck_and_the_cards_turned_up(case: Case) -> None:
    game, state = _state(case)
    seat = state.seats[0]
    world = state.sample_world(seat, case[4])
    assert deck_cards(world) == deck_cards(state)
    assert world.game.deck[:world.game.next_card] == state.game.deck[:state.game.next_card]
    assert Counter(unseen(world)) == Counter(unseen(state))
    assert world.turns == state.turns
    if case[0] == "file":  # the deck file's order is known to every seat: nothing is hidden
        assert world.to_position() == state.to_position()
    from_observation = game.sample_world(state.observation(seat), case[4])
    assert deck_cards(from_observation) == deck_cards(state)
    assert len(unseen(from_observation)) == len(unseen(state))
    if case[0] == "file":
        assert unseen(from_observation) == unseen(state)


@SETTINGS
@given(situations)
def test_worlds_are_seeded_independent_and_play_on_to_the_end(case: Case) -> None:
    game, state = _state(case)
    seat = state.seats[-1]
    before = state.to_position()
    worlds = [state.sample_world(seat, case[4]),
              game.sample_world(state.observation(seat), case[4])]
    assert worlds[0].to_position() == state.sample_world(seat, case[4]).to_position()
    assert worlds[1].to_position() == game.sample_world(state.observation(seat),
                                                        case[4]).to_position()
    for world in worlds:
        rng = random.Random(case[4])
        for _ in range(10_000):
            if world.result is not None:
                break
            world.apply(rng.choice(world.legal_actions()))
        assert world.result is not None
    assert state.to_position() == before


def test_a_shuffled_deal_deals_the_hidden_order_uniformly() -> None:
    game = cardtable.load_game("austerity", deal="shuffled")
    state = played(game, 4, 0)
    # Buy from the market until three cards are left unseen.
    rng = random.Random(4)
    while len(unseen(state)) > 3 and state.result is None:
        buys = [action for action in state.legal_actions() if action[0] == 2]
        state.apply(buys[0] if buys else rng.choice(state.legal_actions()))
    hidden = unseen(state)
    assert len(hidden) == 3 and len(set(hidden)) == 3
    orders = [tuple(unseen(state.sample_world("A", seed))) for seed in range(1200)]
    categories = list(permutations(hidden))
    assert chi_square(orders, categories) < chi_square_bound(len(categories))  # type: ignore[arg-type]


def test_the_cards_bought_are_drawn_of_each_buyers_colours_and_points() -> None:
    game = cardtable.load_game("austerity", deal="shuffled")
    state = played(game, 9, 40)
    observation = state.observation("A")
    assert sum(map(sum, observation.discounts)) > 0
    for seed in range(20):
        world = sample_world_from_observation(game, observation, seed)
        bought = Counter(world.game.deck[:world.game.next_card])
        bought.subtract(observation.market)
        assert min(bought.values()) >= 0
        by_colour = Counter(card.colour for card in bought.elements())
        assert by_colour == Counter({colour: sum(row[colour] for row in observation.discounts)
                                     for colour in range(4)
                                     if any(row[colour] for row in observation.discounts)})
        assert sum(card.value for card in bought.elements()) == sum(observation.points)
