"""Caravan sampled worlds in the compiled core (``State.sample_world``, ``_worlds.h``).

A compiled world is turned back into a Python state (its cards put into a Python world of
the same position) and checked as the Python sampler's worlds are: it agrees with the seat's
observation, keeps every card, differs from other samples only in what the seat cannot see,
deals the unseen cards uniformly and plays on legally to the end. Without the built core
these tests are skipped, except under CI, where they must run.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine.errors import UnknownSeat
from cardtable.games.caravan import fast
from cardtable.games.caravan.board import most_faces, summarize
from cardtable.games.caravan.game import CaravanGame
from cardtable.games.caravan.rules import PRESETS
from cardtable.games.caravan.state import CaravanState
from cardtable.games.caravan.worlds import opening_numerals_needed, unseen_of_state

from .helpers import WORLDS, chi_square, chi_square_bound
from .test_caravan_worlds import all_cards, played

if TYPE_CHECKING:
    from cardtable.games.caravan._core import State

pytestmark = pytest.mark.skipif(
    not fast.available() and not os.environ.get("CI"),
    reason="the compiled core is not built (or CARDTABLE_PURE=1); under CI it must be",
)

PRESET_NAMES = tuple(PRESETS)
CARAVANS, SUMMARIES, CROWDING, HELD, HANDS, DECKS, PILES, PLACED, MOVES, TURN = range(10)


def python_world(state: CaravanState, seat: int, world: State) -> CaravanState:
    """The compiled ``world`` of ``state`` as a Python state: a Python world of ``state``
    (same position and history) holding the compiled world's cards. Summaries and crowding
    are computed again in Python, and checked against the core's."""
    exported = world.export()
    game = state.sample_world(seat, 0)
    game.caravans = list(exported[CARAVANS])
    game.hands = [list(hand) for hand in exported[HANDS]]
    game.decks = [list(deck) for deck in exported[DECKS]]
    game.piles = [list(pile) for pile in exported[PILES]]
    # Once the game is over nobody is to move: the Python world names the seat itself.
    game.turn = exported[TURN]
    game.summaries = [summarize(game.caravans[i], game.held[i], game.rules[i // 3])
                      for i in range(6)]
    game.crowding = [most_faces(caravan) for caravan in game.caravans]
    assert tuple(game.summaries) == exported[SUMMARIES]
    assert tuple(game.crowding) == exported[CROWDING]
    assert exported[HELD] == tuple(state.held)
    return game


Case = tuple[int, int, int, int, int]
"""Game seed, random moves played, seat, world seed, seed of the moves played from the world."""
situations = st.tuples(
    st.integers(0, 2**32), st.integers(0, 80), st.sampled_from((0, 1)),
    st.integers(0, 2**64 - 1), st.integers(0, 2**32),
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
every_preset = pytest.mark.parametrize("preset", PRESET_NAMES)


def situation(preset: str, case: Case) -> tuple[CaravanState, State]:
    seed, plies = case[0], case[1]
    game = cardtable.load_game("caravan", rules=preset)
    assert isinstance(game, CaravanGame)
    state = played(game, seed, plies)
    return state, fast.from_game(state, seed)


@every_preset
@SETTINGS
@given(situations)
def test_compiled_world_agrees_with_the_observation(preset: str, case: Case) -> None:
    state, core = situation(preset, case)
    seat, world_seed = case[2], case[3]
    before = core.export()
    world = fast.sample_world(core, seat, world_seed)
    assert core.export() == before  # the sampled state is untouched
    python = python_world(state, seat, world)
    assert python.observation(seat) == state.observation(seat)
    assert all_cards(python) == all_cards(state)
    assert world.legal_codes() == python.legal_codes()
    # Each deck's unseen cards stay that deck's cards.
    other = 1 - seat
    assert [sorted(cards) for cards in unseen_of_state(python, seat)] == [
        sorted(cards) for cards in unseen_of_state(state, seat)]
    # An opening hand keeps the numerals its mulligan dealt (when the real one has them).
    needed = opening_numerals_needed(state.observation(seat), other)
    if sum(1 for card in state.hands[other] if card & 15 <= 10) >= needed:
        assert sum(1 for card in python.hands[other] if card & 15 <= 10) >= needed


@every_preset
@SETTINGS
@given(situations)
def test_compiled_samples_differ_only_in_hidden_cards(preset: str, case: Case) -> None:
    state, core = situation(preset, case)
    seat, world_seed = case[2], case[3]
    other = 1 - seat
    worlds = [core.sample_world(seat, (world_seed + k) % 2**64) for k in range(WORLDS)]
    exported = core.export()
    for world in worlds:
        seen = world.export()
        assert seen[HANDS][seat] == exported[HANDS][seat]
        assert seen[PILES] == exported[PILES]
        assert seen[HELD] == exported[HELD]
        assert seen[DECKS + 1:] == exported[DECKS + 1:]  # counters, turn, result
        for index in range(6):
            if index // 3 == seat or not state.opening_hidden():
                assert seen[CARAVANS][index] == exported[CARAVANS][index]
                assert seen[SUMMARIES][index] == exported[SUMMARIES][index]
        assert [len(deck) for deck in seen[DECKS]] == [len(deck) for deck in exported[DECKS]]
        assert len(seen[HANDS][other]) == len(exported[HANDS][other])
    unseen = len(state.decks[0]) + len(state.decks[1]) + len(state.hands[other])
    if unseen >= 3:
        assert len({(world.export()[DECKS], world.export()[HANDS]) for world in worlds}) > 1


@every_preset
@SETTINGS
@given(situations)
def test_same_seed_same_world_and_same_playout(preset: str, case: Case) -> None:
    _state, core = situation(preset, case)
    seat, world_seed = case[2], case[3]
    first, again = core.sample_world(seat, world_seed), core.sample_world(seat, world_seed)
    assert first.export() == again.export()
    # The world's generator is seeded from the same seed: its reshuffles are the same too.
    first.playout(limit=400)
    again.playout(limit=400)
    assert first.export() == again.export()


PLAYOUT_LIMIT = 3000
"""Random foxon games often run to tens of thousands of moves: they are played this far."""
LOCKSTEP = 60
"""Moves played in both engines side by side from a compiled world."""


@every_preset
@SETTINGS
@given(situations)
def test_compiled_world_plays_to_a_legal_end(preset: str, case: Case) -> None:
    """From a compiled world, both engines agree move for move (until a deck is reshuffled:
    each engine reshuffles with its own generator), and the core plays on to the end."""
    state, core = situation(preset, case)
    seat, world_seed, choices = case[2], case[3], random.Random(case[4])
    world = core.sample_world(seat, world_seed)
    python = python_world(state, seat, world)
    cards = all_cards(python)
    for _ in range(LOCKSTEP):
        codes = world.legal_codes()
        assert codes == python.legal_codes()
        mover = python.turn
        if not codes or len(python.decks[mover]) <= python.rules[mover].hand_size:
            break  # the move might reshuffle a discard pile
        code = choices.choice(codes)
        world.apply(code)
        python.apply_code(code)
        assert world.export() == fast.export_game(python)
    world.playout(case[4], limit=PLAYOUT_LIMIT)
    exported = world.export()
    assert exported[-1] is not None or preset == "foxon"
    end: Counter[int] = Counter()
    for zone in (*exported[HANDS], *exported[DECKS], *exported[PILES]):
        end.update(zone)
    for caravan in exported[CARAVANS]:
        for numeral, faces in caravan:
            end.update((numeral, *faces))
    assert end == cards  # no card created or lost


def test_a_seat_is_named_or_refused() -> None:
    state = played(CaravanGame.load(rules="nv"), 3, 20)
    core = fast.from_game(state, 3)
    assert fast.sample_world(core, "DEF", 4).export() == core.sample_world(1, 4).export()
    with pytest.raises(UnknownSeat):
        fast.sample_world(core, "GHI", 4)
    with pytest.raises(ValueError):
        core.sample_world(2, 4)


SAMPLES = 4000


def test_own_deck_order_is_uniform() -> None:
    """The seat's own deck: where one of its cards lies, over many compiled samples."""
    state = played(CaravanGame.load(rules="nv"), 11, 12)
    core = fast.from_game(state, 1)
    card = state.decks[0][0]
    places = [core.sample_world(0, seed).export()[DECKS][0].index(card)
              for seed in range(SAMPLES)]
    size = len(state.decks[0])
    assert chi_square(places, list(range(size))) < chi_square_bound(size)


def test_other_seats_cards_are_spread_uniformly_over_hand_and_deck() -> None:
    """One of DEF's unseen cards, seen by ABC: every hand slot and deck place equally likely."""
    state = played(CaravanGame.load(rules="nv"), 5, 14)
    core = fast.from_game(state, 1)
    card = state.hands[1][0]
    places = []
    for seed in range(SAMPLES):
        exported = core.sample_world(0, seed).export()
        hand, deck = exported[HANDS][1], exported[DECKS][1]
        places.append(("hand", hand.index(card)) if card in hand else ("deck", deck.index(card)))
    categories = [("hand", i) for i in range(len(state.hands[1]))]
    categories += [("deck", i) for i in range(len(state.decks[1]))]
    assert chi_square(places, categories) < chi_square_bound(len(categories))


def simultaneous_opening() -> CaravanState:
    """A foxon game (a simultaneous opening: ABC starts its three caravans face down, then
    DEF) where DEF has started one caravan."""
    state = CaravanGame.load(rules="foxon").new_state(3)
    rng = random.Random(3)
    while state.placed != [3, 1]:
        state.apply(rng.choice(state.legal_actions()))
    assert state.opening_hidden()
    return state


def numerals(cards: list[int]) -> list[int]:
    return [card for card in cards if card & 15 <= 10]


@pytest.mark.parametrize("seat", [0, 1])
def test_hidden_opening_numerals_are_numerals_dealt_uniformly(seat: int) -> None:
    """In a simultaneous opening, the other seat's face-down numerals are any of its unseen
    numerals, equally likely, each one different; the world's summaries are their own."""
    state = simultaneous_opening()
    other = 1 - seat
    core = fast.from_game(state, 1)
    faces_down = [i for i in range(3 * other, 3 * other + 3) if state.caravans[i]]
    unseen = numerals(state.decks[other] + state.hands[other]
                      + [state.caravans[i][0][0] for i in faces_down])
    seen = []
    for seed in range(3000):
        exported = core.sample_world(seat, seed).export()
        dealt = [exported[CARAVANS][i][0][0] for i in faces_down]
        assert len(set(dealt)) == len(dealt) and set(dealt) <= set(unseen)
        for index, numeral in zip(faces_down, dealt, strict=True):
            assert exported[SUMMARIES][index][2] == numeral & 15  # the last rank
        seen.append(dealt[0])
    assert chi_square(seen, list(unseen)) < chi_square_bound(len(unseen))


def test_an_opening_hand_keeps_the_numerals_its_mulligan_dealt() -> None:
    """nv reshuffles every opening hand until it holds three numerals: while DEF opens, each
    world ABC samples gives DEF a hand with a numeral per caravan it has still to start (a
    three-card opening hand, where most deals would hold fewer), uniformly among such hands."""
    state = played(CaravanGame.load(rules="nv", opening_hand_size=3), 2, 1)
    assert state.in_opening(1) and state.placed[1] == 0
    core = fast.from_game(state, 1)
    card = next(c for c in state.decks[1] + state.hands[1] if c & 15 <= 10)
    in_hand = 0
    for seed in range(SAMPLES):
        hand = core.sample_world(0, seed).export()[HANDS][1]
        assert sum(1 for c in hand if c & 15 <= 10) == 3
        in_hand += card in hand
    # Every numeral of DEF's is equally likely to be among the three.
    numerals = sum(1 for c in state.decks[1] + state.hands[1] if c & 15 <= 10)
    expected = SAMPLES * 3 / numerals
    assert abs(in_hand - expected) < 4 * (expected * (1 - 3 / numerals)) ** 0.5
