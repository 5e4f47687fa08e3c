"""Bot-only games that can no longer end are stopped (games/caravan/stalemate.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.engine.match import MatchAbandoned, play_match
from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.stalemate import STALEMATE, STUCK_PLIES, IdleWatch
from cardtable.games.caravan.state import Game

CARAVAN = Path(sys.executable).with_name("caravan")


def test_the_count_restarts_whenever_a_caravan_changes() -> None:
    game = Game.new(SeatRules.preset("power"), seed=5)
    watch = IdleWatch(limit=3)
    assert not watch.update(game)  # the first look only remembers the caravans
    assert watch.idle == 0
    watch.update(game)
    watch.update(game)
    assert watch.idle == 2 and not watch.stuck
    assert watch.update(game) and watch.stuck
    numeral = next(code for code in game.legal_codes() if code & 3 == 0)
    game.apply_code(numeral)
    assert not watch.update(game) and watch.idle == 0


def test_a_discard_only_move_counts_as_idle() -> None:
    game = Game.new(SeatRules.preset("power"), seed=5)
    watch = IdleWatch()
    watch.update(game)
    # Place the three opening numerals for both seats, then discard.
    while game.in_opening(0) or game.in_opening(1):
        game.apply_code(game.legal_codes()[0])
        watch.update(game)
    assert watch.idle == 0
    game.apply_code(1 << 5 | 1)  # D1
    assert not watch.update(game) and watch.idle == 1


def test_as_a_listener_it_abandons_the_stuck_match() -> None:
    # Foxon, seed 4: two normal bots tie two lanes and then only discard, forever.
    game = Game.new(SeatRules.preset("foxon"), seed=4)
    bots = {"ABC": make_bot("normal", 0, 4), "DEF": make_bot("normal", 1, 4)}
    watch = IdleWatch(limit=200)
    with pytest.raises(MatchAbandoned) as caught:
        play_match(game, bots, (watch,))
    assert caught.value.cause == STALEMATE
    assert game.result is None and watch.idle == 200


def test_ordinary_random_games_are_never_stopped() -> None:
    for seed in range(40):
        game = Game.new(SeatRules.preset("power"), seed=seed)
        bots = {"ABC": make_bot("random", 0, seed), "DEF": make_bot("random", 1, seed)}
        play_match(game, bots, (IdleWatch(limit=60),))
        assert game.result is not None


def test_caravan_bvb_stops_a_stuck_game_and_records_why(tmp_path: Path) -> None:
    record = tmp_path / "stuck.jsonl"
    done = subprocess.run(
        [str(CARAVAN), "--bvb", "--rules", "foxon", "--seed", "4", "--record", str(record)],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines()[-1] == (
        f"No caravan has changed in {STUCK_PLIES} moves: the bots are stuck and the game is "
        "stopped.")
    result = json.loads(record.read_text(encoding="utf-8").splitlines()[-1])
    assert result["reason"] == "abandoned" and result["cause"] == "stalemate"
    assert result["winners"] == []
    replayed = subprocess.run([str(CARAVAN), "--replay", str(record), "--delay", "0"],
                              capture_output=True, text=True, timeout=120, check=False)
    assert replayed.returncode == 0
    assert replayed.stdout.splitlines()[-1] == "The recorded game was not finished (stalemate)."
