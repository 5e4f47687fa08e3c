"""docs/rl.md's training snippets run with the libraries they name: sb3-contrib's MaskablePPO
learns on ``single_agent`` (a short run) and RLlib's ``PettingZooEnv`` wraps the AEC
environment with the key renaming the page shows, through a whole game of legal actions."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def snippet(heading: str) -> str:
    """The first Python block after ``heading`` on the page."""
    section = PAGE.read_text().split(f"## {heading}\n", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None, heading
    return match.group(1)


def test_maskable_ppo_learns_and_predicts_a_legal_action() -> None:
    import torch

    # One thread: the suite's other processes have the machine's other cores.
    torch.set_num_threads(1)
    code = snippet("Training with sb3-contrib (MaskablePPO)")
    assert "total_timesteps=200_000" in code
    namespace: dict[str, Any] = {}
    exec(code.replace("total_timesteps=200_000", "total_timesteps=64")
         .replace("verbose=1", "verbose=0"), namespace)
    model, env = namespace["model"], namespace["env"]
    assert model.num_timesteps >= 64
    action = int(namespace["action"])
    assert env.action_masks()[action]
    env.close()


def test_rllib_wrapper_renames_every_observation() -> None:
    namespace: dict[str, Any] = {}
    exec(snippet("Training with RLlib"), namespace)
    from cardtable.envs import caravan_v0

    env = namespace["RenamedObservations"](caravan_v0.env(rules="power"))
    assert set(env.observation_space.spaces) == {"player_0", "player_1"}
    for space in env.observation_space.spaces.values():
        assert set(space.spaces) == {"observations", "action_mask"}
    rng = np.random.default_rng(3)
    for seed in (3, 4):
        observations, _infos = env.reset(seed=seed)
        moves = 0
        terminations = {"__all__": False}
        while True:
            for agent, observation in observations.items():
                assert set(observation) == {"observations", "action_mask"}
                assert env.observation_space[agent].contains(observation)
            if terminations["__all__"]:
                break
            ((agent, observation),) = observations.items()
            legal = np.flatnonzero(observation["action_mask"])
            observations, _rewards, terminations, _truncations, _infos = env.step(
                {agent: int(rng.choice(legal))})
            moves += 1
        assert moves > 10 and set(observations) == {"player_0", "player_1"}
