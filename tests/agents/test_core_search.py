"""The compiled core's leaf evaluation and greedy playouts (``_search.h``) for search bots."""

from __future__ import annotations

import os
import random

import pytest

import cardtable
from cardtable.games.caravan import fast
from cardtable.games.caravan.expert import win_chance

pytestmark = pytest.mark.skipif(not fast.available() and not os.environ.get("CI"),
                                reason="the compiled core is not built")

PRESETS = ("nv", "power", "foxon", "karavane")


def _positions(preset: str, count: int) -> list[object]:
    game = cardtable.load_game("caravan", rules=preset)
    states = []
    for seed in range(count):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 120)):
            if state.result is not None:
                break
            state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


@pytest.mark.parametrize("preset", PRESETS)
def test_compiled_evaluation_is_the_experts(preset: str) -> None:
    finished = 0
    for state in _positions(preset, 40):
        core = fast.from_game(state, 1)  # type: ignore[arg-type]
        exported = core.export()
        values = [summary[0] for summary in exported[1]]
        rules = state.rules  # type: ignore[attr-defined]
        assert core.evaluate() == pytest.approx(
            win_chance(values, exported[12], 0, rules[0], rules[1]), abs=1e-12)
        finished += exported[12] is not None
    assert finished < 40


@pytest.mark.parametrize("preset", PRESETS)
def test_greedy_playouts_are_legal_seeded_and_greedy(preset: str) -> None:
    for index, state in enumerate(_positions(preset, 12)):
        core = fast.from_game(state, 1)  # type: ignore[arg-type]
        if core.over:
            continue
        one, two = core.clone(), core.clone()
        assert one.greedy_playout(index, 6, 0.2) == two.greedy_playout(index, 6, 0.2)
        assert one.export() == two.export()
        assert one.plies - core.plies <= 6
        # With no randomness, one greedy move is the move the evaluation likes best.
        greedy = core.clone()
        chance = greedy.greedy_playout(0, 1, 0.0)
        mover = core.turn
        best = -1.0
        for code in core.legal_codes():
            after = core.clone()
            after.apply(code)
            value = after.evaluate()
            best = max(best, value if mover == 0 else 1.0 - value)
        assert (chance if mover == 0 else 1.0 - chance) == pytest.approx(best)
        # Played to the end, a greedy playout finishes the game.
        whole = core.clone()
        whole.greedy_playout(index, 100_000, 0.1)
        assert whole.over


@pytest.mark.parametrize("preset", PRESETS)
def test_compiled_keys_are_card_keys(preset: str) -> None:
    from cardtable.games.caravan.search import card_keys

    for state in _positions(preset, 30):
        core = fast.from_game(state, 1)  # type: ignore[arg-type]
        if core.over:
            assert core.legal_keys() == []
            continue
        keys = card_keys(core.legal_codes(), state.hands[state.turn])  # type: ignore[attr-defined]
        assert core.legal_keys() == list(keys)
        for key, code in keys.items():
            assert core.code_of_key(key) == code
        assert core.code_of_key(-5) == -1
        with pytest.raises(ValueError):
            core.apply_key(-5)
        key = next(iter(keys))
        one, two = core.clone(), core.clone()
        one.apply_key(key)
        two.apply(keys[key])
        assert one.export() == two.export()
