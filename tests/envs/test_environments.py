"""The AEC environments' own rules: agents and seats, masks equal to the game's, observations
in bounds and built from what the seat sees, rewards, truncation, illegal actions, seeding."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine.errors import GameParamsError
from cardtable.envs import austerity_v0, caravan_v0, obsession_v0
from cardtable.envs.aec import CardTableEnv
from cardtable.envs.caravan_encoding import CaravanEncoder, feature_names

MODULES = {"caravan": caravan_v0, "obsession": obsession_v0, "austerity": austerity_v0}


def play(env: CardTableEnv, rng: random.Random, check: Any = None, limit: int = 100_000
         ) -> int:
    """Masked random actions until every agent is done; ``check(env, agent, obs)`` before each
    action. Returns the number of actions."""
    steps = 0
    for agent in env.agent_iter(limit):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if check is not None:
            check(env, agent, obs)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    return steps


def _check_against_state(env: CardTableEnv, agent: str, obs: dict[str, np.ndarray]) -> None:
    state = env.state
    seat = env.possible_agents.index(agent)
    assert state.to_move == env.seat_names[seat]
    assert obs["action_mask"].dtype == np.int8
    assert bytes(obs["action_mask"].astype(np.uint8)) == state.legal_mask()
    assert env.observation_space(agent).contains(obs)
    for other in env.possible_agents:
        if other != agent:
            assert not env.observe(other)["action_mask"].any()


@pytest.mark.parametrize("params", [
    {"rules": "power"}, {"rules": "nv"}, {"rules": "foxon"}, {"rules": "karavane"},
    {"abc": {"clear_policy": "destroy_restart"}, "def": {"hand_size": 6}},
    {"rules": "foxon", "def": {"clear_policy": "clear", "max_numerals": 3}},
    {"opening_mode": "simultaneous", "jack_is_joker_without_jokers": True,
     "jokers_per_sample": 0, "deck_size": 52},
], ids=repr)
def test_caravan_mask_and_bounds_under_every_preset(params: dict[str, Any]) -> None:
    env = caravan_v0.raw_env(max_steps=600, **params)
    for seed in range(3):
        env.reset(seed=seed)
        play(env, random.Random(seed), _check_against_state)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32))
def test_obsession_mask_and_bounds_for_any_number_of_players(players: int, seed: int) -> None:
    env = obsession_v0.raw_env(players=players, max_plays=300)
    env.reset(seed=seed)
    play(env, random.Random(seed), _check_against_state)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_austerity_mask_and_bounds(players: int, seed: int) -> None:
    env = austerity_v0.raw_env(players=players, points=8)
    env.reset(seed=seed)
    play(env, random.Random(seed), _check_against_state)


@pytest.mark.parametrize("game", ["caravan", "obsession"])
def test_observation_shows_nothing_the_seat_cannot_see(game: str) -> None:
    """A sampled world agrees with everything a seat sees and differs in what it cannot see:
    the seat's observation vector and mask must not tell them apart."""
    env = MODULES[game].raw_env()
    env.reset(seed=11)
    rng = random.Random(3)
    for _ in range(25):
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        real = {name: env.observe(name) for name in env.possible_agents}
        state = env.state
        for world_seed in range(3):
            env.state = state.sample_world(seat, world_seed)
            seen = env.observe(agent)
            assert np.array_equal(seen["observation"], real[agent]["observation"])
            assert np.array_equal(seen["action_mask"], real[agent]["action_mask"])
        env.state = state
        env.step(rng.choice(np.flatnonzero(real[agent]["action_mask"]).tolist()))
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break


def test_caravan_opponent_hand_is_not_in_the_vector() -> None:
    env = caravan_v0.raw_env()
    env.reset(seed=5)
    before = env.observe("player_0")["observation"]
    other_hand = env.state.hands[1]
    other_hand[0], other_hand[-1] = other_hand[-1], other_hand[0]
    env.state.decks[1].reverse()
    assert np.array_equal(env.observe("player_0")["observation"], before)


def test_caravan_vector_entries_follow_the_table() -> None:
    env = caravan_v0.raw_env(rules="power")
    env.reset(seed=7)
    names = env.encoder.names
    assert names == feature_names(8, 8)
    assert len(names) == env.encoder.size == len(set(names))
    state = env.state
    mover = state.turn
    card = next(card for card in state.hands[mover] if card & 15 <= 10)
    position = state.hands[mover].index(card) + 1
    caravan = "ABC"[0] if mover == 0 else "D"
    move = state.parse_action(f"P{position}{caravan}")
    agent = env.agent_selection
    env.step(state.action_index(move))
    vector = dict(zip(names, env.observe(agent)["observation"].tolist(), strict=True))
    assert vector["observer"] == mover
    assert vector[f"{caravan}1.rank"] == card & 15
    assert vector[f"{caravan}1.suit"] == ((card >> 4) & 7) + 1
    assert vector[f"{caravan}.size"] == 1
    assert vector[f"{caravan}.value"] == card & 15
    assert vector["my_turn"] == (1 if state.turn == mover else 0)


def test_caravan_hidden_opening_numerals_are_shown_as_hidden() -> None:
    env = caravan_v0.raw_env(opening_mode="simultaneous")
    env.reset(seed=2)
    first = env.agent_selection
    seat = env.possible_agents.index(first)
    env.step(int(np.flatnonzero(env.observe(first)["action_mask"])[0]))
    other = env.possible_agents[1 - seat]
    names = env.encoder.names
    own_caravan = "ABC"[0] if seat == 0 else "D"
    seen_by_other = dict(zip(names, env.observe(other)["observation"].tolist(), strict=True))
    seen_by_mover = dict(zip(names, env.observe(first)["observation"].tolist(), strict=True))
    assert seen_by_other[f"{own_caravan}1.rank"] == 15
    assert 1 <= seen_by_mover[f"{own_caravan}1.rank"] <= 10


def test_agents_follow_the_seat_to_move_including_extra_plays() -> None:
    """Obsession gives a seat another play after a kill or a ten: agent_selection stays on it."""
    repeats = 0
    env = obsession_v0.raw_env(players=3)
    for seed in range(6):
        env.reset(seed=seed)
        rng = random.Random(seed)
        previous = None
        for agent in env.agent_iter():
            obs, _r, terminated, truncated, _i = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert env.seat_names[env.possible_agents.index(agent)] == env.state.to_move
            repeats += agent == previous
            previous = agent
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert repeats > 0


def test_two_player_rewards_are_plus_and_minus_one() -> None:
    env = caravan_v0.raw_env()
    outcomes = set()
    for seed in range(8):
        env.reset(seed=seed)
        rng = random.Random(seed)
        finals: dict[str, float] = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                finals[agent] = reward
                assert info["result"] == env.state.result.reason
                env.step(None)
                continue
            assert reward == 0
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        winners = env.state.result.winners
        expected = {agent: (1.0 if seat in winners else -1.0) if winners else 0.0
                    for agent, seat in zip(env.possible_agents, env.seat_names, strict=True)}
        assert finals == expected
        outcomes.add(tuple(sorted(finals.values())))
    assert (-1.0, 1.0) in outcomes


def test_obsession_rewards_follow_the_placings() -> None:
    env = obsession_v0.raw_env(players=4)
    env.reset(seed=4)
    finals: dict[str, float] = {}
    rng = random.Random(4)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            finals[agent] = reward
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    placings = env.state.result.details["placings"]
    by_place = [finals[f"player_{number - 1}"] for number in placings]
    assert by_place == pytest.approx([1.0, 1 / 3, -1 / 3, -1.0])


def test_austerity_ties_share_their_places() -> None:
    from cardtable.engine.protocol import Result
    from cardtable.envs.parts import final_rewards, part_of

    described, part = part_of("austerity")
    game = cardtable.load_game("austerity", players=3)
    result = Result(("A", "B"), "points", {"points": [7, 7, 2]})
    assert final_rewards(described, part, game, result, game.seats) == pytest.approx(
        [0.5, 0.5, -1.0])
    two = cardtable.load_game("austerity", players=2)
    assert final_rewards(described, part, two, Result(("A", "B"), "points", {"points": [3, 3]}),
                         two.seats) == [0.0, 0.0]


def test_austerity_seeded_resets_deal_shuffled_games() -> None:
    def decks(env: CardTableEnv, seeds: list[int | None]) -> list[tuple[str, ...]]:
        dealt = []
        for seed in seeds:
            env.reset(seed=seed)
            dealt.append(tuple(card.text() for card in env.state.setup[0]))
        return dealt

    env = austerity_v0.raw_env()
    assert env.game.deal == "shuffled"
    first = decks(env, [1, None, None])
    assert decks(env, [1, None, None]) == first  # the same seed deals the same games
    assert len(set(first + decks(env, [2, 3]))) == 5
    in_order = austerity_v0.raw_env(deal="file")
    file_order = tuple(card.text() for card in in_order.game.deck)
    assert set(decks(in_order, [1, 2, None])) == {file_order}


def test_max_steps_truncates_with_zero_rewards() -> None:
    env = caravan_v0.raw_env(max_steps=5)
    env.reset(seed=1)
    rng = random.Random(1)
    for _ in range(5):
        obs = env.observe(env.agent_selection)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert env.state.result is None
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.infos == {agent: {"result": "max_steps", "winners": []}
                         for agent in env.possible_agents}
    assert env._cumulative_rewards == dict.fromkeys(env.possible_agents, 0.0)
    assert play(env, rng) == 0
    assert env.agents == []


def test_caravan_idle_game_is_truncated_as_a_stalemate() -> None:
    """Moves that change no caravan (discards) for ``stuck_plies`` moves stop the game: a
    truncation with 0 for both seats."""
    from cardtable.games.caravan.action_index import layout

    env = caravan_v0.raw_env(stuck_plies=3)
    env.reset(seed=2)
    lay = layout(env.game.rules)
    discards = range(lay.discard_base, lay.clear_base)
    rng = random.Random(2)
    while not any(env.truncations.values()) and not any(env.terminations.values()):
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist()
        chosen = [index for index in legal if index in discards] or legal
        env.step(rng.choice(chosen))
    assert env.state.result is not None and env.state.result.details["cause"] == "stalemate"
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.infos == {agent: {"result": "stalemate", "winners": []}
                         for agent in env.possible_agents}
    assert env._cumulative_rewards == dict.fromkeys(env.possible_agents, 0.0)


def test_caravan_environments_stop_stuck_games_by_default() -> None:
    assert caravan_v0.raw_env().game.rules.stuck_plies == 1000
    assert caravan_v0.raw_env(stuck_plies=None).game.rules.stuck_plies is None


def test_obsession_rule_cap_is_a_truncation() -> None:
    env = obsession_v0.raw_env(players=4, max_plays=12)
    env.reset(seed=3)
    rng = random.Random(3)
    seen = []
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            seen.append((terminated, truncated, info["result"], reward))
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert {(t, u, r) for t, u, r, _ in seen} == {(False, True, "cap")}
    assert sum(reward for *_, reward in seen) == pytest.approx(0.0)


def test_illegal_action_raw_refuses_wrapped_ends_the_game() -> None:
    raw = caravan_v0.raw_env()
    raw.reset(seed=1)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="Illegal action"):
        raw.step(illegal)
    assert raw.steps == 0
    wrapped = caravan_v0.env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    wrapped.last()
    wrapped.step(illegal)
    assert wrapped.rewards[agent] == -1
    assert all(wrapped.terminations.values())


def test_same_seed_same_games_and_resets_deal_new_games() -> None:
    first, second = caravan_v0.raw_env(), caravan_v0.raw_env()
    first.reset(seed=9)
    second.reset(seed=9)
    assert first.state.to_position() == second.state.to_position()
    first.reset()
    assert first.state.to_position() != second.state.to_position()
    second.reset()
    assert first.state.to_position() == second.state.to_position()


def test_game_params_reach_the_game_and_bad_ones_are_refused() -> None:
    seat_rule: dict[str, Any] = {"abc.max_faces": 2}
    env = caravan_v0.raw_env(rules="nv", **seat_rule)
    assert env.game == cardtable.load_game("caravan", rules="nv", abc={"max_faces": 2},
                                           stuck_plies=1000)
    assert env.action_spaces["player_0"].n == 7742
    assert obsession_v0.raw_env(players=6).possible_agents == [f"player_{i}" for i in range(6)]
    with pytest.raises(GameParamsError):
        caravan_v0.raw_env(max_faces=0)
    with pytest.raises(ValueError, match="render_mode"):
        caravan_v0.raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_steps"):
        austerity_v0.raw_env(max_steps=0)


def test_ansi_render_is_the_board_of_the_seat_to_move() -> None:
    env = caravan_v0.raw_env(render_mode="ansi")
    env.reset(seed=7)
    text = env.render()
    assert isinstance(text, str)
    assert "ABC (" in text and "DEF (" in text and "### ###" in text
    assert text.endswith("ABC to move.")
    austerity = austerity_v0.raw_env(render_mode="ansi")
    austerity.reset()
    assert str(austerity.render()).splitlines()[-1] == "Player A to move."
    obsession = obsession_v0.raw_env(render_mode="ansi")
    obsession.reset(seed=1)
    assert "### Hand:" in str(obsession.render())


def test_caravan_encoder_names_match_its_size_for_long_caravans() -> None:
    encoder = CaravanEncoder(cardtable.load_game("caravan", rules="nv"))
    assert len(encoder.names) == encoder.size == encoder.high.shape[0]
    assert encoder.slots == 12


def test_caravan_slot_features_count_faces_by_kind() -> None:
    from cardtable.envs.caravan_encoding import _slot_features
    from cardtable.games.caravan.cards import JACK, JOKER, KING, QUEEN, make

    seven = make(7, 0)
    faces = (make(KING, 3), make(QUEEN, 1), make(JOKER, 4), make(JACK, 2), make(KING, 0))
    # rank, suit + 1, kings, queens, jokers (a Jack attached plays as a Joker), queen suit + 1
    assert _slot_features(seven, faces) == (7, 1, 2, 1, 2, 2)
    assert _slot_features(make(10, 3, owner=1, sample=2), ()) == (10, 4, 0, 0, 0, 0)
