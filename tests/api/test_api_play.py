"""Random games through the game API only (``load_game`` -> ``new_state`` -> ``legal_actions`` /
``apply`` until ``result``), in the three games and every Caravan preset; the same seed gives
the game the command lines play."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine.errors import IllegalAction, NotationError
from cardtable.engine.protocol import Result
from cardtable.games.austerity.rules import PURCHASE, TAKE
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, Move
from cardtable.games.caravan.rules import PRESETS
from cardtable.games.obsession.actions import Blind, Play, Swap
from cardtable.games.obsession.cards import TEXT

BIN = Path(sys.executable).parent
MAX_STEPS = 1500
"""Random Caravan can go round in circles (the bots-only stalemate stop is not a rule of the
state yet), so a game is cut after this many actions; Obsession's ``max_plays`` ends it."""

GAMES: list[tuple[str, dict[str, Any]]] = [
    *(("caravan", {"rules": preset}) for preset in PRESETS),
    ("caravan", {"rules": "nv", "abc.hand_size": 6, "first": "DEF"}),
    ("obsession", {"players": 2, "max_plays": 400}),
    ("obsession", {"players": 4, "kill_order": "kill-first", "max_plays": 400}),
    ("obsession", {"players": 5, "run_kill": 3, "max_plays": 400}),
    ("austerity", {"players": 2, "tokens": 3, "points": 6}),
    ("austerity", {"players": 4, "tokens": 7, "points": 15}),
]


def _plain(value: object) -> object:
    if isinstance(value, Sequence) and not isinstance(value, str | tuple | list):
        return tuple(value)
    return value


def snapshot(state: Any) -> object:
    """Everything every seat sees, whose turn it is and what it may do: what a refused action
    must leave alone."""
    views = []
    for seat in state.seats:
        observation = state.observation(seat)
        # Private slots are bookkeeping, not something the seat sees.
        slots = [slot for slot in getattr(type(observation), "__slots__", ())
                 if not slot.startswith("_")]
        views.append({slot: _plain(getattr(observation, slot)) for slot in slots})
    return views, state.to_move, state.legal_actions(), state.result


def illegal_candidates(name: str, state: Any, rng: random.Random) -> list[Any]:
    """Actions of the right shape that the seat to move may or may not take."""
    if name == "caravan":
        # Only canonical moves: a caravan position typed after a numeral, or a hand position
        # after a clear that takes none, is ignored by the notation's rules, not refused.
        seat = state.seat_number(state.to_move)
        hand_cards = state.hands[seat]
        numerals = {position for position, card in enumerate(hand_cards, 1) if card & 15 <= 10}
        moves = [Move(seat, PLAY, caravan, hand, slot)
                 for caravan, hand, slot in product(range(6), range(1, 9), range(0, 4))
                 if not (slot and hand in numerals)]
        moves += [Move(seat, DISCARD, 0, hand) for hand in range(1, 9)]
        restart = state.rules[seat].clear_policy == "destroy_restart"
        moves += [Move(seat, CLEAR, caravan, hand)
                  for caravan, hand in product(range(6), range(0, 9)) if restart or not hand]
        moves.append(Move(1 - seat, DISCARD, 0, 1))
        return moves
    if name == "obsession":
        seat = state.seat_number(state.to_move)
        pool = sorted(state.hands[seat] + state.visible[seat]) or list(range(3))
        picks = [tuple(sorted(rng.sample(pool, k))) for k in (1, 2, 3) if k <= len(pool)]
        return [*(Play(cards) for cards in picks), *(Swap(cards) for cards in picks),
                Blind(0), Blind(4)]
    market = len(state.game.table.market)
    return [(TAKE, 0, (1, 1, 1, 1)), (TAKE, 0, (2, 1, 0, 0)), (PURCHASE, market, (0,) * 5),
            *((PURCHASE, index, (0, 0, 0, 0, 9)) for index in range(market))]


def same_kind(action: Any) -> object:
    """What tells actions apart in play: Obsession's copies of one card text play alike (the
    legal list names the first copies, ``apply`` takes any)."""
    if isinstance(action, Play | Swap):
        cards = action.cards if isinstance(action, Play) else action.visible
        return type(action), tuple(sorted(TEXT[card] for card in cards))
    return action


def play_randomly(name: str, params: dict[str, Any], seed: int,
                  choices: random.Random) -> Result | None:
    state = cardtable.load_game(name, **params).new_state(seed)
    for _ in range(MAX_STEPS):
        if state.result is not None:
            assert state.to_move is None
            assert state.legal_actions() == []
            return state.result
        legal = state.legal_actions()
        assert legal, "a game that is not over has a legal action"
        for action in legal:
            text = state.action_text(action)
            assert state.parse_action(text) == action, text
        before = snapshot(state)
        kinds = {same_kind(action) for action in legal}
        refused = [a for a in illegal_candidates(name, state, choices)
                   if same_kind(a) not in kinds]
        for action in choices.sample(refused, min(4, len(refused))):
            with pytest.raises(IllegalAction):
                state.apply(action)
            assert snapshot(state) == before, action
        copy = state.clone()
        action = choices.choice(legal)
        state.apply(action)
        assert snapshot(copy) == before, "a clone is independent of its original"
    assert name == "caravan", f"no result after {MAX_STEPS} actions"
    return None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), choice_seed=st.integers(0, 99))
def test_random_games_through_the_api(game: tuple[str, dict[str, Any]], seed: int,
                                      choice_seed: int) -> None:
    name, params = game
    result = play_randomly(name, params, seed, random.Random(choice_seed))
    assert result is None or isinstance(result, Result)


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_each_game_plays_to_a_result(name: str, params: dict[str, Any]) -> None:
    play_randomly(name, params, 2024, random.Random(7))


@pytest.mark.parametrize(("name", "text"), [
    ("caravan", "X1A"), ("caravan", ""), ("caravan", "P0A"),
    ("obsession", "swap ZZ"), ("obsession", ""), ("obsession", "99"),
    ("austerity", "take1,1"), ("austerity", "buy"), ("austerity", ""),
])
def test_text_that_is_no_action_is_refused(name: str, text: str) -> None:
    state = cardtable.load_game(name).new_state(5)
    with pytest.raises(NotationError) as caught:
        state.parse_action(text)
    assert caught.value.message and "\n" not in caught.value.message


def test_obsession_selection_by_position_means_the_line_modes_choice() -> None:
    state = cardtable.load_game("obsession", players=3).new_state(8)
    seat = state.seat_number(state.to_move)
    pool = sorted(state.hands[seat] + state.visible[seat])
    assert state.parse_action("1 2 6") == Swap((pool[0], pool[1], pool[5]))
    with pytest.raises(NotationError, match=r"^Duplicate card selection$"):
        state.parse_action("1,1,2")
    with pytest.raises(NotationError, match=r"^You must select 3 cards$"):
        state.parse_action("1 2")


def test_obsession_copies_of_a_card_are_told_apart() -> None:
    # Two decks: find a deal where the swap pool holds two copies of one card.
    for seed in range(200):
        state = cardtable.load_game("obsession", players=4).new_state(seed)
        seat = state.seat_number(state.to_move)
        pool = sorted(state.hands[seat] + state.visible[seat])
        texts = [TEXT[card] for card in pool]
        if len(set(texts)) < len(texts):
            break
    else:
        pytest.skip("no deal with two copies in the first pool")  # pragma: no cover
    for action in state.legal_actions():
        assert state.parse_action(state.action_text(action)) == action
    assert any("#2" in state.action_text(action) for action in state.legal_actions())


def test_caravan_action_text_names_another_seat() -> None:
    state = cardtable.load_game("caravan").new_state(1)
    other = Move(1, DISCARD, 0, 1)
    assert state.action_text(other) == "DEF:D1"
    assert state.parse_action("DEF:D1") == other
    with pytest.raises(IllegalAction, match=r"^It is not DEF's turn\.$"):
        state.apply(other)


# --- the same seed as the command lines ------------------------------------------------------


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_caravan_seed_gives_the_command_lines_game(preset: str, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    subprocess.run([str(BIN / "caravan"), "--bvb", "--plain", "--rules", preset, "--seed", "41",
                    "--first", "2", "--record", str(record)], check=True, capture_output=True,
                   stdin=subprocess.DEVNULL, timeout=120)
    lines = _records(record)
    state = cardtable.load_game("caravan", rules=preset, first="DEF").new_state(41)
    for line in lines:
        if line["type"] == "action":
            assert state.to_move == line["seat"]
            state.apply(state.parse_action(line["action"]))
    end = lines[-1]
    assert end["type"] == "result"
    if end["cause"] == "stalemate":
        # Two bots that can no longer end the game are stopped by the match loop, not the rules:
        # the state is still going on after the same moves.
        assert state.result is None
        assert state.plies == end["details"]["plies"]
        return
    assert state.result is not None
    assert state.result.winners == tuple(end["winners"])
    assert (state.result.reason, state.result.details["plies"]) == (
        end["reason"], end["details"]["plies"])


@pytest.mark.parametrize("players", [2, 4, 7])
def test_obsession_seed_gives_the_command_lines_game(players: int, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    subprocess.run([str(BIN / "obsession"), "--humans", "0", "--plain", "--quiet",
                    "--players", str(players), "--seed", "99", "--record", str(record)],
                   check=True, capture_output=True, stdin=subprocess.DEVNULL, timeout=120)
    lines = _records(record)
    state = cardtable.load_game("obsession", players=players).new_state(99)
    assert [TEXT[card] for card in state.deck] == lines[1]["cards"]
    for line in lines[2:]:
        if line["type"] == "action":
            assert state.to_move == line["seat"]
            state.apply(state.parse_action(line["action"]))
    end = lines[-1]
    assert end["type"] == "result"
    assert state.result is not None
    assert state.result.details == end["details"]


def test_austerity_replies_replay_the_hubs_game(tmp_path: Path) -> None:
    deck = Path(cardtable.__file__).parent / "games" / "austerity" / "decks" / "medium.deck"
    record = tmp_path / "hub.jsonl"
    players = [str(BIN / name) for name in ("shenzi", "banzai", "ed")]
    run = subprocess.run([str(BIN / "austerity"), "--record", str(record), "4", "6", str(deck),
                          *players], capture_output=True, text=True, timeout=120, check=True)
    state = cardtable.load_game("austerity", deck=str(deck), tokens=4, points=6,
                                players=3).new_state(0)
    for line in _records(record):
        if line["type"] == "action":
            assert state.to_move == line["seat"]
            state.apply(state.parse_action(line["action"]))
    assert state.result is not None
    assert run.stdout.splitlines()[-1] == f"Winner(s) {','.join(state.result.winners)}"
