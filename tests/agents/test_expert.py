"""The Caravan ``expert``: never hands the game over, seeded, and its lane evaluation."""

from __future__ import annotations

import random

import cardtable
from cardtable.agents.registry import make_seat
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.expert import lane_score, win_chance
from cardtable.games.caravan.rules import PRESETS
from cardtable.games.caravan.state import CaravanState

NV = PRESETS["nv"]


def _losing_moves(state: CaravanState) -> tuple[list[int], list[int]]:
    """The mover's moves that end the game lost at once, and the others."""
    other = SEATS[1 - state.turn]
    losing, safe = [], []
    for code in state.legal_codes():
        after = state.clone()
        after.apply_code(code)
        if after.result is not None and after.result.winners == (other,):
            losing.append(code)
        else:
            safe.append(code)
    return losing, safe


def _positions_with_a_losing_move(count: int) -> list[str]:
    """Positions (as text) where the mover could hand the game over, found in random games."""
    game = cardtable.load_game("caravan")
    found: list[str] = []
    for seed in range(400):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while state.result is None:
            losing, safe = _losing_moves(state)
            if losing and safe:
                found.append(state.to_position())
                break
            state.apply(rng.choice(state.legal_actions()))
        if len(found) >= count:
            break
    return found


def test_expert_never_sells_a_lane_that_hands_the_game_over() -> None:
    game = cardtable.load_game("caravan")
    positions = _positions_with_a_losing_move(12)
    assert len(positions) >= 6
    for index, text in enumerate(positions):
        state = game.state_from_position(text)
        losing, _ = _losing_moves(state)
        seat = state.to_move
        assert seat is not None
        move = make_seat(game, "expert", seat, index).choose(state.observation(seat))
        assert move.code not in losing, text


def test_expert_is_seeded() -> None:
    game = cardtable.load_game("caravan")
    state = game.new_state(seed=9)
    rng = random.Random(9)
    for _ in range(20):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.to_move
    assert seat is not None
    moves = {make_seat(game, "expert", seat, 4).choose(state.observation(seat))
             for _ in range(3)}
    assert len(moves) == 1


def test_lane_evaluation() -> None:
    # ABC takes all three lanes: a sure score of 3.
    assert lane_score([22, 23, 24, 10, 10, 10], NV, NV) == 3.0
    # Each seat takes one lane; the third is even.
    assert lane_score([22, 5, 0, 10, 24, 0], NV, NV) == 0.0
    # A bust caravan counts below an empty one.
    assert lane_score([27, 0, 0, 0, 0, 0], NV, NV) < 0.0
    assert win_chance([22, 23, 24, 10, 10, 10], None, 0, NV, NV) > 0.99
    assert win_chance([22, 23, 24, 10, 10, 10], None, 1, NV, NV) < 0.01
    assert win_chance([0] * 6, (("DEF",), "lanes"), 1, NV, NV) == 1.0
    assert win_chance([0] * 6, ((), "draw"), 0, NV, NV) == 0.5


def test_expert_beats_normal_in_a_few_games() -> None:
    """A small smoke of strength (the benchmark figures are in docs/bots-search.md)."""
    from cardtable.engine.match import play_match

    game = cardtable.load_game("caravan")
    wins = 0
    for index in range(6):
        state = game.new_state(seed=100 + index // 2)
        me = SEATS[index % 2]
        other = SEATS[1 - index % 2]
        seats = {me: make_seat(game, "expert", me, index),
                 other: make_seat(game, "normal", other, index)}
        wins += play_match(state, seats).winners == (me,)
    assert wins >= 4
