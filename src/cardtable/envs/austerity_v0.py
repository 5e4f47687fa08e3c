"""Austerity as a PettingZoo AEC environment under its PettingZoo-style name: ``raw_env(**params)``
is ``cardtable.envs.raw_env("austerity", **params)`` and ``env(**params)`` the same wrapped as
PettingZoo's classic games are. Its part (encoder, text, step cap) is named by the game's
description (:mod:`cardtable.envs.austerity_part`); docs/rl.md describes it.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from cardtable.envs.aec import DEFAULT, CardTableEnv, wrap


class raw_env(CardTableEnv):
    """Austerity as an unwrapped AEC environment."""

    def __init__(self, render_mode: str | None = None, max_steps: int | None = DEFAULT,
                 **params: Any) -> None:
        super().__init__("austerity", render_mode=render_mode, max_steps=max_steps, **params)


def env(**params: Any) -> AECEnv:
    """Austerity wrapped as PettingZoo's classic games are (see :func:`cardtable.envs.aec.wrap`)."""
    return wrap(raw_env(**params))
