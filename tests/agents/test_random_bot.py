"""The ``random`` seat that works for any game (``cardtable.agents.random_bot``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.agents.random_bot import RandomBot, make_random_bot, observed_legal_actions
from cardtable.agents.registry import bot_names, make_seat
from cardtable.engine import play_match
from cardtable.games.caravan.bots import RandomBot as CaravanRandomBot
from cardtable.games.caravan.bots import make_bot as caravan_bot
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.state import CaravanState as CaravanGame

PRESETS = ["power", "karavane", "foxon", "nv"]


def test_every_game_has_a_random_seat() -> None:
    for name in cardtable.games():
        assert "random" in bot_names(name)


def test_a_game_that_has_its_own_random_bot_keeps_it() -> None:
    seat = make_seat(cardtable.load_game("caravan"), "random", "ABC", 3)
    assert isinstance(seat, CaravanRandomBot)
    seat = make_seat(cardtable.load_game("austerity"), "random", "A", 3)
    assert isinstance(seat, RandomBot)


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**31))
def test_on_caravan_it_makes_the_caravan_random_bots_choices(preset: str, seed: int) -> None:
    """Same generator, same canonical list: the shared bot plays Caravan's own bot's game."""
    rules = SeatRules.preset(preset)
    ours, theirs = CaravanGame.new(rules, seed=seed), CaravanGame.new(rules, seed=seed)
    shared = [make_random_bot(name, seed) for name in ("ABC", "DEF")]
    own = [caravan_bot("random", seat, seed) for seat in (0, 1)]
    while ours.result is None and ours.plies < 400:
        seat = ours.turn
        move = shared[seat].choose(ours.observation(seat))
        assert move == own[seat].choose(theirs.observation(seat))
        ours.apply(move)
        theirs.apply(move)
    assert ours.result == theirs.result


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31))
def test_on_austerity_the_observation_lists_the_states_legal_actions(players: int,
                                                                     seed: int) -> None:
    game = cardtable.load_game("austerity", tokens=4, points=15, players=players)
    state = game.new_state(seed)
    bots = {seat: make_seat(game, "random", seat, seed) for seat in state.seats}
    turns = 0
    while state.result is None and turns < 300:
        seat = state.to_move
        assert seat is not None
        observation = state.observation(seat)
        assert observation.legal_actions() == state.legal_actions()
        for other in state.seats:
            if other != seat:
                assert state.observation(other).legal_actions() == []
        state.apply(bots[seat].choose(observation))
        turns += 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_on_obsession_it_asks_a_world_sampled_from_its_observation(seed: int) -> None:
    """Obsession's observation lists no actions; a world sampled from it lists the seat's."""
    game = cardtable.load_game("obsession", players=3)
    state = game.new_state(seed)
    bots = {seat: make_random_bot(seat, seed, game) for seat in state.seats}
    turns = 0
    while state.result is None and turns < 200:
        seat = state.to_move
        observation = state.observation(seat)
        assert observed_legal_actions(observation, game) == state.legal_actions()
        state.apply(bots[seat].choose(observation))
        turns += 1


def test_a_whole_austerity_match_between_random_seats() -> None:
    game = cardtable.load_game("austerity", tokens=4, points=15, players=3)
    state = game.new_state(9)
    seats = {seat: make_seat(game, "random", seat, 9) for seat in state.seats}
    result = play_match(state, seats)
    assert result.reason in ("points", "market_empty")


def test_without_listed_actions_or_worlds_it_says_so() -> None:
    with pytest.raises(TypeError, match="lists no legal actions"):
        observed_legal_actions(object())
