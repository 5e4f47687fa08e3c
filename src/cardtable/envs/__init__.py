"""Reinforcement-learning environments for every game (the optional extra ``rl``).

- :func:`env` and :func:`raw_env`: the PettingZoo AEC environment of any registered game whose
  description names an environment part (:mod:`cardtable.envs.parts`), wrapped as
  PettingZoo's classic games are or not; :func:`environments` lists those games.
  ``cardtable.envs.caravan_v0``, ``obsession_v0`` and ``austerity_v0`` are the same for
  cardtable's own games under PettingZoo-style names.
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
    from pettingzoo import AECEnv

    from cardtable.envs.aec import CardTableEnv
    from cardtable.envs.single_agent_env import SingleAgentEnv

__all__ = ["env", "environments", "raw_env", "single_agent"]


def raw_env(name: str, render_mode: str | None = None, max_steps: int | None = -1,
            **params: Any) -> CardTableEnv:
    """The game ``name`` as an unwrapped AEC environment: ``params`` are its parameters for
    ``cardtable.load_game``, ``render_mode`` ``"ansi"``, ``"human"`` or None, ``max_steps``
    the actions after which an episode is truncated (not given: the game's default; None:
    never). An unknown game, or one without an environment part, raises
    :class:`~cardtable.engine.errors.GameParamsError`."""
    from cardtable.envs.aec import CardTableEnv

    return CardTableEnv(name, render_mode=render_mode, max_steps=max_steps, **params)


def env(name: str, **params: Any) -> AECEnv:
    """:func:`raw_env` wrapped as PettingZoo's classic games are (an illegal action ends the
    game with -1 for its agent; see :func:`cardtable.envs.aec.wrap`)."""
    from cardtable.envs.aec import wrap

    return wrap(raw_env(name, **params))


def environments() -> tuple[str, ...]:
    """The names of the games that have an environment, in the registry's order."""
    from cardtable.envs.parts import environments as named

    return named()


def single_agent(game: str, opponents: str | list[str] = "normal", **params: Any
                 ) -> SingleAgentEnv:
    """A Gymnasium environment: one seat of ``game`` learns against built-in bots (see
    :class:`cardtable.envs.single_agent_env.SingleAgentEnv`)."""
    from cardtable.envs.single_agent_env import SingleAgentEnv

    return SingleAgentEnv(game, opponents, **params)
