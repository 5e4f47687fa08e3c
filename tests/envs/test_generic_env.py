"""``cardtable.envs.env(name)``: one environment for every game, made from its description
(parameters for bots, places, ``stopped``) and the part the description names (encoder,
text, rewards, step cap); PettingZoo's own checks pass through it for cardtable's games."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import cardtable.envs
from cardtable.engine.description import GameDescription
from cardtable.engine.errors import GameParamsError
from cardtable.engine.game_registry import register, unregister
from cardtable.engine.protocol import Result
from cardtable.envs.aec import CardTableEnv
from cardtable.envs.obsession_encoding import ObsessionEncoder
from cardtable.envs.parts import MAX_STEPS
from cardtable.envs.rewards import place_rewards, shared_places
from cardtable.games.obsession.description import ObsessionDescription

OWN_GAMES = ["caravan", "obsession", "austerity"]
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "Action mask numpy array is all zeros",  # a finished seat's observation: no legal action
)


class MinimalPart:
    """A part with nothing but its encoder: the rest is the environment's default."""

    def encoder(self, game: Any) -> ObsessionEncoder:
        return ObsessionEncoder(game)


class ChipsPart(MinimalPart):
    max_steps = 3

    def rewards(self, game: Any, result: Result) -> list[float]:
        return [2.0] + [-2.0 / (len(game.seats) - 1)] * (len(game.seats) - 1)


MINIMAL = MinimalPart()
CHIPS = ChipsPart()


class Backwards(ObsessionDescription):
    """Obsession with its places upside down, whose part is :data:`MINIMAL`."""

    name = "backwards"
    title = "Backwards"
    rl_environment = f"{__name__}:MINIMAL"

    def places(self, result: Result, seats: Sequence[str]) -> list[int]:
        return [len(seats) - 1 - place for place in super().places(result, seats)]

    def seat_view(self, state: Any, seat: str) -> dict[str, Any]:
        return {"seat": seat, "hand": len(state.observation(seat).hand)}


class Chips(ObsessionDescription):
    name = "chips"
    rl_environment = f"{__name__}:CHIPS"


class NoVector(GameDescription):
    name = "no_vector"


@pytest.fixture
def registered() -> Iterator[None]:
    games = [Backwards(), Chips(), NoVector()]
    for game in games:
        register(game)
    yield
    for game in games:
        unregister(game.name)


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught
            if not any(text in str(w.message) for text in EXPECTED_WARNINGS)]


@pytest.mark.parametrize("name", OWN_GAMES)
def test_api_test_through_the_generic_factory(name: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(cardtable.envs.env(name), num_cycles=300)
    assert _unexpected(caught) == []


@pytest.mark.parametrize("name", OWN_GAMES)
def test_seed_test_through_the_generic_factory(name: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seed_test(lambda: cardtable.envs.env(name), num_cycles=200)
    assert _unexpected(caught) == []


def test_the_named_modules_are_the_generic_environment() -> None:
    from cardtable.envs import austerity_v0, caravan_v0, obsession_v0

    for name, module in zip(OWN_GAMES, (caravan_v0, obsession_v0, austerity_v0), strict=True):
        raw = cardtable.envs.raw_env(name)
        named = module.raw_env()
        assert type(raw) is CardTableEnv and isinstance(named, CardTableEnv)
        assert raw.metadata["name"] == named.metadata["name"] == f"{name}_v0"
        assert raw.game == named.game and raw.max_steps == named.max_steps
        assert str(cardtable.envs.env(name)) == f"{name}_v0"
    assert set(OWN_GAMES) <= set(cardtable.envs.environments())


def test_defaults_come_from_the_description_and_its_part() -> None:
    caravan = cardtable.envs.raw_env("caravan")
    assert caravan.game.rules.stuck_plies == 1000  # bot_params
    assert caravan.max_steps == MAX_STEPS
    assert cardtable.envs.raw_env("austerity").game.deal == "shuffled"  # table_params
    assert cardtable.envs.raw_env("obsession").max_steps is None  # the part's max_steps
    assert cardtable.envs.raw_env("obsession", max_steps=50).max_steps == 50


def test_a_game_without_an_encoder_is_refused_clearly(registered: None) -> None:
    assert "no_vector" not in cardtable.envs.environments()
    with pytest.raises(GameParamsError, match=r"^The game 'no_vector' has no "
                       r"reinforcement-learning environment: its description names no encoder "
                       r"\(rl_environment; see docs/rl\.md\)\.$"):
        cardtable.envs.env("no_vector")
    with pytest.raises(GameParamsError, match=r"^Unknown game 'chess'"):
        cardtable.envs.raw_env("chess")


def _finals(env: CardTableEnv, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = random.Random(seed)
    finals: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            finals[agent] = reward
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return finals


def test_rewards_follow_the_description_s_places(registered: None) -> None:
    env = cardtable.envs.raw_env("backwards", players=3)
    assert env.max_steps == MAX_STEPS
    finals = _finals(env, 5)
    placings = env.state.result.details["placings"]
    assert [finals[f"player_{number - 1}"] for number in placings] == [-1.0, 0.0, 1.0]


def test_a_part_s_own_rewards_and_step_cap(registered: None) -> None:
    env = cardtable.envs.raw_env("chips", players=3)
    assert env.max_steps == 3
    env.reset(seed=1)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert all(env.truncations.values())  # the cap: no result, rewards 0
    assert env._cumulative_rewards == dict.fromkeys(env.possible_agents, 0.0)
    longer = cardtable.envs.raw_env("chips", players=3, max_steps=None)
    finals = _finals(longer, 2)
    assert finals == {"player_0": 2.0, "player_1": -1.0, "player_2": -1.0}


def test_the_generic_text_is_the_seat_s_view(registered: None) -> None:
    env = cardtable.envs.raw_env("backwards", render_mode="ansi")
    env.reset(seed=3)
    seat = env.state.to_move
    text = env.render()
    assert isinstance(text, str)
    assert text.splitlines()[0] == f'seat: "{seat}"'
    assert text.splitlines()[-1] == f"{seat} to move."


def test_stopped_games_are_truncations() -> None:
    from cardtable.engine.game_registry import description

    caravan, obsession = description("caravan"), description("obsession")
    assert caravan.stopped(Result((), "quit", {"cause": "stalemate"}))
    assert not caravan.stopped(Result((), "quit", {"cause": "left"}))
    assert obsession.stopped(Result((), "cap", {"placings": [1, 2], "stalemate": True}))
    assert not obsession.stopped(Result(("P1",), "out", {"placings": [1, 2],
                                                        "stalemate": False}))
    assert not description("austerity").stopped(Result(("A",), "points", {"points": [15, 3]}))


def test_tied_places_share_the_mean_of_their_places() -> None:
    assert shared_places([0, 0, 2]) == [0.5, 0.5, 2.0]
    assert place_rewards([0, 0, 2]) == [0.5, 0.5, -1.0]
    assert place_rewards([0, 1, 1, 1]) == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])
    assert place_rewards([0, 0]) == [0.0, 0.0]
    assert sum(place_rewards([2, 0, 0, 3, 3])) == pytest.approx(0.0)
