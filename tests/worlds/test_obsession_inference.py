"""Obsession: what the seats' choices show about their hands (``inference``,
``Observation.lacks``) and the worlds that honour it.

The rules' facts hold whatever plays a seat, so the true hand always agrees with them; the
``obsessed`` policy's facts agree with the hands of ``obsessed`` seats but for its rare
dearer picks; a seat that plays otherwise loses them; every seat sees the same facts; and
the worlds, Python or compiled, deal hands that keep them.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardtable.games.obsession import fast
from cardtable.games.obsession.bots import make_bot
from cardtable.games.obsession.cards import FACE, suited
from cardtable.games.obsession.fast import FastGame
from cardtable.games.obsession.game import ObsessionGame
from cardtable.games.obsession.inference import (
    RULES_MASK,
    combined,
    legal_mask,
    mask_of,
    play_masks,
    swap_deviates,
    swap_mask,
)
from cardtable.games.obsession.state import ObsessionState
from cardtable.games.obsession.worlds import honour_lacks, sample_world

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def unseen_part(game: ObsessionState, seat: int) -> list[int]:
    """The cards of ``seat``'s hand that no seat saw go there."""
    cards = list(game.hands[seat])
    for card in game.known[seat]:
        cards.remove(card)
    return cards


def agrees(cards: list[int], masks: list[int] | tuple[int, ...]) -> bool:
    """Can ``cards`` take the places of ``masks`` (strictest first, each a superset of the
    next), each card lacking its place's faces?"""
    return len(masks) <= len(cards) and all(
        sum(1 for card in cards if not mask >> FACE[card] & 1) > index
        for index, mask in enumerate(masks))


def play_out(players: int, seed: int, bots: str) -> list[ObsessionState]:
    """The states of one game, after each decision, seats played by ``bots``."""
    state = ObsessionGame.load(players=players).new_state(seed)
    seats = [make_bot(bots, seat, seed) for seat in range(players)]
    states = []
    while state.result is None and len(states) < 400:
        seat = state.current
        state.apply(seats[seat].choose(state.observe(seat)))
        states.append(state.clone())
    return states


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_rules_facts_hold_for_any_player(players: int) -> None:
    for seed in range(4):
        for state in play_out(players, seed, "random"):
            for seat in range(players):
                rules = [slot & RULES_MASK for slot in state._lacks[seat]]
                assert agrees(unseen_part(state, seat), rules), (seed, seat)


def test_random_seats_lose_the_policy_facts_and_obsessed_seats_keep_them() -> None:
    dropped = [not all(play_out(4, seed, "random")[-1]._modelled) for seed in range(6)]
    assert all(dropped)
    assert all(all(play_out(4, seed, "obsessed")[-1]._modelled) for seed in range(6))


def test_the_policy_facts_mostly_hold_for_obsessed_seats_and_say_something() -> None:
    checked = wrong = facts = 0
    for seed in range(6):
        for state in play_out(4, seed, "obsessed"):
            for seat in range(4):
                masks = combined(state.observe(seat).lacks[seat])
                checked += 1
                facts += any(masks)
                wrong += not agrees(unseen_part(state, seat), masks)
    assert facts > checked // 4
    assert wrong < checked * 0.03


def test_every_seat_sees_the_same_facts() -> None:
    state = play_out(4, 3, "obsessed")[60]
    assert len({state.observe(seat).lacks for seat in range(4)}) == 1


def test_a_pick_up_shows_no_legal_card_and_a_swap_no_dearer_card() -> None:
    assert legal_mask(7) == mask_of((2, 3, 4, 5, 6, 7, 10, 15))
    # Face up a 4 (weight 1), a king and an ace: a 5 in the hand was dearer than the 4.
    visible = (suited(4, 0, 0), suited(13, 0, 0), suited(14, 0, 0))
    assert swap_mask(visible) == mask_of(face for face in (2, 3, 5, 6, 7, 8, 9, 10, 11, 12,
                                                           13, 14, 15))
    assert swap_deviates(visible, [suited(5, 1, 0)])  # a 5 kept in hand
    assert not swap_deviates(visible, [suited(4, 1, 0)])  # another 4


def test_a_play_shows_the_cheaper_faces_missing_and_the_copies_all_played() -> None:
    # On a 9: a queen (weight 5) rules out the cheaper legal 9 and jack; all copies went.
    cheaper, after, deviates = play_masks(12, 1, active=9, late=False, behind=False,
                                          next_empty=False)
    assert cheaper == mask_of((9, 11)) and after == mask_of((12,)) and not deviates
    # A special face goes one copy at a time before the draw pile is empty.
    assert play_masks(2, 2, active=9, late=False, behind=False, next_empty=False)[2]
    # A plain active face may be played to kill the pile: nothing cheaper is ruled out.
    assert play_masks(9, 1, active=9, late=True, behind=True, next_empty=False)[0] == 0


Case = tuple[int, int, int, int]
cases = st.tuples(st.integers(0, 2**32), st.integers(10, 120), st.integers(0, 3),
                  st.integers(0, 2**32))


def decision(case: Case) -> tuple[ObsessionState, int]:
    """An ``obsessed`` game of four after some decisions, and a seat to sample for."""
    states = play_out(4, case[0], "obsessed")
    state = states[min(case[1], len(states) - 1)]
    return state, case[2]


@SETTINGS
@given(cases)
@example((8257, 94, 0, 2))  # greedy swaps used up the only cards seat 2's places allow
def test_python_worlds_keep_the_facts(case: Case) -> None:
    state, seat = decision(case)
    obs = state.observe(seat)
    world = sample_world(state, seat, case[3])
    assert world.observe(seat).lacks == obs.lacks
    for other in range(4):
        masks = combined(obs.lacks[other])
        if other != seat and agrees(unseen_part(state, other), masks):
            assert agrees(unseen_part(world, other), masks)


@pytest.mark.skipif(not fast.available() and not os.environ.get("CI"),
                    reason="the compiled core is not built (or CARDTABLE_PURE=1)")
@SETTINGS
@given(cases)
@example((8257, 94, 0, 2))
def test_compiled_worlds_keep_the_facts(case: Case) -> None:
    state, seat = decision(case)
    if state.result is not None:
        return
    obs = state.observe(seat)
    core = FastGame.from_game(state)
    lacks = tuple(map(combined, obs.lacks))
    world = core.sample_world(seat, case[3], lacks).export()
    for other in range(4):
        cards = list(world["hands"][other])
        for card in obs.known[other]:
            cards.remove(card)
        if other != seat and agrees(unseen_part(state, other), lacks[other]):
            assert agrees(cards, lacks[other])


@pytest.mark.skipif(not fast.available() and not os.environ.get("CI"),
                    reason="the compiled core is not built (or CARDTABLE_PURE=1)")
def test_the_compiled_sampler_refuses_bad_facts_clearly() -> None:
    state = play_out(4, 1, "obsessed")[20]
    core = FastGame.from_game(state)
    with pytest.raises(ValueError, match="seats"):
        core.sample_world(0, 1, [()] * 5)
    with pytest.raises(TypeError):
        core.sample_world(0, 1, [("x",)])
    with pytest.raises(OverflowError):
        core.sample_world(0, 1, [(-1,)])
    assert list(core.sample_world(0, 7, ()).export()["hands"][0]) == state.hands[0]


def test_places_are_matched_when_greedy_swaps_use_up_the_allowed_cards() -> None:
    eight, nine, five = suited(8, 0, 0), suited(9, 0, 0), suited(5, 0, 0)
    only_eights = mask_of(face for face in range(2, 16) if face != 8)
    eights_or_nines = mask_of(face for face in range(2, 16) if face not in (8, 9))
    for seed in range(40):
        cards = [five, five, five, eight, nine, suited(8, 1, 0)]
        lacking = [(0, eights_or_nines), (1, only_eights), (2, only_eights)]
        honour_lacks(cards, lacking, random.Random(seed))
        assert [FACE[card] for card in cards[:3]] == [9, 8, 8], seed
        assert sorted(cards) == sorted([five, five, five, eight, nine, suited(8, 1, 0)])
