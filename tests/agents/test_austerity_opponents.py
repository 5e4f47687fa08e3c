"""Austerity ``mcts`` learns which strategy each opponent plays from the tables it is shown."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from pathlib import Path

import pytest

import cardtable
from cardtable.games.austerity.deck import load_deck
from cardtable.games.austerity.mcts import MctsStrategy
from cardtable.games.austerity.opponents import ANY, POLICIES, OpponentModel
from cardtable.games.austerity.rules import WILD_ACTION, Action, Game, Table
from cardtable.games.austerity.state import legal_actions_on
from cardtable.games.austerity.strategies import STRATEGIES

DECK = Path(cardtable.__file__).parent / "games" / "austerity" / "decks" / "medium.deck"
Strategy = Callable[[Table, int], Action]


def _watched_game(strategies: list[Strategy], me: int, turns: int = 400) -> OpponentModel:
    """Play a game between ``strategies``; ``me`` learns from the table at each of its turns."""
    game = Game(load_deck(str(DECK)), 7, 15, len(strategies))
    game.opening()
    model = OpponentModel(len(strategies))
    last: tuple[Table, Action] | None = None
    for _ in range(turns):
        if game.finished:
            break
        player = game.current
        action = strategies[player](game.table.copy(), player)
        if player == me:
            if last is not None:
                model.learn(last[0], me, last[1], game.table.copy())
            last = (game.table.copy(), action)
        game.play(action)
    return model


@pytest.mark.parametrize("names", list(itertools.permutations(STRATEGIES)))
def test_each_opponent_keeps_its_own_strategy_and_sheds_others(names: tuple[str, ...]) -> None:
    strategies = [STRATEGIES[name] for name in names]
    model = _watched_game(strategies, 0)
    for player in (1, 2):
        truth = POLICIES.index(strategies[player])
        assert truth in model.policies(player)
    # Over a whole game the moves tell the three strategies apart.
    assert all(len(model.policies(player)) < len(POLICIES) for player in (1, 2))


def test_an_opponent_no_strategy_explains_becomes_unknown() -> None:
    rng = random.Random(4)

    def anything(table: Table, me: int) -> Action:
        options = legal_actions_on(table, me)
        return options[rng.randrange(len(options))]

    model = _watched_game([STRATEGIES["shenzi"], anything, STRATEGIES["ed"]], 0)
    assert model.policies(1) == ()
    assert POLICIES.index(STRATEGIES["ed"]) in model.policies(2)


def test_tables_that_do_not_follow_teach_nothing() -> None:
    game = Game(load_deck(str(DECK)), 7, 15, 2)
    game.opening()
    before = game.table.copy()
    unrelated = game.table.copy()
    unrelated.points[1] = 40
    model = OpponentModel(2)
    model.learn(before, 0, WILD_ACTION, unrelated)
    assert model.candidates == [ANY, ANY]


def test_the_search_learns_its_opponent_during_a_game() -> None:
    game = cardtable.load_game("austerity", players=2)
    state = game.new_state()
    search = MctsStrategy(iterations=30, seed=2)
    ed = STRATEGIES["ed"]
    while state.result is None:
        table = state.observation(state.to_move).table()
        seat = state.seat_number(state.to_move)
        state.apply(search(table, 0) if seat == 0 else ed(table, 1))
    assert search.opponents is not None
    assert search.opponents.policies(1) == (POLICIES.index(ed),)
