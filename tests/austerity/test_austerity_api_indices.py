"""Austerity action indices: the mask is the legal list, every action comes back from its index,
indices are distinct and below ``num_actions``, which is the same for every game.

Random games through ``cardtable.load_game`` with every test deck and 2 to 6 players.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.games.austerity.action_index import num_actions
from cardtable.games.austerity.game import AusterityGame
from cardtable.games.austerity.rules import PURCHASE, TAKE, WILD_ACTION
from cardtable.games.austerity.state import AusterityState

DECKS = sorted((Path(__file__).parent / "decks").glob("*.deck"))
MAX_TURNS = 3000

GAMES = st.builds(
    lambda deck, tokens, points, players: cardtable.load_game(
        "austerity", deck=str(deck), tokens=tokens, points=points, players=players),
    deck=st.sampled_from(DECKS),
    tokens=st.integers(0, 9),
    points=st.integers(0, 20),
    players=st.integers(2, 6),
)


def check_indices(game: AusterityGame, state: AusterityState) -> None:
    size = game.num_actions()
    mask = state.legal_mask()
    assert isinstance(mask, bytes) and len(mask) == size
    legal = state.legal_actions()
    indices = [state.action_index(action) for action in legal]
    assert len(set(indices)) == len(indices)
    assert all(0 <= index < size for index in indices)
    assert sorted(indices) == [index for index, bit in enumerate(mask) if bit]
    assert set(mask) <= {0, 1}
    for action, index in zip(legal, indices, strict=True):
        assert state.index_action(index) == action
    for index in range(size):
        try:
            action = state.index_action(index)
        except ValueError:
            continue
        assert state.action_index(action) == index
        assert (state.refusal(action) is None) == bool(mask[index])


@settings(max_examples=120, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(game=GAMES, seed=st.integers(0, 2**32))
def test_the_mask_is_the_legal_list_and_indices_round_trip(game: AusterityGame,
                                                           seed: int) -> None:
    assert game.num_actions() == 13 == num_actions(game)
    state = game.new_state()
    rng = random.Random(seed)
    for _ in range(MAX_TURNS):
        check_indices(game, state)
        if state.result is not None:
            break
        index = rng.choice([i for i, bit in enumerate(state.legal_mask()) if bit])
        state.apply(state.index_action(index))
    assert state.legal_mask() == bytes(13)


@pytest.mark.parametrize("deck", DECKS, ids=lambda path: path.stem)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_num_actions_is_the_same_for_every_game(deck: Path, players: int) -> None:
    game = cardtable.load_game("austerity", deck=str(deck), tokens=2, points=3, players=players)
    assert isinstance(game, AusterityGame)
    assert game.num_actions() == 13


def test_the_documented_layout() -> None:
    game = cardtable.load_game("austerity", tokens=4, points=15, players=2)
    state = game.new_state()
    texts = ["take1,1,1,0", "take1,1,0,1", "take1,0,1,1", "take0,1,1,1"]
    assert [state.action_index(state.parse_action(text)) for text in texts] == [0, 1, 2, 3]
    assert state.action_index(WILD_ACTION) == 12
    assert state.index_action(12) == WILD_ACTION
    table = state.game.table
    for position, card in enumerate(table.market):
        action = (PURCHASE, position, table.payment(0, card))
        assert state.action_index(action) == 4 + position
        assert state.index_action(4 + position) == action


def test_actions_without_an_index_are_refused() -> None:
    game = cardtable.load_game("austerity", tokens=4, points=15, players=2)
    state = game.new_state()
    with pytest.raises(ValueError, match="the payment for market card 0 is"):
        state.action_index((PURCHASE, 0, (9, 9, 9, 9, 9)))
    with pytest.raises(ValueError, match="has no action index"):
        state.action_index((TAKE, 0, (1, 1, 1, 1)))
    with pytest.raises(ValueError, match="has no action index"):
        state.action_index((PURCHASE, 8, (0, 0, 0, 0, 0)))
    for index in (-1, 13, True, 1.0):
        with pytest.raises(ValueError, match=r"outside 0\.\.12"):
            state.index_action(index)  # type: ignore[arg-type]


def test_purchases_of_empty_market_positions_have_no_action() -> None:
    small = Path(__file__).parent / "decks" / "small.deck"
    game = cardtable.load_game("austerity", deck=str(small), tokens=4, points=50, players=2)
    state = game.new_state()
    assert len(state.game.table.market) == 6
    with pytest.raises(ValueError, match="market holds 6 cards"):
        state.index_action(4 + 6)
    with pytest.raises(ValueError, match="there is no market card 7"):
        state.action_index((PURCHASE, 7, (0, 0, 0, 0, 0)))
    assert state.legal_mask()[4 + 6:12] == bytes(2)
