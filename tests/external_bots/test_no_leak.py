"""Every message a program receives holds only its seat's view: each observation sent equals
the one the seat's own observation gives, and the same as in a world where every card the seat
cannot see was dealt differently (so nothing hidden can be in it). Checked on every message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.agents.external_games import adapter
from cardtable.agents.registry import make_seat
from cardtable.engine.match import MatchListener, play_match
from cardtable.engine.protocol import GameState

from .helpers import SCRIPTS, spec


class Expected(MatchListener):
    """What each spy seat should receive at each of its turns, taken from the true state."""

    def __init__(self, game: Any, spies: set[str]) -> None:
        self.adapter = adapter(game.name)
        assert self.adapter is not None
        self.spies = spies
        self.turns: dict[str, list[tuple[Any, Any, list[str]]]] = {seat: [] for seat in spies}
        self.sensitive = 0
        """Turns where a world dealt for another seat shows this seat something else: the
        comparison can see a hidden card when one is there."""

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        if seat not in self.spies:
            return
        assert self.adapter is not None
        world = state.sample_world(seat, len(self.turns[seat]) + 11)  # type: ignore[attr-defined]
        legal = [state.action_text(action) for action in state.legal_actions()]  # type: ignore[attr-defined]
        other = next(name for name in state.seats if name != seat)
        elsewhere = state.sample_world(other, len(self.turns[seat]) + 5)  # type: ignore[attr-defined]
        own = self.adapter.observation_json(state.observation(seat))
        self.sensitive += self.adapter.observation_json(elsewhere.observation(seat)) != own
        self.turns[seat].append((own,
                                 self.adapter.observation_json(world.observation(seat)), legal))


def check_messages(log: Path, game: Any, seat: str, expected: Expected, state: Any) -> None:
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = [message["type"] for message in messages]
    assert kinds[0] == "hello" and kinds[-2:] == ["result", "quit"]
    hello = messages[0]
    assert set(hello) == {"type", "protocol", "game", "seat", "seats", "rules", "clock"}
    assert hello["seat"] == seat and hello["seats"] == list(game.seats)
    turns = [message for message in messages if message["type"] == "turn"]
    assert len(turns) == len(expected.turns[seat]) > 0
    for message, (own, other_world, legal) in zip(turns, expected.turns[seat], strict=True):
        assert set(message) == {"type", "observation", "legal", "clock"}
        assert message["observation"] == own == other_world
        assert message["observation"]["seat"] == seat
        assert message["legal"] == legal
    result = messages[-2]
    assert result["observation"] == expected.adapter.observation_json(  # type: ignore[union-attr]
        state.observation(seat))
    assert set(kinds) <= {"hello", "turn", "result", "quit"}


@pytest.mark.parametrize(("rules", "seed"), [("nv", 1), ("karavane", 2), ("power", 3)])
def test_caravan_messages_hold_only_the_seats_view(tmp_path: Path, rules: str,
                                                    seed: int) -> None:
    game = cardtable.load_game("caravan", rules=rules)
    state = game.new_state(seed=seed)
    logs = {seat: tmp_path / f"{seat}.jsonl" for seat in game.seats}
    seats = {seat: make_seat(game, spec(SCRIPTS / "spy.py", logs[seat]), seat, seed)
             for seat in game.seats}
    expected = Expected(game, set(game.seats))
    play_match(state, seats, (expected,))
    for seat in game.seats:
        check_messages(logs[seat], game, seat, expected, state)
    assert expected.sensitive > 0


def test_caravan_simultaneous_opening_hides_the_other_seats_numerals(tmp_path: Path) -> None:
    game = cardtable.load_game("caravan", rules="nv", opening_mode="simultaneous")
    state = game.new_state(seed=4)
    logs = {seat: tmp_path / f"{seat}.jsonl" for seat in game.seats}
    seats = {seat: make_seat(game, spec(SCRIPTS / "spy.py", logs[seat]), seat, 4)
             for seat in game.seats}
    expected = Expected(game, set(game.seats))
    play_match(state, seats, (expected,))
    for seat in game.seats:
        check_messages(logs[seat], game, seat, expected, state)
    assert expected.sensitive > 0
    first = next(json.loads(line) for line in logs["DEF"].read_text().splitlines()
                 if '"turn"' in line)
    others = [lane for lane in first["observation"]["caravans"] if lane["owner"] == "ABC"]
    assert any(slot["numeral"] is None for lane in others for slot in lane["cards"])


@pytest.mark.parametrize("players", [2, 3, 5])
def test_obsession_messages_hold_only_the_seats_view(tmp_path: Path, players: int) -> None:
    game = cardtable.load_game("obsession", players=players, max_plays=400)
    state = game.new_state(seed=players)
    logs = {seat: tmp_path / f"{seat}.jsonl" for seat in game.seats}
    seats = {seat: make_seat(game, spec(SCRIPTS / "spy.py", logs[seat]), seat, players)
             for seat in game.seats}
    expected = Expected(game, set(game.seats))
    play_match(state, seats, (expected,))
    for seat in game.seats:
        check_messages(logs[seat], game, seat, expected, state)
    assert expected.sensitive > 0
