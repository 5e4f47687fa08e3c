"""``cardtable.envs.env("kuhn_poker")``: the generic PettingZoo environment of a game from
outside passes PettingZoo's own checks, and plays Kuhn poker's rules."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

import cardtable.envs

EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "Action mask numpy array is all zeros",  # a finished seat's observation: no legal action
)


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught
            if not any(text in str(w.message) for text in EXPECTED_WARNINGS)]


def test_api_test() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(cardtable.envs.env("kuhn_poker"), num_cycles=400)
    assert _unexpected(caught) == []


def test_seed_test() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seed_test(lambda: cardtable.envs.env("kuhn_poker"), num_cycles=300)
    assert _unexpected(caught) == []


def test_a_game_through_the_environment_pays_the_chips() -> None:
    """P1 bets, P2 calls: a showdown for 2 chips, the rewards are the chips (in -2..2)."""
    env = cardtable.envs.env("kuhn_poker")
    env.reset(seed=4)
    assert env.agents == ["player_0", "player_1"]
    for agent in ("player_0", "player_1"):
        assert env.agent_selection == agent
        observation = env.last()[0]
        assert list(observation["action_mask"]) == [1, 1]
        env.step(1)  # OpenSpiel's action 1: bet, then call
    rewards = {agent: env.rewards[agent] for agent in env.possible_agents}
    assert sorted(abs(value) for value in rewards.values()) == [2, 2]
    assert sum(rewards.values()) == 0
    assert all(env.terminations.values())
