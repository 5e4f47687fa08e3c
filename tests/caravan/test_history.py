"""The public history: an immutable snapshot per move, grown in constant time."""

from __future__ import annotations

import random

from cardtable.games.caravan import fast
from cardtable.games.caravan.events import HistoryEntry
from cardtable.games.caravan.history import History
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.state import CaravanState


def entry(code: int) -> HistoryEntry:
    return HistoryEntry(0, code, ())


def test_a_snapshot_never_changes_when_a_later_one_grows():
    first = History([entry(1)])
    second = first.plus(entry(2))
    third = second.plus(entry(3))
    assert first == (entry(1),)
    assert second == (entry(1), entry(2))
    assert tuple(third) == (entry(1), entry(2), entry(3))
    # Growing an older snapshot copies it: the newer ones keep their entries.
    branch = first.plus(entry(9))
    assert branch == (entry(1), entry(9))
    assert third == (entry(1), entry(2), entry(3))
    assert second.plus(entry(4)) == (entry(1), entry(2), entry(4))
    assert third == (entry(1), entry(2), entry(3))


def test_a_history_reads_like_a_tuple():
    history = History([entry(1), entry(2), entry(3)])
    assert len(history) == 3
    assert history[0] == entry(1) and history[-1] == entry(3)
    assert history[1:] == (entry(2), entry(3))
    assert list(reversed(history)) == [entry(3), entry(2), entry(1)]
    assert history == History((entry(1), entry(2), entry(3)))
    assert history != (entry(1),)
    assert hash(history) == hash((entry(1), entry(2), entry(3)))
    assert not History()
    try:
        history[3]
    except IndexError:
        pass
    else:
        raise AssertionError("index 3 of a 3-entry history")


def test_observations_and_clones_keep_the_history_they_were_given():
    game = CaravanState.new(SeatRules.preset("power"), seed=4)
    rng = random.Random(4)
    fast.python_playout(game, rng, limit=10)
    observed = game.observation(game.turn)
    seen = tuple(observed.history)
    twin = game.clone()
    fast.python_playout(game, rng, limit=10)
    fast.python_playout(twin, random.Random(99), limit=10)
    assert tuple(observed.history) == seen
    assert game.history[: len(seen)] == seen
    assert twin.history[: len(seen)] == seen
    assert len(game.history) == len(twin.history) == len(seen) + 10
    assert tuple(game.history) != tuple(twin.history)


def test_a_game_accepts_any_sequence_as_its_history():
    game = CaravanState.new(SeatRules.preset("power"), seed=1)
    game.history = ()
    assert game.history == ()
    fast.python_playout(game, random.Random(1), limit=3)
    assert len(game.history) == 3
