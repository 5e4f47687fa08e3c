"""An Austerity table's record has the shape `austerity --record` writes, and replays."""

from __future__ import annotations

import random

import pytest

from cardtable.games.austerity.record import read_hub_record, replay_hub_record
from cardtable.web.games import new_state
from cardtable.web.record import record_lines, record_text

KINDS = ["human", "bot:shenzi", "bot:ed"]


def played(seed: int, stop: int | None = None,
           params: dict[str, object] | None = None) -> list[str]:
    state = new_state("austerity", params or {"players": 3}, seed, KINDS)
    rng = random.Random(seed)
    moves: list[str] = []
    while state.result is None and (stop is None or len(moves) < stop):
        action = rng.choice(state.legal_actions())
        moves.append(state.action_text(action))
        state.apply(action)
    return moves


@pytest.mark.parametrize("deal", ["file", "shuffled"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_finished_table_replays_to_the_same_result(seed: int, deal: str) -> None:
    params: dict[str, object] = {"players": 3, "deal": deal}
    moves = played(seed, params=params)
    text = record_text("austerity", params, seed, KINDS, moves)
    lines = record_lines(text)
    assert lines[0]["game"] == "austerity" and lines[0]["type"] == "header"
    assert [entry["player"] for entry in lines[0]["seats"]] == KINDS
    assert [line["action"] for line in lines if line["type"] == "action"] == moves
    end = replay_hub_record(read_hub_record("web", text.splitlines()))
    assert end.result is not None and lines[-1]["winners"] == list(end.result.winners)
    assert lines[-1]["reason"] == end.result.reason


def test_an_unfinished_table_is_recorded_as_abandoned() -> None:
    moves = played(4, stop=5)
    lines = record_lines(record_text("austerity", {"players": 3}, 4, KINDS, moves))
    assert (lines[-1]["reason"], lines[-1]["cause"]) == ("abandoned", "server")
    assert len([line for line in lines if line["type"] == "action"]) == 5


def test_a_shuffled_table_is_dealt_from_its_seed() -> None:
    def deck(params: dict[str, object], seed: int) -> list[str]:
        text = record_text("austerity", params, seed, KINDS, [])
        return [line for line in text.splitlines() if '"deck"' in line]

    shuffled = {"players": 3, "deal": "shuffled"}
    assert deck({"players": 3}, 1) == deck({"players": 3}, 2)
    assert deck(shuffled, 1) == deck(shuffled, 1)
    assert deck(shuffled, 1) != deck(shuffled, 2)
    assert deck(shuffled, 1) != deck({"players": 3}, 1)
