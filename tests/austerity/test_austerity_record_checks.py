"""Replaying a hub record accepts only the game that was played: the deck line must turn up the
cards the conversation shows, and the result line must give the players' points.

The records are real: the hub runs the built-in players. Every swap of two deck cards and every
change of a player's points is tried; exactly those that change what the record shows are
refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from austerity_support import BIN, DECKS, PLAYERS, hub

from cardtable.engine.errors import RecordError
from cardtable.games.austerity.record import read_hub_record, replay_hub_record

GAMES = [("medium.deck", "7", "15"), ("medium.deck", "4", "10"), ("large.deck", "4", "10")]


@pytest.fixture(scope="module", params=GAMES, ids=lambda game: "-".join(game))
def recorded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
             ) -> list[str]:
    deck, tokens, points = request.param
    path = tmp_path_factory.mktemp("records") / "game.jsonl"
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = hub("--record", path, tokens, points, DECKS / deck, *PLAYERS, env=env)
    assert result.returncode == 0, result.stderr
    return Path(path).read_text(encoding="utf-8").splitlines()


def replays(lines: list[str]) -> bool:
    try:
        replay_hub_record(read_hub_record("game.jsonl", lines))
    except RecordError:
        return False
    return True


def deck_index(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if '"event":"deck"' in line)


def turned_up(lines: list[str]) -> int:
    return sum(1 for line in lines if '"msg":"newcard' in line)


def test_the_unchanged_record_replays(recorded: list[str]) -> None:
    assert replays(recorded)


def test_a_deck_swap_is_refused_exactly_when_it_changes_a_card_turned_up(
        recorded: list[str]) -> None:
    at = deck_index(recorded)
    deck_obj = json.loads(recorded[at])
    cards: list[str] = deck_obj["cards"]
    turned = turned_up(recorded)
    assert 0 < turned < len(cards) or turned == len(cards)
    wrong = []
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            swapped = list(cards)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            lines = list(recorded)
            lines[at] = json.dumps({**deck_obj, "cards": swapped}, separators=(",", ":"))
            shows_a_change = cards[i] != cards[j] and i < turned
            if replays(lines) == shows_a_change:
                wrong.append((i, j))
    assert wrong == []


def test_a_changed_point_in_the_result_line_is_refused(recorded: list[str]) -> None:
    result = json.loads(recorded[-1])
    assert result["type"] == "result"
    points: list[int] = result["details"]["points"]
    for player in range(len(points)):
        for change in (-1, 1, 100):
            edited = list(points)
            edited[player] += change
            obj = {**result, "details": {**result["details"], "points": edited}}
            lines = [*recorded[:-1], json.dumps(obj, separators=(",", ":"))]
            with pytest.raises(RecordError, match=r"line \d+: the points should be \["):
                replay_hub_record(read_hub_record("game.jsonl", lines))


def test_a_deck_contradicting_the_cards_shown_names_the_line(recorded: list[str]) -> None:
    at = deck_index(recorded)
    deck_obj = json.loads(recorded[at])
    cards = list(deck_obj["cards"])
    first = next(i for i in range(1, len(cards)) if cards[i] != cards[0])
    cards[0], cards[first] = cards[first], cards[0]
    lines = list(recorded)
    lines[at] = json.dumps({**deck_obj, "cards": cards}, separators=(",", ":"))
    with pytest.raises(RecordError) as caught:
        replay_hub_record(read_hub_record("game.jsonl", lines))
    shown = next(n for n, line in enumerate(recorded, start=1) if "New card" in line)
    assert caught.value.message.startswith(f"Replay 'game.jsonl', line {shown}: ")
    assert f"(line {at + 1})" in caught.value.message
