"""Obsession's length rules live in the state: ``max_plays`` and the repetition guard
(``repeat_limit``, sparing the seats a person plays, ``humans``). Every consumer gets them
through ``state.result`` alone: a plain ``apply`` sequence, the match loop, a restored
position."""

from __future__ import annotations

import random
from typing import Any

import cardtable
from cardtable.engine.match import MatchListener, play_match
from cardtable.engine.protocol import GameState, Result

SEED = 3
"""Two players, repeat limit 2: random actions from this seed repeat a position."""


def _random_actions(**params: Any) -> tuple[list[Any], Result]:
    state = cardtable.load_game("obsession", players=2, **params).new_state(SEED)
    rng = random.Random(SEED)
    actions = []
    while state.result is None:
        actions.append(rng.choice(state.legal_actions()))
        state.apply(actions[-1])
    return actions, state.result


class Scripted:
    def __init__(self, actions: list[Any]) -> None:
        self.actions = iter(actions)

    def choose(self, observation: object) -> Any:
        return next(self.actions)

    def rejected(self, error: Exception) -> None:
        raise error


class Ending(MatchListener):
    result: Result | None = None

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        self.result = result


def test_a_plain_apply_sequence_ends_by_repetition() -> None:
    _, result = _random_actions(repeat_limit=2)
    assert result.reason == "repetition" and result.details["stalemate"] is True


def test_the_match_loop_ends_by_repetition_with_the_same_result() -> None:
    actions, result = _random_actions(repeat_limit=2)
    state = cardtable.load_game("obsession", players=2, repeat_limit=2).new_state(SEED)
    script = Scripted(actions)
    ending = Ending()
    assert play_match(state, {"P1": script, "P2": script}, (ending,)) == result
    assert ending.result == result


def test_a_restored_position_reaches_the_same_repetition() -> None:
    game = cardtable.load_game("obsession", players=2, repeat_limit=2)
    actions, result = _random_actions(repeat_limit=2)
    state = game.new_state(SEED)
    for action in actions[:-5]:
        state.apply(action)
    restored = game.state_from_position(state.to_position())
    for action in actions[-5:]:
        restored.apply(action)
    assert restored.result == result


def test_seats_played_by_people_switch_the_guard_off_while_they_play() -> None:
    actions, _ = _random_actions(repeat_limit=2)
    state = cardtable.load_game("obsession", players=2, repeat_limit=2,
                                humans=2).new_state(SEED)
    for action in actions:
        state.apply(action)
    assert state.result is None or state.result.reason != "repetition"


def test_defaults_guard_bots_only_games_at_three_and_cap_at_5000_plays() -> None:
    game = cardtable.load_game("obsession")
    assert (game.rules.repeat_limit, game.rules.max_plays, game.humans) == (3, 5000, 0)
    off = cardtable.load_game("obsession", players=2, repeat_limit=0)
    state = off.new_state(SEED)
    for action in _random_actions(repeat_limit=2)[0]:
        state.apply(action)
    assert state.result is None or state.result.reason != "repetition"


def test_the_play_cap_ends_a_plain_apply_sequence() -> None:
    state = cardtable.load_game("obsession", players=4, max_plays=30).new_state(1)
    rng = random.Random(1)
    while state.result is None:
        state.apply(rng.choice(state.legal_actions()))
    assert state.result.reason == "cap" and state.result.details["plays"] == 30
