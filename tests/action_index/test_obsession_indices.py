"""Obsession action indices: the legal mask is the legal list, and indices round-trip.

Random games for 2 to 10 players under random rules check, at every decision, that the mask
marks exactly the indices of the legal actions (swaps, plays, blind attempts), that each
legal action comes back from its index, that legal actions have distinct indices below
``num_actions``, and that ``num_actions`` never changes during a game.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.games.obsession.action_index import layout, num_actions
from cardtable.games.obsession.actions import Blind, Play, Swap
from cardtable.games.obsession.cards import joker, suited
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import SWAP, ObsessionState
from counts import count
from obsession.strategies import rules_strategy, tuned


def check_state(game: ObsessionState, size: int) -> None:
    legal = game.legal_actions()
    mask = game.legal_mask()
    assert len(mask) == size == num_actions(game.rules)
    indices = [game.action_index(action) for action in legal]
    assert len(set(indices)) == len(indices), "two legal actions share an index"
    assert all(0 <= index < size for index in indices)
    assert {i for i, bit in enumerate(mask) if bit} == set(indices)
    assert set(mask) <= {0, 1}
    for action, index in zip(legal, indices, strict=True):
        assert game.index_action(index) == action


@tuned(count(25, 60))
@given(rules=rules_strategy, seed=st.integers(0, 2**32))
def test_mask_is_the_legal_list(rules: Rules, seed: int) -> None:
    game = ObsessionState.new(rules, (False,) * rules.players, seed, log=False)
    size = num_actions(rules)
    rng = random.Random(seed)
    while True:
        check_state(game, size)
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))


def test_sizes_follow_the_documented_formula() -> None:
    # 13 faces x ((D + 1)^4 - 1) suit compositions, 2D joker counts, 3 blind, 20 swaps.
    assert num_actions(Rules(players=2)) == 13 * 15 + 2 + 3 + 20 == 220
    assert num_actions(Rules(players=4)) == 13 * 80 + 4 + 3 + 20 == 1067
    assert num_actions(Rules(players=10)) == 13 * 1295 + 10 + 3 + 20 == 16868


def test_each_face_and_count_is_one_run_of_indices() -> None:
    lay = layout(2)
    totals = [sum(counts) for counts in lay.compositions]
    assert totals == sorted(totals)
    assert totals.count(1) == 4 and totals[:4] == [1, 1, 1, 1]
    assert lay.compositions[:4] == ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1))


def dealt(players: int = 4, seed: int = 1) -> ObsessionState:
    return ObsessionState.new(Rules(players=players), (False,) * players, seed, log=False)


def playing(players: int = 4, seed: int = 1) -> ObsessionState:
    game = dealt(players, seed)
    for seat in range(players):
        game.apply(Swap(tuple(game.visible[seat])))
    return game


def test_documented_examples() -> None:
    game = playing()
    two_clubs, nine_hearts = suited(2, 0, 0), suited(9, 2, 0)
    assert game.action_index(Play((two_clubs,))) == 0
    assert game.action_index(Play((nine_hearts,))) == 7 * 80 + 2
    assert game.action_index(Play((nine_hearts, suited(9, 2, 1), suited(9, 0, 0)))) == (
        7 * 80 + 4 + 10 + 5)
    assert game.action_index(Play((joker(0, 0), joker(1, 1)))) == 1040 + 1
    assert game.action_index(Blind(2)) == 1044 + 1


def test_swap_choices_are_positions_in_the_sorted_pool() -> None:
    game = dealt()
    pool = sorted(game.hands[0] + game.visible[0])
    for rank, chosen in enumerate(combinations(pool, 3)):
        assert game.action_index(Swap(chosen)) == 1047 + rank
        assert game.action_index(Swap(chosen[::-1])) == 1047 + rank
        assert game.index_action(1047 + rank) == Swap(chosen)


def test_any_copy_of_a_card_text_has_the_index_of_the_first_copy() -> None:
    assert playing().action_index(Play((suited(5, 1, 1),))) == playing().action_index(
        Play((suited(5, 1, 0),)))


def test_a_play_the_seat_cannot_make_has_no_action() -> None:
    game = playing()
    held = {card for card in game.hands[game.current]}
    index = next(i for i in range(13 * 80)
                 if not held & {c for c in range(416) if c >> 5 == i // 80})
    with pytest.raises(ValueError, match="which the seat to move does not hold"):
        game.index_action(index)


def test_a_swap_index_after_the_deal_is_refused() -> None:
    with pytest.raises(ValueError, match="swaps are only made at the deal"):
        playing().index_action(1047)
    assert dealt().phase == SWAP


@pytest.mark.parametrize("index", [-1, 1067, "3", 1.0, None])
def test_an_index_outside_the_space_is_refused(index: object) -> None:
    with pytest.raises(ValueError, match=r"outside 0\.\.1066"):
        playing().index_action(index)  # type: ignore[arg-type]


@pytest.mark.parametrize(("action", "message"), [
    (Play(()), "no cards"),
    (Play((suited(4, 0, 0), suited(5, 0, 0))), "different faces"),
    (Play((suited(4, 0, 0), suited(4, 0, 0))), "naming a card twice"),
    (Play((suited(4, 0, 2),)), "not in a game of 2 decks"),
    (Play((joker(2, 0),)), "not in a game of 2 decks"),
    (Play((5,)), "is not a card"),
    (Play((10**6,)), "is not a card"),
    (Blind(0), "outside 1..3"),
    (Blind(4), "outside 1..3"),
    ("P1", "is not an Obsession action"),
])
def test_an_action_outside_the_encoding_is_refused(action: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        playing().action_index(action)  # type: ignore[arg-type]


def test_a_swap_of_cards_outside_the_pool_is_refused() -> None:
    game = dealt()
    pool = sorted(game.hands[0] + game.visible[0])
    other = sorted(game.hands[1])
    with pytest.raises(ValueError, match="3 different cards"):
        game.action_index(Swap((pool[0], pool[1], other[0])))
    with pytest.raises(ValueError, match="3 different cards"):
        game.action_index(Swap((pool[0], pool[1])))


def test_a_finished_game_has_an_empty_mask() -> None:
    game = playing()
    rng = random.Random(3)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.legal_mask() == bytes(1067)
