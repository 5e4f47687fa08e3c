"""Caravan sampled worlds: they agree with the seat's observation, differ only in what the
seat cannot see, keep every card, deal the unseen cards uniformly and play on legally."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.games.caravan.game import CaravanGame
from cardtable.games.caravan.rules import PRESETS
from cardtable.games.caravan.state import CaravanState
from counts import count

from .helpers import WORLDS, chi_square, chi_square_bound

PRESET_NAMES = tuple(PRESETS)


def played(game: CaravanGame, seed: int, plies: int) -> CaravanState:
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.result is not None:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def all_cards(state: CaravanState) -> Counter[int]:
    cards: Counter[int] = Counter()
    for zone in (*state.hands, *state.decks, *state.piles):
        cards.update(zone)
    for caravan in state.caravans:
        for numeral, faces in caravan:
            cards.update((numeral, *faces))
    return cards


PLAYOUT_LIMIT = 3000
"""Random foxon games often run to tens of thousands of moves: they are played this far."""


def play_out(state: CaravanState, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(PLAYOUT_LIMIT):
        if state.result is not None:
            return
        state.apply(rng.choice(state.legal_actions()))


Case = tuple[str, int, int, int, int, int]
situations = st.tuples(
    st.sampled_from(PRESET_NAMES), st.integers(0, 2**32), st.integers(0, 80),
    st.sampled_from((0, 1)), st.integers(0, 2**32), st.integers(0, 2**32),
)
SETTINGS = settings(max_examples=count(30, 60), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(situations)
def test_sampled_world_agrees_with_the_observation(case: Case) -> None:
    preset, seed, plies, seat, seed_a, _ = case
    game = cardtable.load_game("caravan", rules=preset)
    assert isinstance(game, CaravanGame)
    state = played(game, seed, plies)
    before = state.to_position()
    world = state.sample_world(seat, seed_a)
    assert world.observation(seat) == state.observation(seat)
    assert state.to_position() == before  # the original is untouched
    from_obs = game.sample_world(state.observation(seat), seed_a)
    assert from_obs.observation(seat) == state.observation(seat)


@SETTINGS
@given(situations)
def test_sampled_world_keeps_every_card(case: Case) -> None:
    preset, seed, plies, seat, seed_a, _ = case
    game = cardtable.load_game("caravan", rules=preset)
    assert isinstance(game, CaravanGame)
    state = played(game, seed, plies)
    assert all_cards(state.sample_world(seat, seed_a)) == all_cards(state)
    from_obs = game.sample_world(state.observation(seat), seed_a)
    assert sum(all_cards(from_obs).values()) == sum(all_cards(state).values())
    assert len(all_cards(from_obs)) == sum(all_cards(from_obs).values())  # no card twice


@SETTINGS
@given(situations)
def test_samples_differ_only_in_hidden_cards(case: Case) -> None:
    preset, seed, plies, seat, seed_a, _ = case
    game = cardtable.load_game("caravan", rules=preset)
    state = played(game, seed, plies)  # type: ignore[arg-type]
    worlds = [state.sample_world(seat, seed_a + k) for k in range(WORLDS)]
    for world in worlds:
        assert world.observation(seat) == worlds[0].observation(seat)
        assert world.hands[seat] == state.hands[seat]
        assert world.piles == state.piles
    other = 1 - seat
    unseen = len(state.decks[0]) + len(state.decks[1]) + len(state.hands[other])
    if unseen >= 3:
        hidden = {(tuple(map(tuple, w.decks)), tuple(w.hands[other])) for w in worlds}
        assert len(hidden) > 1


@SETTINGS
@given(situations)
def test_sampled_world_plays_on_to_the_end(case: Case) -> None:
    preset, seed, plies, seat, seed_a, seed_b = case
    game = cardtable.load_game("caravan", rules=preset)
    assert isinstance(game, CaravanGame)
    state = played(game, seed, plies)
    world = state.sample_world(seat, seed_a)
    from_obs = game.sample_world(state.observation(seat), seed_a)
    for each in (world, from_obs):
        play_out(each, seed_b)  # every move listed as legal is accepted
        assert each.result is not None or preset == "foxon"


def test_the_world_has_its_own_random_generator() -> None:
    state = played(CaravanGame.load(rules="nv"), 3, 30)
    assert state.sample_world(0, 9).rng is not state.rng
    again = [state.sample_world(0, 9) for _ in range(2)]
    assert again[0].to_position() == again[1].to_position()  # same seed, same world


def test_own_deck_order_is_uniform() -> None:
    """The seat's own deck: where one of its cards lies, over many samples."""
    state = played(CaravanGame.load(rules="nv"), 11, 12)
    card = state.decks[0][0]
    places = [state.sample_world(0, seed).decks[0].index(card) for seed in range(4000)]
    size = len(state.decks[0])
    assert chi_square(places, list(range(size))) < chi_square_bound(size)


def test_other_seats_cards_are_spread_uniformly_over_hand_and_deck() -> None:
    """One of DEF's unseen cards, seen by ABC: every hand slot and deck place equally likely."""
    state = played(CaravanGame.load(rules="nv"), 5, 14)
    card = state.hands[1][0]
    places = []
    for seed in range(4000):
        world = state.sample_world(0, seed)
        hand, deck = world.hands[1], world.decks[1]
        places.append(("hand", hand.index(card)) if card in hand else ("deck", deck.index(card)))
    categories = [("hand", i) for i in range(len(state.hands[1]))]
    categories += [("deck", i) for i in range(len(state.decks[1]))]
    assert chi_square(places, categories) < chi_square_bound(len(categories))


def test_hidden_opening_numerals_are_numerals_dealt_uniformly() -> None:
    """A simultaneous opening (foxon): the other seat's face-down numeral is any of its
    unseen numerals, equally likely."""
    game = CaravanGame.load(rules="foxon")
    for seed in range(50):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while state.placed[1] == 0 and state.result is None:
            state.apply(rng.choice(state.legal_actions()))
        if state.placed[1] == 1 and state.placed[0] < 3 and state.opening_hidden():
            break
    index = next(i for i in range(3, 6) if state.caravans[i])
    unseen = [c for c in state.decks[1] + state.hands[1] + [state.caravans[index][0][0]]
              if c & 15 <= 10]
    seen = [state.sample_world(0, seed).caravans[index][0][0] for seed in range(3000)]
    assert chi_square(seen, list(unseen)) < chi_square_bound(len(unseen))


def test_an_opening_hand_keeps_the_numerals_its_mulligan_dealt() -> None:
    """nv reshuffles every opening hand until it holds three numerals: while DEF opens, each
    world ABC samples gives DEF a hand with a numeral per caravan it has still to start (a
    three-card opening hand, where most deals would hold fewer)."""
    state = played(CaravanGame.load(rules="nv", opening_hand_size=3), 2, 1)
    assert state.in_opening(1) and state.placed[1] == 0
    for seed in range(300):
        world = state.sample_world(0, seed)
        assert sum(1 for card in world.hands[1] if card & 15 <= 10) >= 3
