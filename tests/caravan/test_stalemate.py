"""Games that can no longer end are stopped by the ``stuck_plies`` rule
(games/caravan/stalemate.py): in the state, so every consumer gets it through ``result``."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import cardtable
from cardtable.engine.errors import GameParamsError
from cardtable.engine.match import play_match
from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.notation import DISCARD, pack
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.stalemate import (
    STALEMATE,
    STUCK_PLIES,
    idle_plies,
    is_stalemate,
    table_rules,
)
from cardtable.games.caravan.state import CaravanState

CARAVAN = Path(sys.executable).with_name("caravan")
FOXON = SeatRules.preset("foxon")


def _stuck_moves(limit: int) -> list[str]:
    """The moves of foxon seed 37 between two normal bots until the rule stops it."""
    game = CaravanState.new(replace(FOXON, stuck_plies=limit), seed=37)
    bots = {"ABC": make_bot("normal", 0, 37), "DEF": make_bot("normal", 1, 37)}
    play_match(game, bots)
    return [str(entry) for entry in game.history]


def test_the_count_restarts_whenever_a_caravan_changes() -> None:
    game = CaravanState.new(SeatRules.preset("power"), seed=5)
    while game.in_opening(0) or game.in_opening(1):
        game.apply_code(game.legal_codes()[0])
    discard = pack(DISCARD, 0, 1, 0)
    for idle in (1, 2):
        game.apply_code(discard)
        assert idle_plies(game.history, game.plies, 10) == idle
    numeral = next(code for code in game.legal_codes() if code & 3 == 0)
    game.apply_code(numeral)
    assert idle_plies(game.history, game.plies, 10) == 0


def test_a_discard_only_game_never_counts_its_first_move() -> None:
    game = CaravanState.new(replace(SeatRules.preset("karavane")), seed=5)  # no Start round
    discard = pack(DISCARD, 0, 1, 0)
    game.apply_code(discard)
    assert idle_plies(game.history, game.plies, 10) == 0  # nothing before it to compare
    game.apply_code(discard)
    assert idle_plies(game.history, game.plies, 10) == 1


def test_a_plain_apply_sequence_reaches_the_stalemate() -> None:
    limit = 5
    game = CaravanState.new(replace(SeatRules.preset("karavane"), stuck_plies=limit), seed=5)
    discard = pack(DISCARD, 0, 1, 0)
    for _ in range(limit):
        assert game.result is None
        game.apply_code(discard)
    assert game.result is None  # the first move is never counted
    game.apply_code(discard)
    result = game.result
    assert result is not None and is_stalemate(result)
    assert result.reason == "quit" and result.winners == ()
    assert result.details["cause"] == STALEMATE and result.details["plies"] == limit + 1
    assert game.to_move is None and game.legal_actions() == []


def test_the_sync_loop_ends_a_stuck_match_with_the_stalemate_result() -> None:
    # Foxon, seed 37: two normal bots reach a board neither changes, then only discard.
    game = CaravanState.new(replace(FOXON, stuck_plies=200), seed=37)
    bots = {"ABC": make_bot("normal", 0, 37), "DEF": make_bot("normal", 1, 37)}
    result = play_match(game, bots)
    assert is_stalemate(result) and game.result == result
    assert idle_plies(game.history, game.plies, 1000) == 200


def test_a_longer_limit_plays_the_same_moves_further() -> None:
    short, longer = _stuck_moves(60), _stuck_moves(200)
    assert longer[:len(short)] == short and len(longer) == len(short) + 140


def test_a_state_from_a_position_or_params_reaches_the_stalemate() -> None:
    game = cardtable.load_game("caravan", rules="foxon", stuck_plies=50)
    assert game.rules.stuck_plies == 50
    state = game.new_state(seed=37)
    bots = {"ABC": make_bot("normal", 0, 37), "DEF": make_bot("normal", 1, 37)}
    while idle_plies(state.history, state.plies, 50) < 20:  # into the discards, not stopped
        mover = state.to_move
        assert mover is not None
        state.apply(bots[mover].choose(state.observation(mover)))
    restored = game.state_from_position(state.to_position())
    assert restored.seat_rules.stuck_plies == 50
    while restored.result is None:  # a plain apply sequence, no match loop
        mover = restored.to_move
        assert mover is not None
        restored.apply(bots[mover].choose(restored.observation(mover)))
    assert is_stalemate(restored.result)
    # The restored state counts from the position on: its history starts there.
    assert idle_plies(restored.history, restored.plies, 1000) == 50


def test_ordinary_random_games_are_never_stopped() -> None:
    for seed in range(40):
        game = CaravanState.new(replace(SeatRules.preset("power"), stuck_plies=60), seed=seed)
        bots = {"ABC": make_bot("random", 0, seed), "DEF": make_bot("random", 1, seed)}
        result = play_match(game, bots)
        assert not is_stalemate(result)


def test_defaults_stop_bot_games_only() -> None:
    power = SeatRules.preset("power")
    assert power.stuck_plies is None  # a state built straight from rules, a replay
    assert cardtable.load_game("caravan").rules.stuck_plies is None
    assert table_rules(power, (False, False)).stuck_plies == STUCK_PLIES
    assert table_rules(power, (True, False)).stuck_plies is None
    assert table_rules(power, (True, True)).stuck_plies is None
    assert table_rules(replace(power, stuck_plies=7), (False, False)).stuck_plies == 7
    # A limit on how long the game may run, not on how it is played.
    assert "stuck" not in repr(replace(power, stuck_plies=7))


@pytest.mark.parametrize("value", [0, -3, "x", True, "1.5"])
def test_load_game_refuses_a_bad_limit(value: object) -> None:
    with pytest.raises(GameParamsError) as caught:
        cardtable.load_game("caravan", stuck_plies=value)
    assert str(caught.value).startswith("Invalid value '")
    assert "for parameter 'stuck_plies' (allowed: integer >= 1 or none)." in str(caught.value)


def test_load_game_reads_the_limit_as_the_command_line_writes_it() -> None:
    assert cardtable.load_game("caravan", stuck_plies="300").rules.stuck_plies == 300
    assert cardtable.load_game("caravan", stuck_plies="none").rules.stuck_plies is None


def test_caravan_bvb_stops_a_stuck_game_and_records_why(tmp_path: Path) -> None:
    record = tmp_path / "stuck.jsonl"
    done = subprocess.run(
        [str(CARAVAN), "--bvb", "--rules", "foxon", "--seed", "37", "--record", str(record)],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines()[-2:] == [
        "BOT2 to move next.",
        f"No caravan has changed in {STUCK_PLIES} moves: the bots are stuck and the game is "
        "stopped.",
    ]
    result = json.loads(record.read_text(encoding="utf-8").splitlines()[-1])
    assert result["reason"] == "abandoned" and result["cause"] == "stalemate"
    assert result["winners"] == []
    replayed = subprocess.run([str(CARAVAN), "--replay", str(record), "--delay", "0"],
                              capture_output=True, text=True, timeout=120, check=False)
    assert replayed.returncode == 0
    assert replayed.stdout.splitlines()[-1] == "The recorded game was not finished (stalemate)."
