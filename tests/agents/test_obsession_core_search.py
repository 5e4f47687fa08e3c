"""The Obsession core's search helpers: keys by face and copies, and playouts that stop at a
seat (``FastGame.legal_keys``, ``apply_key``, ``action_of_key``, ``playout*(until=)``)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest

import cardtable
from cardtable.games.obsession import fast
from cardtable.games.obsession.actions import Blind, Play
from cardtable.games.obsession.bots import bot_random, make_bot
from cardtable.games.obsession.cards import FACE

pytestmark = pytest.mark.skipif(not fast.available() and not os.environ.get("CI"),
                                reason="the compiled core is not built")


def _games(players: int, count: int) -> Iterator[fast.FastGame]:
    """Cores of games just after their swaps (obsessed swaps)."""
    for seed in range(count):
        state = cardtable.load_game("obsession", players=players).new_state(seed)
        bots = [make_bot("obsessed", seat, seed) for seat in range(players)]
        while state.observation(state.current).phase == "swap":
            state.apply(bots[state.current].choose(state.observation(state.current)))
        yield fast.FastGame.from_game(state)


def _key(action: object) -> int:
    if isinstance(action, Blind):
        return 0
    assert isinstance(action, Play)
    return FACE[action.cards[0]] * 16 + len(action.cards)


@pytest.mark.parametrize("players", [2, 4])
def test_keys_are_the_faces_and_copies_of_the_legal_actions(players: int) -> None:
    decisions = merged = 0
    for core in _games(players, 12):
        rng = random.Random(players)
        while not core.over:
            legal = core.legal_actions()
            keys = core.legal_keys()
            assert len(set(keys)) == len(keys)
            assert set(keys) == {_key(action) for action in legal}
            merged += len(keys) < len(legal)
            for key in keys:
                action = core.action_of_key(key)
                assert action in legal and _key(action) == key
            key = rng.choice(keys)
            twin = core.clone()
            core.apply_key(key)
            twin.apply(twin.action_of_key(key))
            assert core.export() == twin.export()
            decisions += 1
    assert decisions > 500
    assert merged > 10  # suits or decks that play alike are one key


def test_a_key_that_is_not_legal_is_refused_and_changes_nothing() -> None:
    core = next(_games(4, 1))
    before = core.export()
    legal = set(core.legal_keys())
    for key in (1, 16 * 20 + 1, -5, 16 * 5 + 9, *(k + 1 for k in legal if k + 1 not in legal)):
        if key in legal:
            continue
        with pytest.raises(ValueError, match="no legal choice has the key"):
            core.apply_key(key)
        with pytest.raises(ValueError, match="no legal choice has the key"):
            core.action_of_key(key)
    assert core.export() == before


def test_obsessed_playouts_stop_when_the_seat_is_to_move() -> None:
    stops = 0
    for number, core in enumerate(_games(4, 8)):
        whole = core.clone()
        seat = (core.current + 2) % 4
        draws = [bot_random(number, chair).random for chair in range(4)]
        # Played in stages, stopping at each turn of the seat, it is the game played at once.
        while not core.over:
            core.playout_obsessed(draws, until=seat)
            if core.over:
                break
            assert core.current == seat
            stops += 1
            core.playout_obsessed(draws, until=(seat + 1) % 4)
        whole.playout_obsessed([bot_random(number, chair).random for chair in range(4)])
        assert core.export() == whole.export()
    assert stops >= 40


def test_random_playouts_stop_when_the_seat_is_to_move() -> None:
    for number, core in enumerate(_games(4, 8)):
        seat = (core.current + 1) % 4
        core.playout(number, until=seat)
        assert not core.over and core.current == seat
        core.playout(number)
        assert core.over
