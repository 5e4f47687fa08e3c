"""Obsession sampled worlds: they agree with the seat's observation, differ only in what the
seat cannot see, keep every card, deal the unseen cards uniformly and play on legally."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardtable.games.obsession.game import ObsessionGame
from cardtable.games.obsession.state import ObsessionState

from .helpers import chi_square, chi_square_bound

PLAYOUT_LIMIT = 100_000
"""Far more moves than a game can last: ``max_plays`` (5000 by default) ends it."""


def played(game: ObsessionGame, seed: int, plies: int) -> ObsessionState:
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.result is not None:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def all_cards(state: ObsessionState) -> Counter[int]:
    cards: Counter[int] = Counter(state.draw)
    cards.update(state.pile)
    cards.update(state.killed)
    cards.update(state.removed)
    for zone in (*state.hands, *state.visible, *state.hidden):
        cards.update(zone)
    return cards


Case = tuple[int, int, int, int, int, int]
situations = st.tuples(
    st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 150), st.integers(0, 5),
    st.integers(0, 2**32), st.integers(0, 2**32),
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def situation(case: Case) -> tuple[ObsessionGame, ObsessionState, int]:
    players, seed, plies, seat, _, _ = case
    game = ObsessionGame.load(players=players)
    return game, played(game, seed, plies), seat % players


@SETTINGS
@given(situations)
def test_sampled_world_agrees_with_the_observation(case: Case) -> None:
    game, state, seat = situation(case)
    before = state.to_position()
    world = state.sample_world(seat, case[4])
    assert world.observation(seat) == state.observation(seat)
    assert state.to_position() == before  # the original is untouched
    from_obs = game.sample_world(state.observation(seat), case[4])
    assert from_obs.observation(seat) == state.observation(seat)


@SETTINGS
@given(situations)
def test_sampled_world_keeps_every_card(case: Case) -> None:
    game, state, seat = situation(case)
    assert all_cards(state.sample_world(seat, case[4])) == all_cards(state)
    from_obs = game.sample_world(state.observation(seat), case[4])
    assert all_cards(from_obs) == all_cards(state)


def arrangement(state: ObsessionState) -> tuple[object, ...]:
    """Where a state puts the cards some seat cannot see: the draw pile and the hidden rows in
    their order, and what each hand holds."""
    return (tuple(state.draw), tuple(map(tuple, state.hidden)),
            tuple(tuple(sorted(hand)) for hand in state.hands))


def free_cards(state: ObsessionState, seat: int) -> Counter[int]:
    """The unseen cards a world may deal anywhere unseen: all but those ``seat`` saw go into
    another seat's hand (they stay there in every world)."""
    unseen = Counter(state.draw)
    for other, hand in enumerate(state.hands):
        unseen.update(state.hidden[other])
        if other != seat:
            unseen.update(hand)
    for other, known in enumerate(state.observation(seat).known):
        if other != seat:
            unseen.subtract(known)
    return +unseen


@SETTINGS
@example((2, 34, 98, 0, 0, 0))  # one unseen card is not known, and one place is left for it
@given(situations)
def test_samples_differ_only_in_hidden_cards(case: Case) -> None:
    _game, state, seat = situation(case)
    worlds = [state.sample_world(seat, case[4] + k) for k in range(16)]
    for world in worlds:
        assert world.observation(seat) == state.observation(seat)
        assert world.visible == state.visible
        assert world.hands[seat] == state.hands[seat]
        assert world.pile == state.pile
    free = free_cards(state, seat)
    if len(free) <= 1:
        # The unseen places admit one arrangement (no free card, or copies of one card only):
        # every world is the game itself.
        assert {arrangement(world) for world in worlds} == {arrangement(state)}
    elif len(free) >= 3 and state.result is None:
        # Three different cards can go to more than one place even when the seat to move must
        # hold a legal card; sixteen worlds all alike would be a sampler that does not shuffle.
        assert len({arrangement(world) for world in worlds}) > 1


@SETTINGS
@example((4, 3537, 5, 1, 0, 0))  # the choices say P1 holds no legal card; the rule says it does
@example((5, 3538, 5, 1, 15990, 3015217))  # a world that takes more than 3000 moves to end
@given(situations)
def test_sampled_world_plays_on_legally(case: Case) -> None:
    game, state, seat = situation(case)
    rng = random.Random(case[5])
    for world in (state.sample_world(seat, case[4]),
                  game.sample_world(state.observation(seat), case[4])):
        for _ in range(PLAYOUT_LIMIT):
            if world.result is not None:
                break
            world.apply(rng.choice(world.legal_actions()))
        assert world.result is not None


def test_a_hidden_card_lies_anywhere_unseen_with_equal_chance() -> None:
    """Three players after a few plays, seen by P1: one of P1's own hidden cards may be in P2's
    or P3's hand, any hidden-row place of anyone (P1 included) or anywhere in the draw, each
    place equally likely."""
    state = played(ObsessionGame.load(players=3), 4, 3)
    card = state.hidden[0][0]
    places = []
    for seed in range(6000):
        world = state.sample_world(0, seed)
        where = next(
            (zone, index)
            for zone, cards in (("draw", world.draw), ("h1", world.hidden[0]),
                                ("h2", world.hidden[1]), ("h3", world.hidden[2]),
                                ("p2", world.hands[1]), ("p3", world.hands[2]))
            for index, each in enumerate(cards) if each == card)
        # Hands are kept sorted, so a place in a hand is just "in that hand".
        places.append(where if where[0] not in ("p2", "p3") else (where[0], 0))
    categories: list[object] = [("draw", i) for i in range(len(state.draw))]
    categories += [(f"h{s + 1}", i) for s in range(3) for i in range(len(state.hidden[s]))]
    # The cards known to be in a hand (picked up, swapped out of a face-up row) take no place.
    weights = {("p2", 0): len(state.hands[1]) - len(state.known[1]),
               ("p3", 0): len(state.hands[2]) - len(state.known[2])}
    total = len(places)
    slots = len(categories) + sum(weights.values())
    counts = Counter(places)
    statistic = 0.0
    for category in categories + list(weights):
        expected = total * weights.get(category, 1) / slots
        statistic += (counts[category] - expected) ** 2 / expected
    assert set(counts) <= set(categories) | set(weights)
    assert statistic < chi_square_bound(len(categories) + len(weights))
    assert chi_square([p for p in places if p[0] == "draw"],
                      [("draw", i) for i in range(len(state.draw))]) < chi_square_bound(
                          len(state.draw))
