"""The game objects reach positions and action indices: one state saved and restored through
``game.state_from_position``, and masks as long as ``game.num_actions()``, in every game."""

from __future__ import annotations

import random

import pytest

import cardtable


@pytest.mark.parametrize(("name", "params"), [
    ("caravan", {"rules": "power"}),
    ("caravan", {"rules": "foxon"}),
    ("obsession", {"players": 4}),
    ("austerity", {"players": 3, "tokens": 5, "points": 15}),
])
def test_positions_and_indices_through_the_game_object(name: str,
                                                       params: dict[str, object]) -> None:
    game = cardtable.load_game(name, **params)
    state = game.new_state(11)
    chooser = random.Random(3)
    for _ in range(60):
        if state.result is not None:
            break
        mask = state.legal_mask()
        assert len(mask) == game.num_actions()
        legal = state.legal_actions()
        assert sorted(i for i, bit in enumerate(mask) if bit) == sorted(
            state.action_index(action) for action in legal)
        restored = game.state_from_position(state.to_position())
        assert restored.to_position() == state.to_position()
        assert restored.legal_actions() == legal
        action = state.index_action(state.action_index(chooser.choice(legal)))
        state.apply(action)
        restored.apply(action)
        assert restored.to_position() == state.to_position()
