"""Caravan action indices: the legal mask is the legal list, and indices round-trip.

Random games under every preset and under random per-seat rule overrides check, at every ply,
that the mask marks exactly the indices of the legal moves, that each legal move comes back
from its index, that legal moves have distinct indices below ``num_actions``, and that
``num_actions`` never changes during a game.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.games.caravan.action_index import layout, num_actions
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, Move
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.state import CaravanState

PRESET_NAMES = tuple(PRESETS)
OVERRIDES = {
    "max_numerals": [None, 1, 2, 3, 8, 20], "max_faces": [None, 1, 2],
    "jack_respects_face_cap": [True, False], "queen_placement": ["last", "any"],
    "queen_changes_suit": [True, False], "queen_changes_direction": [True, False],
    "joker_target_survives": [True, False], "joker_ace_mode": ["suit", "rank"],
    "equal_rank_direction": ["desc", "keep_previous", "any"],
    "faces_on_opponent": [True, False], "face_must_match_suit": [True, False],
    "clear_policy": ["clear", "destroy_restart", "disabled"],
    "mulligan": ["rebuild", "reshuffle", "discard", "none"],
    "hand_size": [1, 2, 5, 8], "opening_hand_size": [None, 3, 9],
    "draw_mode": ["one", "refill"], "deck_exhaustion": ["shrink", "reshuffle_discards"],
    "sold_min": [10, 21], "jokers_per_sample": [0, 2],
    "jack_is_joker_without_jokers": [True, False],
}
SEAT_OVERRIDES = st.fixed_dictionaries(
    {}, optional={name: st.sampled_from(values) for name, values in OVERRIDES.items()})
SHARED_OVERRIDES = st.fixed_dictionaries({}, optional={
    "opening_mode": st.sampled_from(["alternate", "simultaneous", "none"]),
    "out_of_cards": st.sampled_from(["after_lanes", "before_lanes"]),
})


def new_rules(preset: str, abc: dict[str, object], def_: dict[str, object],
              shared: dict[str, object]) -> SeatRules:
    seats = []
    for overrides in (abc, def_):
        rules = replace(PRESETS[preset], **overrides, **shared)
        if rules.jokers_per_sample == 0:
            # One Joker-free sample deck holds 52 cards.
            rules = replace(rules, deck_size=52, samples=1)
        seats.append(rules)
    return SeatRules(*seats)


def check_state(game: CaravanState, size: int) -> None:
    legal = game.legal_moves()
    mask = game.legal_mask()
    assert len(mask) == size == num_actions(game.seat_rules)
    indices = [game.action_index(move) for move in legal]
    assert len(set(indices)) == len(indices), "two legal moves share an index"
    assert all(0 <= index < size for index in indices)
    assert {i for i, bit in enumerate(mask) if bit} == set(indices)
    assert set(mask) <= {0, 1}
    for move, index in zip(legal, indices, strict=True):
        assert game.index_action(index) == move


def play(rules: SeatRules, seed: int, ply_limit: int) -> None:
    game = CaravanState.new(rules, seed=seed)
    size = num_actions(rules)
    rng = random.Random(seed)
    while True:
        check_state(game, size)
        if game.result is not None or game.plies >= ply_limit:
            break
        game.play(rng.choice(game.legal_moves()))


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32))
def test_mask_is_the_legal_list_under_every_preset(preset: str, seed: int) -> None:
    play(SeatRules.preset(preset), seed, ply_limit=300)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(preset=st.sampled_from(PRESET_NAMES), abc=SEAT_OVERRIDES, def_=SEAT_OVERRIDES,
       shared=SHARED_OVERRIDES, seed=st.integers(0, 2**32))
def test_mask_is_the_legal_list_under_per_seat_overrides(
    preset: str, abc: dict[str, object], def_: dict[str, object], shared: dict[str, object],
    seed: int,
) -> None:
    play(new_rules(preset, abc, def_, shared), seed, ply_limit=150)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_index_names_a_move_that_comes_back_to_it(preset: str) -> None:
    game = CaravanState.new(SeatRules.preset(preset), seed=7)
    for index in range(num_actions(game.seat_rules)):
        move = game.index_action(index)
        assert move.seat == game.turn
        assert game.action_index(move) == index


def test_sizes_follow_the_documented_formula() -> None:
    # 6 caravans x H hands x (S + 1) slots, H discards, 6 clears (x (H + 1) with restarts).
    assert num_actions(SeatRules.preset("power")) == 6 * 8 * 9 + 8 + 6 == 446
    assert num_actions(SeatRules.preset("karavane")) == 6 * 8 * 21 + 8 + 6 == 1022
    # Without a numeral cap, S is what a deck can hold: min(deck_max, 40 x samples_max).
    assert num_actions(SeatRules.preset("nv")) == 6 * 8 * 161 + 8 + 6 == 7742
    assert num_actions(SeatRules.preset("foxon")) == 6 * 8 * 121 + 8 + 6 * 9 == 5870
    mixed = SeatRules(PRESETS["power"], replace(PRESETS["power"], hand_size=9))
    assert layout(mixed).hands == 12


def test_documented_examples() -> None:
    game = CaravanState.new(SeatRules.preset("power"), seed=1)
    seat = game.turn
    assert game.action_index(Move(seat, PLAY, 1, 2, 0)) == (1 * 6 + 1) * 9
    assert game.action_index(Move(seat, PLAY, 3, 4, 3)) == (3 * 6 + 3) * 9 + 3
    assert game.action_index(Move(seat, DISCARD, 0, 3)) == 432 + 2
    assert game.action_index(Move(seat, CLEAR, 2)) == 440 + 2
    foxon = CaravanState.new(SeatRules.preset("foxon"), seed=1)
    assert foxon.action_index(Move(foxon.turn, CLEAR, 4, 2)) == 5808 + 8 + 4 * 9 + 2


def test_a_slot_beyond_every_caravan_the_rules_allow_has_no_index() -> None:
    game = CaravanState.new(SeatRules.preset("power"), seed=1)
    with pytest.raises(ValueError, match="beyond the 8 numerals a caravan can hold"):
        game.action_index(Move(game.turn, PLAY, 0, 1, 9))
    nv = CaravanState.new(SeatRules.preset("nv"), seed=1)
    assert nv.action_index(Move(nv.turn, PLAY, 5, 8, 160)) == 6 * 8 * 161 - 1
    with pytest.raises(ValueError, match="beyond the 160 numerals a caravan can hold"):
        nv.action_index(Move(nv.turn, PLAY, 0, 1, 161))


def test_a_caravan_longer_than_the_rules_allow_makes_the_mask_refuse() -> None:
    # Only a hand-built position can get there: the rules' decks never hold 9 numerals.
    rules = SeatRules.both(replace(PRESETS["nv"], deck_min=8, deck_max=8, deck_size=8))
    game = CaravanState.new(SeatRules.preset("nv"), seed=2)
    game.seat_rules = rules
    numerals = [card for card in [*game.decks[0], *game.hands[0]] if card & 15 <= 10]
    game.caravans[0] = tuple((card, ()) for card in numerals[:9])
    game.summaries[0] = (0, 9, 1, 0, 0)
    game.turn = 1
    game.placed = [3, 3]
    game.hands[1] = [card for card in game.decks[1] if card & 15 == 12][:1]  # a Queen
    with pytest.raises(ValueError, match="beyond the 8 numerals"):
        game.legal_mask()


@pytest.mark.parametrize("index", [-1, 446, 10**9, "3", 2.0, True])
def test_an_index_outside_the_space_is_refused(index: object) -> None:
    game = CaravanState.new(SeatRules.preset("power"), seed=1)
    with pytest.raises(ValueError, match=r"outside 0\.\.445"):
        game.index_action(index)  # type: ignore[arg-type]


@pytest.mark.parametrize("parts", [
    (PLAY, 0, 0, 0), (PLAY, 0, 9, 0), (PLAY, 6, 1, 0), (DISCARD, 1, 1, 0),
    (DISCARD, 0, 0, 0), (DISCARD, 0, 1, 2), (CLEAR, 0, 1, 0), (CLEAR, 0, 0, 1), (3, 0, 1, 0),
])
def test_a_move_outside_the_encoding_is_refused(parts: tuple[int, int, int, int]) -> None:
    game = CaravanState.new(SeatRules.preset("power"), seed=1)
    with pytest.raises(ValueError, match="has no action index"):
        game.action_index(Move(game.turn, *parts))


def test_a_move_of_the_other_seat_is_refused() -> None:
    game = CaravanState.new(SeatRules.preset("power"), seed=1)
    with pytest.raises(ValueError, match=r"not by .*, the seat to move"):
        game.action_index(Move(1 - game.turn, DISCARD, 0, 1))


def test_a_finished_game_has_an_empty_mask() -> None:
    game = CaravanState.new(SeatRules.preset("power"), seed=1)
    game.abandon()
    assert game.legal_mask() == bytes(446)
