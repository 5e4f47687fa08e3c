"""External programs (``exec:COMMAND``) at the tables of the full screen, as real processes:
whole games with the example bots, every way a screen's game can end (result, forfeit, quit),
the program's stderr kept off the screen, and no process left behind."""

from __future__ import annotations

import asyncio
import json
import shlex
from pathlib import Path

import pytest

from cardtable.engine.errors import GameError
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.obsession.rules import Rules
from cardtable.ui.tui.caravan_app import CaravanApp, parse_players, play_caravan
from cardtable.ui.tui.common import ConfirmQuit, screen_text
from cardtable.ui.tui.obsession_app import ObsessionApp
from cardtable.ui.tui.result_lines import result_lines
from external_bots.helpers import EXAMPLES, SCRIPTS, pids_in, spec, wait_gone

from .pilot import until
from .terminal import BIN, needs_tmux, start, tmux, wait_for

POWER = SeatRules.preset("power")


async def until_over(app: CaravanApp | ObsessionApp, pilot, rounds: int = 600) -> None:  # type: ignore[no-untyped-def]
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.game_over():
            return
    raise AssertionError("the game did not end")


def record_lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_caravan_programs_play_a_whole_game_and_are_ended(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    pid_file = tmp_path / "pids"
    players = parse_players((f"bot:{spec(EXAMPLES / 'caravan_heuristic.py')}",
                             f"bot:{spec(SCRIPTS / 'spy.py', tmp_path / 'spy.log', pid_file)}"))

    async def scenario() -> None:
        app = CaravanApp(POWER, players, 5, 0, 0.0, None, str(record), True)
        async with app.run_test(size=(100, 30)) as pilot:
            await until_over(app, pilot)
            result = app.game.result
            assert result is not None and result.reason != "forfeit"
            assert "WINNER" in screen_text(app) or "DRAW" in screen_text(app)
        pids = pids_in(pid_file, 1)
        assert wait_gone(pids) == []

    asyncio.run(scenario())
    lines = record_lines(record)
    assert lines[0]["seats"][1]["player"].startswith("bot:exec:")  # type: ignore[index]
    assert lines[-1]["type"] == "result" and lines[-1]["reason"] != "forfeit"
    log = (tmp_path / "spy.log").read_text().splitlines()
    received = [json.loads(line)["type"] for line in log]
    assert received[0] == "hello" and received[-2:] == ["result", "quit"]


def test_caravan_forfeit_ends_the_game_on_the_screen_and_in_the_record(tmp_path: Path) -> None:
    record = tmp_path / "forfeit.jsonl"
    pid_file = tmp_path / "pids"
    players = parse_players(("human", f"bot:{spec(SCRIPTS / 'misbehave.py', 'crash', pid_file)}"))
    app = CaravanApp(POWER, players, 3, 1, 0.0, None, str(record), True)  # DEF moves first

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until_over(app, pilot)
            result = app.game.result
            assert result is not None and result.reason == "forfeit"
            assert result.winners == ("ABC",)
            assert "BOT DEF forfeits: its program exited with status 3" in app.messages
            shown = screen_text(app)
            assert "forfeits" in shown and "about to crash" not in shown
            assert not app.is_human_turn()
            await pilot.press("escape")  # over: Esc leaves without asking
            await pilot.pause()
        assert wait_gone(pids_in(pid_file, 1)) == []

    asyncio.run(scenario())
    assert "about to crash" not in "\n".join(app.messages)
    assert "about to crash" in (tmp_path / "forfeit.jsonl.DEF.stderr").read_text()
    assert record_lines(record)[-1] == {
        "type": "result", "winners": ["ABC"], "reason": "forfeit", "cause": "forfeit",
        "details": {"lanes": [None, None, None], "plies": 0, "seat": "DEF",
                    "why": "its program exited with status 3"}}
    out, err = result_lines(app)
    assert out == ["DEF forfeits: its program exited with status 3", "WINNER: YOU"] and not err


def test_caravan_quit_mid_game_ends_the_program(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    players = parse_players(
        ("human", f"bot:{spec(SCRIPTS / 'spy.py', tmp_path / 'spy.log', pid_file, 'child')}"))

    async def scenario() -> None:
        app = CaravanApp(POWER, players, 3, 0, 0.0, None, None, True)
        async with app.run_test(size=(100, 30)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.is_human_turn()
            pids = pids_in(pid_file, 2)  # the program and the child it started
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            await pilot.press("y")
            await pilot.pause()
        assert wait_gone(pids) == []
        assert app.game.result is not None and app.game.result.reason == "quit"

    asyncio.run(scenario())


def test_a_command_that_cannot_start_is_refused_before_the_screen() -> None:
    players = parse_players(("human", "bot:exec:/nonexistent/caravan-bot --fast"))
    assert players[1] == "bot:exec:/nonexistent/caravan-bot --fast"  # the command keeps its case
    with pytest.raises(GameError, match="Cannot start '/nonexistent/caravan-bot' for DEF"):
        play_caravan(POWER, players, 1, 0, 0.0, None, None, True)
    with pytest.raises(ValueError, match="needs a command"):
        parse_players(("human", "bot:exec:  "))


def test_obsession_program_plays_a_whole_game(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    seats = ("obsessed", spec(EXAMPLES / "obsession_heuristic.py"),
             spec(EXAMPLES / "obsession_random.py"))

    async def scenario() -> None:
        app = ObsessionApp(Rules(players=3), seats, 11, 0.0, str(record), True)
        async with app.run_test(size=(100, 30)) as pilot:
            await until_over(app, pilot, 2000)
            assert app.game.over and app.forfeit is None
            assert app.ended is not None
            shown = screen_text(app)
            assert "P2 program" in shown and "obsession_heuristic" not in shown

    asyncio.run(scenario())
    assert record_lines(record)[-1]["type"] == "result"


def test_obsession_forfeit_is_shown_recorded_and_ends_the_program(tmp_path: Path) -> None:
    record = tmp_path / "forfeit.jsonl"
    pid_file = tmp_path / "pids"
    seats = (spec(SCRIPTS / "misbehave.py", "junk", pid_file), "obsessed")
    app = ObsessionApp(Rules(players=2), seats, 4, 0.0, str(record), True)

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until_over(app, pilot)
            assert app.forfeit is not None and app.forfeit.winners == ("P2",)
            assert app.turn() is None
            assert "!!! P1 forfeits: a line that is not JSON: no json here" in app.messages
            assert "forfeits" in screen_text(app)
        assert wait_gone(pids_in(pid_file, 1)) == []

    asyncio.run(scenario())
    last = record_lines(record)[-1]
    assert last["reason"] == "forfeit" and last["winners"] == ["P2"]
    places = ["", "=================", "1. Player 2 (9 cards left)", "2. Player 1 (forfeit)",
              "=================", "=== Game Over ===", "================="]
    assert app.messages[-len(places):-1] == places[1:]  # then "Press Esc ..."
    assert result_lines(app) == (
        ["!!! P1 forfeits: a line that is not JSON: no json here", *places], [])


@needs_tmux
def test_the_commands_open_the_full_screen_for_programs(session: str, tmp_path: Path) -> None:
    """``caravan`` with a program at a seat is no longer sent to the line mode; a confirmed
    Ctrl+C ends the program with the screen."""
    pid_file = tmp_path / "pids"
    program = spec(SCRIPTS / "spy.py", tmp_path / "spy.log", pid_file)
    start(session, f"{shlex.quote(str(BIN / 'caravan'))} --seed 7 --delay 0 "
                   f"--bot-def {shlex.quote(program)}")
    wait_for(session, "Welcome to Caravan")
    pids = pids_in(pid_file, 1)
    tmux("send-keys", "-t", session, "C-c")
    wait_for(session, "Quit this game?")
    tmux("send-keys", "-t", session, "y")
    wait_for(session, "caravan: Game interrupted.")
    assert wait_gone(pids) == []
    log = (tmp_path / "spy.log").read_text().splitlines()
    assert json.loads(log[0])["type"] == "hello"


def test_caravan_a_refused_move_is_answered_again_and_a_second_one_forfeits(
        tmp_path: Path) -> None:
    players = parse_players(("human", f"bot:{spec(SCRIPTS / 'misbehave.py', 'refused')}"))
    app = CaravanApp(POWER, players, 2, 1, 0.0, None, None, True)

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until_over(app, pilot)

    asyncio.run(scenario())
    result = app.game.result
    assert result is not None and result.reason == "forfeit"
    assert str(result.details["why"]).startswith("a second refused move")


def test_obsession_a_program_refused_once_plays_on(tmp_path: Path) -> None:
    seats = (spec(SCRIPTS / "misbehave.py", "illegal_once"), "obsessed")
    app = ObsessionApp(Rules(players=2), seats, 6, 0.0, None, True)

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.game.plays > 2 or app.game_over(),
                        "three plays")

    asyncio.run(scenario())
    assert app.forfeit is None


@needs_tmux
@pytest.mark.parametrize("program", ["caravan", "obsession"])
def test_a_program_that_cannot_start_is_one_line_before_the_screen(session: str,
                                                                  program: str) -> None:
    option = "--bot-def" if program == "caravan" else "--bot"
    start(session, f"{shlex.quote(str(BIN / program))} --seed 3 {option} "
                   f"'exec:/nonexistent/bot -x'; echo status=$?")
    screen = wait_for(session, "status=")
    assert f"{program}: Cannot start '/nonexistent/bot' for " in screen
    assert "status=1" in screen and "Traceback" not in screen


def test_without_a_record_the_programs_stderr_goes_to_the_log_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_BOT_LOG_DIR", str(tmp_path))
    players = parse_players(("human", f"bot:{spec(SCRIPTS / 'misbehave.py', 'crash')}"))
    app = CaravanApp(POWER, players, 3, 1, 0.0, None, None, True)

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until_over(app, pilot)
            assert "about to crash" not in screen_text(app)

    asyncio.run(scenario())
    logs = list(tmp_path.glob("DEF-*.log"))
    assert len(logs) == 1 and "about to crash" in logs[0].read_text()
