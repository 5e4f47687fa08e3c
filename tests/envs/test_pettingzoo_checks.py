"""PettingZoo's own checks (api_test, seed_test, render_test) on every environment, under
several rule sets; they must pass without warnings other than the two every environment with
dict observations gets (PettingZoo exempts its own classic games from them by name)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
from pettingzoo.test import api_test, render_test, seed_test

from cardtable.envs import austerity_v0, caravan_v0, obsession_v0

EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "Action mask numpy array is all zeros",  # a finished seat's observation: no legal action
)

CASES: list[tuple[Any, dict[str, Any]]] = [
    (caravan_v0, {}),
    (caravan_v0, {"rules": "nv"}),
    (caravan_v0, {"rules": "foxon", "max_steps": 400}),
    (caravan_v0, {"rules": "karavane"}),
    (caravan_v0, {"opening_mode": "simultaneous"}),
    (obsession_v0, {}),
    (obsession_v0, {"players": 2}),
    (obsession_v0, {"players": 7, "max_plays": 150}),
    (austerity_v0, {}),
    (austerity_v0, {"players": 4, "points": 6}),
    (austerity_v0, {"deal": "file"}),
]
IDS = [f"{module.__name__.rsplit('.', 1)[1]}-{params}" for module, params in CASES]


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught
            if not any(text in str(w.message) for text in EXPECTED_WARNINGS)]


@pytest.mark.parametrize(("module", "params"), CASES, ids=IDS)
def test_api_test(module: Any, params: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(module.env(**params), num_cycles=400)
    assert _unexpected(caught) == []


@pytest.mark.parametrize(("module", "params"), CASES, ids=IDS)
def test_seed_test(module: Any, params: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seed_test(lambda: module.env(**params), num_cycles=300)
    assert _unexpected(caught) == []


@pytest.mark.parametrize(("module", "params"), CASES[:1] + CASES[5:6] + CASES[8:9],
                         ids=IDS[:1] + IDS[5:6] + IDS[8:9])
def test_render_test(module: Any, params: dict[str, Any], capsys: pytest.CaptureFixture[str]
                     ) -> None:
    make: Callable[..., Any] = lambda render_mode=None: module.env(  # noqa: E731
        render_mode=render_mode, **params)
    render_test(make)
    # "human" prints the same text "ansi" returns.
    assert capsys.readouterr().out.strip()


def test_raw_env_is_unwrapped_and_env_is_wrapped_as_the_classic_games() -> None:
    from pettingzoo.utils import wrappers

    wrapped = caravan_v0.env()
    assert isinstance(wrapped, wrappers.OrderEnforcingWrapper)
    assert isinstance(wrapped.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(wrapped.env.env, wrappers.TerminateIllegalWrapper)
    assert isinstance(wrapped.unwrapped, caravan_v0.raw_env)
    assert str(wrapped) == "caravan_v0"


def test_wrapped_env_refuses_calls_before_reset() -> None:
    wrapped = obsession_v0.env()
    for name in ("agents", "agent_selection", "terminations", "rewards", "num_agents"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(wrapped, name)
    with pytest.raises(Exception, match="reset"):
        wrapped.step(0)
    wrapped.reset(seed=1)
    assert wrapped.agents == wrapped.unwrapped.agents
    assert wrapped.agent_selection == wrapped.unwrapped.agent_selection


def test_wrapped_env_asserts_actions_outside_the_space() -> None:
    wrapped = austerity_v0.env()
    wrapped.reset()
    with pytest.raises(AssertionError, match="action space"):
        wrapped.step(13)


def test_environments_pickle_mid_game() -> None:
    """Vectorised trainers send environments to worker processes."""
    import pickle

    import numpy as np

    for module in (caravan_v0, obsession_v0, austerity_v0):
        env = module.env()
        env.reset(seed=3)
        copy = pickle.loads(pickle.dumps(env))
        assert np.array_equal(env.last()[0]["observation"], copy.last()[0]["observation"])
        assert copy.agent_selection == env.agent_selection
