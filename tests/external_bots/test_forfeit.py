"""Every way an external program forfeits, with real misbehaving programs: the game ends with
the reason ``forfeit`` naming the seat and why, and the program is ended."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.agents.external import ExternalSeat, Limits
from cardtable.agents.registry import make_seat
from cardtable.engine.match import Forfeit, play_match

from .helpers import SCRIPTS, command, gone, pids_in, wait_gone

FAST = Limits(startup_s=5, move_ms=150, hard_ms=1500, warnings=3)
"""Limits for the tests of the time limits themselves."""
PATIENT = Limits(startup_s=60, move_ms=60_000, hard_ms=60_000, warnings=3)
"""Limits for every other test: a loaded machine never makes a program late by them, so the
forfeit (or its absence) is the one the test is about."""


def caravan_forfeit(tmp_path: Path, how: str, limits: Limits = PATIENT,
                    env: dict[str, str] | None = None) -> tuple[Any, int]:
    """A Caravan game where DEF is the misbehaving program ``how``; the result and its pid."""
    game = cardtable.load_game("caravan")
    state = game.new_state(seed=3)
    pid_file = tmp_path / f"{how}.pid"
    old = {key: os.environ.get(key) for key in (env or {})}
    os.environ.update(env or {})
    try:
        bad = ExternalSeat(game, "DEF", command(SCRIPTS / "misbehave.py", how, pid_file),
                           limits=limits, stderr_path=tmp_path / "def.stderr")
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    seats = {"ABC": make_seat(game, "random", "ABC", 3), "DEF": bad}
    result = play_match(state, seats)
    (pid,) = pids_in(pid_file, 1)
    return result, pid


@pytest.mark.parametrize(("how", "why"), [
    ("crash", "its program exited with status 3"),
    ("eof", "its program closed its output (EOF)"),
    ("junk", "a line that is not JSON: no json here"),
    ("wrong_type", "a message of type 'ready' where 'move' was expected"),
    ("no_move", "its move message has no 'move' string"),
    ("very_slow", "no answer to a move within 1.5 s"),
])
def test_forfeit(tmp_path: Path, how: str, why: str) -> None:
    result, pid = caravan_forfeit(tmp_path, how, FAST if how == "very_slow" else PATIENT)
    assert result.reason == "forfeit"
    assert result.winners == ("ABC",)
    assert result.details == {"seat": "DEF", "why": why}
    assert wait_gone([pid]) == []


def test_two_refused_moves_forfeit(tmp_path: Path) -> None:
    result, pid = caravan_forfeit(tmp_path, "refused")
    assert result.reason == "forfeit" and result.winners == ("ABC",)
    assert result.details["why"].startswith("a second refused move (")
    assert wait_gone([pid]) == []


def test_one_refused_move_is_answered_once_more(tmp_path: Path) -> None:
    result, pid = caravan_forfeit(tmp_path, "refused_once")
    assert result.reason != "forfeit"
    assert wait_gone([pid]) == []


def test_three_slow_moves_forfeit(tmp_path: Path) -> None:
    result, pid = caravan_forfeit(tmp_path, "slow", FAST, env={"SLOW_SECONDS": "0.3"})
    assert result.reason == "forfeit"
    assert result.details["why"] == "over the move time limit 3 times (150 ms)"
    log = (tmp_path / "def.stderr").read_text()
    assert "warning 1 of 3" in log and "warning 2 of 3" in log
    assert wait_gone([pid]) == []


def test_one_move_over_the_hard_limit_forfeits(tmp_path: Path) -> None:
    limits = Limits(startup_s=5, move_ms=100, hard_ms=300, warnings=3)
    result, pid = caravan_forfeit(tmp_path, "slow", limits, env={"SLOW_SECONDS": "0.6"})
    assert result.details["why"] == "no answer to a move within 0.3 s"
    assert wait_gone([pid]) == []


def test_startup_timeout_forfeits(tmp_path: Path) -> None:
    limits = Limits(startup_s=0.5, move_ms=1000, hard_ms=3000, warnings=3)
    result, pid = caravan_forfeit(tmp_path, "silent_start", limits)
    assert result.details == {"seat": "DEF", "why": "no answer to hello within 0.5 s"}
    assert wait_gone([pid]) == []


def test_stderr_goes_to_the_log_not_the_screen(tmp_path: Path,
                                               capfd: pytest.CaptureFixture[str]) -> None:
    caravan_forfeit(tmp_path, "crash")
    out, err = capfd.readouterr()
    assert "about to crash" not in out + err
    assert "about to crash" in (tmp_path / "def.stderr").read_text()


def test_a_command_that_cannot_start_is_refused_before_the_game(tmp_path: Path) -> None:
    game = cardtable.load_game("caravan")
    with pytest.raises(Exception, match="Cannot start '/nonexistent/bot' for DEF"):
        make_seat(game, "exec:/nonexistent/bot --fast", "DEF", 1)


def test_forfeit_is_a_match_abandoned_with_its_own_cause() -> None:
    forfeit = Forfeit("P2", "its program exited with status 1")
    assert forfeit.cause == "forfeit"
    assert str(forfeit) == "P2 forfeits: its program exited with status 1"


def test_obsession_forfeit_names_the_seat(tmp_path: Path) -> None:
    game = cardtable.load_game("obsession", players=3)
    state = game.new_state(seed=2)
    seats = {seat: make_seat(game, "random", seat, 2) for seat in game.seats}
    pid_file = tmp_path / "pid"
    seats["P2"] = ExternalSeat(game, "P2", command(SCRIPTS / "misbehave.py", "junk", pid_file),
                               limits=PATIENT)
    result = play_match(state, seats)
    assert result.reason == "forfeit"
    assert result.winners == ("P1", "P3")
    assert result.details["seat"] == "P2"
    assert gone(pids_in(pid_file, 1)[0]) or wait_gone(pids_in(pid_file, 1)) == []


def test_a_program_kept_open_hears_new_game_and_plays_again(tmp_path: Path) -> None:
    from .helpers import EXAMPLES

    game = cardtable.load_game("caravan")
    log = tmp_path / "spy.jsonl"
    spy = ExternalSeat(game, "DEF", command(SCRIPTS / "spy.py", log), keep_open=True)
    try:
        for seed in (1, 2):
            seats = {"ABC": ExternalSeat(game, "ABC",
                                         command(EXAMPLES / "caravan_random.py", seed)),
                     "DEF": spy}
            assert play_match(game.new_state(seed=seed), seats).reason != "forfeit"
    finally:
        spy.close()
    kinds = [line.split('"type":"')[1].split('"')[0] for line in log.read_text().splitlines()]
    assert kinds[0] == "hello" and kinds.count("result") == 2
    assert kinds.count("new_game") == 1 and kinds[-1] == "quit"
    assert kinds.index("new_game") == kinds.index("result") + 1


def test_the_async_loop_ends_a_forfeited_game_the_same_way(tmp_path: Path) -> None:
    import asyncio

    from cardtable.engine.match import AwaitedSeat, play_match_async

    game = cardtable.load_game("caravan")
    pid_file = tmp_path / "pid"
    bad = ExternalSeat(game, "ABC", command(SCRIPTS / "misbehave.py", "wrong_type", pid_file),
                       limits=PATIENT)
    seats = {"ABC": AwaitedSeat(bad), "DEF": AwaitedSeat(make_seat(game, "normal", "DEF", 1))}
    result = asyncio.run(play_match_async(game.new_state(seed=1), seats))
    assert result.winners == ("DEF",)
    assert result.details["why"] == "a message of type 'ready' where 'move' was expected"
    assert bad.closed and wait_gone(pids_in(pid_file, 1)) == []


@pytest.mark.parametrize("how", ["illegal", "illegal_once"])
def test_obsession_refused_move_gets_one_more_answer(tmp_path: Path, how: str) -> None:
    game = cardtable.load_game("obsession", players=2)
    pid_file = tmp_path / "pid"
    seats = {"P1": ExternalSeat(game, "P1", command(SCRIPTS / "misbehave.py", how, pid_file),
                                limits=PATIENT),
             "P2": make_seat(game, "obsessed", "P2", 1)}
    result = play_match(game.new_state(seed=1), seats)
    if how == "illegal":
        assert result.details == {"seat": "P1",
                                  "why": "a second refused move (Invalid selection)"}
    else:
        # Each turn its first move is refused and its answer to the error is legal: one
        # refusal a turn never forfeits, and the game plays to its end.
        assert result.reason in ("out", "cap", "repetition")
    assert wait_gone(pids_in(pid_file, 1)) == []
