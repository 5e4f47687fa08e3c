"""Obsession sampled worlds in the compiled core (``FastGame.sample_world``, ``_worlds.h``).

A compiled world is turned back into a Python state (its cards put into a Python world of
the same table) and checked as the Python sampler's worlds are: it agrees with the seat's
observation, keeps every card, differs from other samples only in what the seat cannot see,
deals the unseen cards uniformly and plays on legally to the end. Without the built core
these tests are skipped, except under CI, where they must run.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.engine.errors import UnknownSeat
from cardtable.games.obsession import fast
from cardtable.games.obsession.fast import FastGame
from cardtable.games.obsession.game import ObsessionGame
from cardtable.games.obsession.legality import LEGAL_CARD
from cardtable.games.obsession.state import SWAP, ObsessionState

from .helpers import WORLDS, chi_square_bound
from .test_obsession_worlds import all_cards

pytestmark = pytest.mark.skipif(
    not fast.available() and not os.environ.get("CI"),
    reason="the compiled core is not built (or CARDTABLE_PURE=1); under CI it must be",
)


def in_play(players: int, seed: int, plies: int) -> ObsessionState:
    """A game after its swaps and ``plies`` random actions more (or over, if it ended)."""
    state = ObsessionGame.load(players=players).new_state(seed)
    rng = random.Random(seed)
    while state.phase == SWAP:
        state.apply(rng.choice(state.legal_actions()))
    for _ in range(plies):
        if state.result is not None:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def python_world(state: ObsessionState, seat: int, world: FastGame,
                 template: ObsessionState | None = None) -> ObsessionState:
    """The compiled ``world`` of ``state`` as a Python state: a Python world of ``state``
    (same table, history and a fresh record of positions) holding the compiled world's
    cards. ``template``: such a Python world, copied instead of sampling one (a sample costs
    up to ``MAX_DEALS`` deals where the seats' choices rule out every deal)."""
    exported = world.export()
    game = state.sample_world(seat, 0) if template is None else template.clone()
    game.hands = [list(hand) for hand in exported["hands"]]
    game.hidden = [list(row) for row in exported["hidden"]]
    game.draw = list(exported["draw"])
    # Once the game is over nobody is to move: the Python world names the seat itself.
    game.current = exported["current"]
    return game


def holds_legal_card(game: ObsessionState, seat: int) -> bool:
    return any(LEGAL_CARD[game.active][card] for card in game.hands[seat])


Case = tuple[int, int, int, int, int]
"""Game seed, random actions played after the swaps, seat (modulo the players), world seed,
seed of the playout from the world."""
situations = st.tuples(
    st.integers(0, 2**32), st.integers(0, 150), st.integers(0, 9), st.integers(0, 2**64 - 1),
    st.integers(0, 2**32),
)
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
player_counts = pytest.mark.parametrize("players", [2, 3, 4, 6, 10])


def situation(players: int, case: Case) -> tuple[ObsessionState, FastGame, int]:
    seed, plies, seat = case[0], case[1], case[2]
    state = in_play(players, seed, plies)
    return state, FastGame.from_game(state), seat % players


@player_counts
@SETTINGS
@given(situations)
def test_compiled_world_agrees_with_the_observation(players: int, case: Case) -> None:
    state, core, seat = situation(players, case)
    before = core.export()
    world = core.sample_world(seat, case[3])
    assert core.export() == before  # the sampled game is untouched
    python = python_world(state, seat, world)
    assert python.observation(seat) == state.observation(seat)
    assert all_cards(python) == all_cards(state)
    assert all(hand == sorted(hand) for hand in python.hands)
    assert world.legal_actions() == python.legal_actions()
    # The seat to move holds a legal card in every world when it really does.
    mover = state.current
    if state.result is None and mover != seat and holds_legal_card(state, mover):
        assert holds_legal_card(python, mover)


@player_counts
@SETTINGS
@given(situations)
def test_compiled_samples_differ_only_in_hidden_cards(players: int, case: Case) -> None:
    state, core, seat = situation(players, case)
    worlds = [core.sample_world(seat, (case[3] + k) % 2**64) for k in range(WORLDS)]
    exported = core.export()
    hidden = ("hands", "hidden", "draw", "seen")
    for world in worlds:
        seen = world.export()
        assert {k: v for k, v in seen.items() if k not in hidden} == {
            k: v for k, v in exported.items() if k not in hidden}
        assert seen["hands"][seat] == exported["hands"][seat]
        assert [len(hand) for hand in seen["hands"]] == [len(h) for h in exported["hands"]]
        assert [len(row) for row in seen["hidden"]] == [len(r) for r in exported["hidden"]]
        assert len(seen["draw"]) == len(exported["draw"])
        assert seen["seen"] == {}  # the record of positions starts afresh
    unseen = len(state.draw) + sum(map(len, state.hidden))
    # The cards known to be in a hand stay there: only the rest is dealt again.
    unseen += sum(len(hand) - len(state.known[other])
                  for other, hand in enumerate(state.hands) if other != seat)
    if unseen >= 3 and state.result is None:
        deals = {(w.export()["draw"], w.export()["hidden"], w.export()["hands"]) for w in worlds}
        assert len(deals) > 1


@player_counts
@SETTINGS
@given(situations)
def test_same_seed_same_world(players: int, case: Case) -> None:
    _state, core, seat = situation(players, case)
    assert core.sample_world(seat, case[3]).export() == core.sample_world(seat, case[3]).export()


@player_counts
@SETTINGS
@given(situations)
def test_compiled_world_plays_to_a_legal_end(players: int, case: Case) -> None:
    """A compiled playout from a compiled world ends, and each of its actions is legal in
    the Python world, which ends in the very same state."""
    state, core, seat = situation(players, case)
    world = core.sample_world(seat, case[3])
    python = python_world(state, seat, world)
    for action in world.playout_actions(case[4]):
        python.apply(action)  # raises IllegalAction if the core played an illegal action
    assert world.over and python.result is not None
    assert world.result == python.result
    assert world.export() == fast.export_game(python)
    assert all_cards(python) == all_cards(state)


def test_a_seat_is_named_or_refused() -> None:
    core = FastGame.from_game(in_play(4, 2, 10))
    assert core.sample_world("P3", 7).export() == core.sample_world(2, 7).export()
    for seat in ("P5", 4, -1, True):
        with pytest.raises(UnknownSeat):
            core.sample_world(seat, 7)


def test_a_hidden_card_lies_anywhere_unseen_with_equal_chance() -> None:
    """Three players after a few plays, seen by P1: one of P1's own hidden cards may be in P2's
    or P3's hand, any hidden-row place of anyone (P1 included) or anywhere in the draw, each
    place equally likely."""
    state = in_play(3, 4, 3)
    core = FastGame.from_game(state)
    card = state.hidden[0][0]
    places = []
    for seed in range(6000):
        exported = core.sample_world(0, seed).export()
        hidden, hands = exported["hidden"], exported["hands"]
        where = next(
            (zone, index)
            for zone, cards in (("draw", exported["draw"]), ("h1", hidden[0]), ("h2", hidden[1]),
                                ("h3", hidden[2]), ("p2", hands[1]), ("p3", hands[2]))
            for index, each in enumerate(cards) if each == card)
        # Hands are kept sorted, so a place in a hand is just "in that hand".
        places.append(where if where[0] not in ("p2", "p3") else (where[0], 0))
    categories: list[tuple[str, int]] = [("draw", i) for i in range(len(state.draw))]
    categories += [(f"h{s + 1}", i) for s in range(3) for i in range(len(state.hidden[s]))]
    # The cards known to be in a hand (picked up, swapped out of a face-up row) take no place.
    weights = {("p2", 0): len(state.hands[1]) - len(state.known[1]),
               ("p3", 0): len(state.hands[2]) - len(state.known[2])}
    slots = len(categories) + sum(weights.values())
    counts = Counter(places)
    assert set(counts) <= set(categories) | set(weights)
    statistic = 0.0
    for category in categories + list(weights):
        expected = len(places) * weights.get(category, 1) / slots
        statistic += (counts[category] - expected) ** 2 / expected
    assert statistic < chi_square_bound(len(categories) + len(weights))


def unknown_part(state: ObsessionState, seat: int) -> list[int]:
    """The cards of ``seat``'s hand not known to every seat to be there: the ones a world deals."""
    return [card for card in state.hands[seat] if card not in state.known[seat]]


def short_handed_mover() -> tuple[ObsessionState, int]:
    """A game where the seat to move holds a legal card among few in hand, none of them known
    to be there, and most deals of the cards another seat cannot see would leave it none:
    (game, that other seat)."""
    for seed in range(2000):
        state = in_play(4, seed, seed % 120)
        mover = state.current
        if (state.result is not None or not 0 < len(state.hands[mover]) <= 2
                or state.known[mover]):
            continue
        seat = (mover + 1) % 4
        pool = state.draw + [c for s in range(4) for c in state.hidden[s]]
        pool += [c for s in range(4) if s != seat for c in unknown_part(state, s)]
        legal = sum(1 for card in pool if LEGAL_CARD[state.active][card])
        refused = (1 - legal / len(pool)) ** len(state.hands[mover])
        if holds_legal_card(state, mover) and refused > 0.3:
            return state, seat
    raise AssertionError("no such game found")


def test_the_seat_to_move_holds_a_legal_card() -> None:
    """Deals leaving the seat to move without a legal card are dealt again: every world has
    one in its hand, and each unseen legal card is equally likely to be there."""
    state, seat = short_handed_mover()
    mover = state.current
    core = FastGame.from_game(state)
    pool = state.draw + [c for s in range(4) for c in state.hidden[s]]
    pool += [c for s in range(4) if s != seat for c in unknown_part(state, s)]
    legal = [card for card in pool if LEGAL_CARD[state.active][card]]
    held: Counter[int] = Counter()
    for world_seed in range(3000):
        hand = core.sample_world(seat, world_seed).export()["hands"][mover]
        assert any(LEGAL_CARD[state.active][card] for card in hand)
        held.update(card for card in hand if card in legal)
    expected = sum(held.values()) / len(legal)
    statistic = sum((held[card] - expected) ** 2 / expected for card in legal)
    assert statistic < chi_square_bound(len(legal))


def test_the_mover_holds_a_legal_card_even_where_the_choices_say_otherwise() -> None:
    """P1 holds 3S (its only legal card on the king) but its choices so far say its unknown
    cards are none of the legal faces: the rule wins over that preference in every world."""
    from .test_obsession_worlds import played

    state = played(ObsessionGame.load(players=4), 3537, 5)
    seat, mover = 1, state.current
    assert mover == 0 and holds_legal_card(state, mover)
    lacks = state.observation(seat).lacks
    core = FastGame.from_game(state)
    template = state.sample_world(seat, 0)
    for seed in range(20):
        world = python_world(state, seat, core.sample_world(seat, seed, lacks), template)
        assert holds_legal_card(world, mover)
        assert world.legal_actions()
