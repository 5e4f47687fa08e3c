"""``cardtable.envs.single_agent``: Gymnasium's env_checker, masks, bots, rewards, refusals."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardtable.envs import single_agent

CASES = [("caravan", "normal", {}), ("caravan", "friendly", {"rules": "nv"}),
         ("obsession", "normal", {}), ("obsession", ["random", "obsessed"], {"players": 3}),
         ("austerity", "normal", {}), ("austerity", ["banzai", "ed", "random"],
                                       {"players": 4})]


@pytest.mark.parametrize(("game", "opponents", "params"), CASES)
def test_check_env(game: str, opponents: str | list[str], params: dict[str, object]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(single_agent(game, opponents, **params))
        check_env(single_agent(game, opponents, render_mode="ansi", **params))
    assert [str(w.message) for w in caught
            if "alternative render modes" not in str(w.message)] == []


@pytest.mark.parametrize(("game", "opponents", "params"), CASES)
def test_masked_random_episodes_end_with_the_final_reward(
        game: str, opponents: str | list[str], params: dict[str, object]) -> None:
    env = single_agent(game, opponents, **params)
    rng = np.random.default_rng(1)
    players = len(env.aec.possible_agents)
    for episode in range(4):
        obs, info = env.reset(seed=episode)
        assert env.observation_space.contains(obs)
        done = False
        reward = 0.0
        while not done:
            mask = env.action_masks()
            assert mask.dtype == bool and mask.any()
            assert np.array_equal(info["action_mask"].astype(bool), mask)
            assert bytes(info["action_mask"].astype(np.uint8)) == env.aec.state.legal_mask()
            assert env.aec.state.to_move == env.aec.seat_names[env.seat]
            obs, reward, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(mask))))
            assert env.observation_space.contains(obs)
            done = terminated or truncated
            if not done:
                assert reward == 0.0
        assert -1.0 <= reward <= 1.0
        if players == 2 and env.aec.state.result is not None:
            assert reward in (-1.0, 0.0, 1.0)
        assert "result" in info or truncated


def test_learner_seat_and_bot_seeding() -> None:
    env = single_agent("caravan", "random", seat=1)
    obs, _info = env.reset(seed=3)
    assert env.aec.state.to_move == "DEF"
    assert obs[0] == 1  # the vector's observer entry
    again, _ = single_agent("caravan", "random", seat=1).reset(seed=3)
    assert np.array_equal(obs, again)


def test_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = single_agent("caravan", illegal_reward=-2)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_bad_arguments_are_refused_with_one_line() -> None:
    with pytest.raises(ValueError, match="Unknown bot 'nobody'"):
        single_agent("caravan", "nobody")
    with pytest.raises(ValueError, match="needs 3 opponents"):
        single_agent("obsession", ["random"], players=4)
    with pytest.raises(ValueError, match="seat must be"):
        single_agent("caravan", seat=2)
    from cardtable.engine.errors import GameParamsError

    with pytest.raises(GameParamsError, match="Unknown game"):
        single_agent("chess")


def test_single_agent_is_still_the_function_after_a_first_environment() -> None:
    import cardtable.envs

    cardtable.envs.single_agent("caravan").close()
    from cardtable.envs import single_agent as again

    assert again is single_agent and cardtable.envs.single_agent is single_agent
