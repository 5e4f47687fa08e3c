"""The replay page's steps come from the table's record, replayed by each game's own replay
code: one step per move, every hand shown, and a record that does not replay refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardtable.web.games import new_state
from cardtable.web.record import record_text
from cardtable.web.replay_steps import ReplayUnavailable, replay_steps

GAMES = [
    ("caravan", {"rules": "nv"}, ["human", "bot:normal"]),
    ("caravan", {"rules": "power"}, ["human", "human"]),
    ("obsession", {"players": 3}, ["human", "bot:obsessed", "bot:random"]),
    ("austerity", {"players": 2, "tokens": 4, "points": 6}, ["human", "bot:shenzi"]),
]


def played(game: str, params: dict[str, Any], kinds: list[str], seed: int,
           limit: int = 3000) -> tuple[Any, list[str]]:
    state = new_state(game, params, seed, kinds)
    choose = random.Random(seed)
    moves: list[str] = []
    while state.result is None and len(moves) < limit:
        action = choose.choice(state.legal_actions())
        moves.append(state.action_text(action))
        state.apply(action)
    return state, moves


@pytest.mark.parametrize(("game", "params", "kinds"), GAMES)
def test_every_move_is_a_step_with_every_hand(game: str, params: dict[str, Any],
                                              kinds: list[str]) -> None:
    state, moves = played(game, params, kinds, seed=11)
    steps = replay_steps(game, record_text(game, params, 11, kinds, moves))
    assert steps["game"] == game
    assert [step["move"] for step in steps["moves"]] == [
        move.split(":")[-1] if game == "caravan" else move for move in moves]
    assert len(steps["frames"]) == len(moves) + 1
    assert steps["result"] is not None
    assert steps["result"]["winners"] == list(state.result.winners)
    first = new_state(game, params, 11, kinds)
    if game == "austerity":
        assert "hands" not in steps["frames"][0]
        return
    hands = steps["frames"][0]["hands"]
    assert list(hands) == list(first.seats)
    for seat in first.seats:
        dealt = first.observation(seat).hand
        assert len(hands[seat]) == len(dealt)
    last = steps["frames"][-1]["hands"]
    for index, seat in enumerate(state.seats):
        assert len(last[seat]) == len(state.hands[index])


def test_a_record_that_does_not_replay_is_refused() -> None:
    kinds = ["human", "human"]
    _state, moves = played("caravan", {}, kinds, seed=5)
    lines = record_text("caravan", {}, 5, kinds, moves).splitlines()
    at = next(index for index, line in enumerate(lines) if json.loads(line)["type"] == "action")
    broken = json.loads(lines[at])
    broken["action"] = "P9Z"
    lines[at] = json.dumps(broken)
    with pytest.raises(ReplayUnavailable, match="The record does not replay"):
        replay_steps("caravan", "\n".join(lines))
    with pytest.raises(ReplayUnavailable, match="Caravan record"):
        replay_steps("austerity", record_text("caravan", {}, 5, kinds, moves))
    with pytest.raises(ReplayUnavailable, match="malformed line"):
        replay_steps("austerity", '{"game": "caravan"}\n')
    with pytest.raises(ReplayUnavailable, match="No replay"):
        replay_steps("poker", "")
