"""Reinforcement-learning environments for every game (the optional extra ``rl``).

- ``cardtable.envs.caravan_v0``, ``obsession_v0``, ``austerity_v0``: PettingZoo AEC
  environments, each with ``env(**params)`` (wrapped as PettingZoo's classic games are) and
  ``raw_env(**params)``.
- :func:`single_agent`: a Gymnasium environment in which one seat learns against built-in bots.

docs/rl.md describes the observations, rewards and how to train with RLlib or sb3-contrib.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"cardtable.envs needs the 'rl' extra ({error.name} is missing): "
        "pip install 'cardtable[rl]'"
    ) from None

if TYPE_CHECKING:
    from cardtable.envs.single_agent_env import SingleAgentEnv

__all__ = ["ENVIRONMENTS", "single_agent"]

ENVIRONMENTS = {"caravan": "caravan_v0", "obsession": "obsession_v0",
                "austerity": "austerity_v0"}
"""Each game's environment module in this package."""


def single_agent(game: str, opponents: str | list[str] = "normal", **params: Any
                 ) -> SingleAgentEnv:
    """A Gymnasium environment: one seat of ``game`` learns against built-in bots (see
    :class:`cardtable.envs.single_agent_env.SingleAgentEnv`)."""
    from cardtable.envs.single_agent_env import SingleAgentEnv

    return SingleAgentEnv(game, opponents, **params)
