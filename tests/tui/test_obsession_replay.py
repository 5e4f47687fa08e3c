"""The Obsession replay on the full screen (pilot): every hand shown, pause, a step either way
reaches the position the engine reaches from the record, and the ends of finished, abandoned
and cut records."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.engine.record import read_lines
from cardtable.games.obsession.cards import TEXT
from cardtable.games.obsession.checked_replay import CheckedReplay, check_replay
from cardtable.games.obsession.record import ReplayMismatch, Script, load
from cardtable.games.obsession.state import ObsessionState
from cardtable.ui.tui.common import screen_text
from cardtable.ui.tui.obsession_replay import ObsessionReplayApp

from .pilot import ManualClock, until

OBSESSION = Path(sys.executable).with_name("obsession")
NEVER = 1000.0
"""A delay no test waits for: the replay only moves when a key says so."""


def record_game(path: Path, *options: str) -> None:
    subprocess.run([str(OBSESSION), "--plain", "--delay", "0", "--record", str(path),
                    *options], capture_output=True, text=True, timeout=120,
                   stdin=subprocess.DEVNULL, check=False)


def checked(path: Path) -> CheckedReplay:
    return check_replay(load(read_lines(str(path)), str(path)))


def board(game: ObsessionState) -> tuple[object, ...]:
    return (game.hands, game.visible, game.hidden, game.pile, game.draw, game.current,
            game.direction, game.phase, game.placings)


def engine_after(path: Path, decisions: int) -> ObsessionState:
    """The position after ``decisions`` recorded decisions, fed to the engine by the record's
    own script (no screen involved)."""
    loaded = load(read_lines(str(path)))
    game = ObsessionState(loaded.rules, loaded.deck, [kind == "human" for kind in loaded.seats])
    script = Script(loaded)
    for _ in range(decisions):
        game.apply(script.action(game.observe(game.current)))
    return game


def bar(app: ObsessionReplayApp) -> str:
    return screen_text(app).splitlines()[-1]


@pytest.fixture
def bots_record(tmp_path: Path) -> Path:
    path = tmp_path / "bots.jsonl"
    record_game(path, "--humans", "0", "--seed", "3")
    return path


def test_steps_forward_and_back_reach_the_engines_positions(bots_record: Path) -> None:
    replay = checked(bots_record)
    total = len(replay.actions)

    async def scenario() -> None:
        app = ObsessionReplayApp(replay, delay=NEVER, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app.position == 0 and board(app.game) == board(engine_after(bots_record, 0))
            for _ in range(6):
                await pilot.press("right")
            await pilot.press("n")
            await pilot.pause()
            assert app.position == 7
            assert board(app.game) == board(engine_after(bots_record, 7))
            assert f"move 7 of {total}, paused" in bar(app)
            # Every hand is on the screen.
            screen = screen_text(app)
            for seat in range(4):
                hand = " ".join(TEXT[card] for card in app.game.hands[seat])
                assert f"P{seat + 1} obsessed {hand}" in screen
            log = list(app.messages)
            await pilot.press("n")
            await pilot.press("left")
            await pilot.press("p")
            await pilot.pause()
            assert app.position == 6
            assert board(app.game) == board(engine_after(bots_record, 6))
            assert len(app.messages) < len(log)
            assert app.messages == log[:len(app.messages)]
            await pilot.press("home")
            await pilot.pause()
            assert app.position == 0 and board(app.game) == board(engine_after(bots_record, 0))
            await pilot.press("escape")
        assert app.return_value == 0

    asyncio.run(scenario())


def test_jump_to_the_end_shows_the_placings(bots_record: Path) -> None:
    replay = checked(bots_record)
    total = len(replay.actions)
    result = json.loads(bots_record.read_text(encoding="utf-8").splitlines()[-1])
    placings = result["details"]["placings"]

    async def scenario() -> None:
        app = ObsessionReplayApp(replay, delay=NEVER, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("end")
            await pilot.pause()
            assert app.position == total and app.game.over
            assert board(app.game) == board(engine_after(bots_record, total))
            assert "=== Game Over ===" in app.messages
            assert f"1. Player {placings[0]}" in app.messages
            assert "Game over" in screen_text(app)
            assert f"move {total} of {total}, end of record" in bar(app)
            await pilot.press("escape")
        assert app.return_value == 0

    asyncio.run(scenario())


def test_space_pauses_and_resumes_the_paced_replay(bots_record: Path) -> None:
    """The pacing runs on a clock the test moves: a move each time ``delay`` passes, none
    while paused, however slow the machine is."""
    replay = checked(bots_record)

    async def scenario() -> None:
        clock = ManualClock()
        app = ObsessionReplayApp(replay, delay=0.5, ascii_only=True)
        app.replay_clock = clock
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.replay_started, "the replay to start")
            assert app.position == 0 and "playing" in bar(app)
            clock.advance(0.25)
            await pilot.pause()
            assert app.position == 0
            clock.advance(0.25 + 2 * 0.5)
            await pilot.pause()
            assert app.position == 3 and "playing" in bar(app)
            await pilot.press("space")
            assert "paused" in bar(app)
            clock.advance(10.0)
            await pilot.pause()
            assert app.position == 3 and "paused" in bar(app)
            await pilot.press("space")
            assert "playing" in bar(app)
            clock.advance(0.5)
            await pilot.pause()
            assert app.position == 4 and "playing" in bar(app)
            await pilot.press("escape")

    asyncio.run(scenario())


def test_a_record_cut_short_is_shown_then_says_so(bots_record: Path, tmp_path: Path) -> None:
    lines = bots_record.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:40]) + "\n", encoding="utf-8")
    replay = checked(cut)
    assert replay.ending == "cut" and replay.line == 41 and replay.actions

    async def scenario() -> None:
        app = ObsessionReplayApp(replay, delay=0.0, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            closing = f"Replay '{cut}', line 41: missing result line."
            assert closing in app.messages
            assert app.important == closing
            await pilot.press("escape")
        assert app.return_value == 4

    asyncio.run(scenario())


def test_an_abandoned_record_ends_as_the_game_did(tmp_path: Path) -> None:
    path = tmp_path / "eof.jsonl"
    record_game(path, "--humans", "1", "--seed", "5")  # standard input is empty
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[-1])["reason"] == "abandoned"
    replay = checked(path)
    assert replay.ending == "abandoned" and replay.cause == "eof"

    async def scenario() -> None:
        app = ObsessionReplayApp(replay, delay=NEVER, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("e")
            await pilot.pause()
            assert "!!! The recorded game was not finished (eof)." in app.messages
            await pilot.press("escape")
        assert app.return_value == 0

    asyncio.run(scenario())


def test_a_tampered_record_is_refused_before_the_screen(bots_record: Path,
                                                        tmp_path: Path) -> None:
    lines = bots_record.read_text(encoding="utf-8").splitlines()
    line = json.loads(lines[20])
    line["seat"] = f"P{int(line['seat'][1:]) % 4 + 1}"
    lines[20] = json.dumps(line)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReplayMismatch) as refused:
        checked(tampered)
    assert refused.value.line == 21


def test_hands_that_do_not_fit_keep_the_seat_to_move_in_view(tmp_path: Path) -> None:
    path = tmp_path / "ten.jsonl"
    record_game(path, "--players", "10", "--humans", "0", "--seed", "4")
    replay = checked(path)

    async def scenario() -> None:
        app = ObsessionReplayApp(replay, delay=NEVER, ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(40):
                await pilot.press("n")
            await pilot.pause()
            seat = app.game.current
            hand = " ".join(TEXT[card] for card in app.game.hands[seat])
            screen = screen_text(app)
            assert any(line.split(f"P{seat + 1} obsessed", 1)[1].lstrip(" ").startswith(hand)
                       for line in screen.splitlines() if f"P{seat + 1} obsessed" in line)
            assert "more seats" in screen
            await pilot.press("escape")

    asyncio.run(scenario())


def test_a_replay_left_early_leaves_no_abandoned_line_but_the_end_leaves_the_placings(
        bots_record: Path) -> None:
    from cardtable.ui.tui.result_lines import result_lines

    replay = checked(bots_record)

    async def scenario(keys: tuple[str, ...]) -> ObsessionReplayApp:
        app = ObsessionReplayApp(replay, delay=NEVER, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            await pilot.press("escape")
        return app

    early = asyncio.run(scenario(("n", "n")))
    assert result_lines(early) == ([], [])  # as Caravan: nothing was abandoned
    end = asyncio.run(scenario(("end",)))
    out, err = result_lines(end)
    assert "=== Game Over ===" in out and not err


def test_a_closed_replay_of_a_cut_or_unfinished_record_says_what_the_line_mode_says(
        bots_record: Path, tmp_path: Path) -> None:
    from cardtable.ui.tui.result_lines import result_lines

    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(bots_record.read_text(encoding="utf-8").splitlines()[:12]) + "\n",
                   encoding="utf-8")
    eof = tmp_path / "eof.jsonl"
    record_game(eof, "--humans", "1", "--seed", "5")  # standard input is empty

    async def scenario(path: Path) -> ObsessionReplayApp:
        app = ObsessionReplayApp(checked(path), delay=NEVER, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("end")
            await pilot.pause()
            await pilot.press("escape")
        return app

    out, err = result_lines(asyncio.run(scenario(cut)))
    assert out == [] and len(err) == 1
    assert err[0].startswith(f"obsession: Replay '{cut}', line ")
    assert err[0].endswith(": missing result line.")
    assert result_lines(asyncio.run(scenario(eof))) == (
        ["!!! The recorded game was not finished (eof)."], [])
