"""The Caravan replay's controls: pause, a step either way reaches the engine's own position,
and the ends (pilot)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cardtable.games.caravan.record import load_replay
from cardtable.games.caravan.state import CaravanState
from cardtable.ui.tui.caravan_replay import CaravanReplayApp
from cardtable.ui.tui.common import screen_text

from .pilot import ManualClock, until
from .test_caravan_tui import _recorded_game

NEVER = 1000.0
"""A delay no test waits for: the replay only moves when a key says so."""


def board(game: CaravanState) -> tuple[object, ...]:
    """What the screen draws of a position: both seats' views of the table."""
    views = [game.observation(seat) for seat in (0, 1)]
    return tuple((view.hand, view.caravans, view.deck_sizes, view.hand_sizes, view.to_move,
                  view.piles, view.moves_made) for view in views)


def engine_after(record: Path, moves: int) -> CaravanState:
    """The position after ``moves`` recorded moves, stepped by the engine alone."""
    replay = load_replay(record)
    game = replay.start()
    for step in replay.moves[:moves]:
        replay.apply(game, step)
    return game


def bar(app: CaravanReplayApp) -> str:
    return screen_text(app).splitlines()[-1]


def test_steps_forward_and_back_reach_the_engines_positions(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    moves = _recorded_game(record)

    async def scenario() -> None:
        app = CaravanReplayApp(load_replay(record), delay=NEVER, ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.position == 0 and app.game.plies == 0
            for _ in range(5):
                await pilot.press("right")
            await pilot.press("n")
            await pilot.pause()
            assert app.position == 6
            assert board(app.game) == board(engine_after(record, 6))
            assert f"move 6 of {len(moves)}, paused" in bar(app)
            await pilot.press("left")
            await pilot.press("p")
            await pilot.pause()
            assert app.position == 4
            assert board(app.game) == board(engine_after(record, 4))
            # The message panel went back too: the first four moves, nothing after them.
            shown = [line for line in app.messages if line in set(moves)]
            assert shown == moves[:4]
            await pilot.press("home")
            await pilot.pause()
            assert app.position == 0 and board(app.game) == board(engine_after(record, 0))
            await pilot.press("escape")
        assert app.return_value == 0

    asyncio.run(scenario())


def test_jump_to_the_end_shows_the_result(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    moves = _recorded_game(record)

    async def scenario() -> None:
        app = CaravanReplayApp(load_replay(record), delay=NEVER, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("end")
            await pilot.pause()
            assert app.position == len(moves)
            assert app.game.result is not None
            assert board(app.game) == board(engine_after(record, len(moves)))
            assert "WINNER: BOT" in screen_text(app)
            assert f"move {len(moves)} of {len(moves)}, end of record" in bar(app)
            await pilot.press("left")
            await pilot.pause()
            assert app.game.result is None and app.position == len(moves) - 1
            await pilot.press("e")
            await pilot.pause()
            assert app.game.result is not None
            assert sum(line.startswith("WINNER") for line in app.messages) == 1
            await pilot.press("escape")
        assert app.return_value == 0

    asyncio.run(scenario())


def test_space_pauses_and_resumes_the_paced_replay(tmp_path: Path) -> None:
    """The pacing runs on a clock the test moves: a move comes each time ``delay`` passes,
    none while paused, however slow the machine is."""
    record = tmp_path / "game.jsonl"
    _recorded_game(record)

    async def scenario() -> None:
        clock = ManualClock()
        app = CaravanReplayApp(load_replay(record), delay=0.5, ascii_only=True)
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
            clock.advance(0.5 * len(app.replay.moves))
            await pilot.pause()
            assert app.position == len(app.replay.moves)
            assert "end of record" in bar(app)
            await pilot.press("escape")

    asyncio.run(scenario())


def test_a_cut_record_still_steps_and_ends_with_its_complaint(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    _recorded_game(record)
    lines = record.read_text(encoding="utf-8").splitlines()
    record.write_text("\n".join(lines[:12]) + "\n", encoding="utf-8")

    async def scenario() -> None:
        app = CaravanReplayApp(load_replay(record), delay=NEVER, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("e")
            await pilot.pause()
            assert f"Replay '{record}', line 13: missing result line." in app.messages
            await pilot.press("p")
            await pilot.pause()
            assert f"Replay '{record}', line 13: missing result line." not in app.messages
            await pilot.press("escape")
        assert app.return_value == 1

    asyncio.run(scenario())


def test_the_replay_lists_what_a_joker_removed(tmp_path: Path) -> None:
    import subprocess
    import sys

    record = tmp_path / "bots.jsonl"
    caravan = Path(sys.executable).with_name("caravan")
    subprocess.run([str(caravan), "--bvb", "--plain", "--seed", "1", "--delay", "0",
                    "--record", str(record)], check=True, capture_output=True,
                   stdin=subprocess.DEVNULL, timeout=60)

    async def scenario() -> None:
        app = CaravanReplayApp(load_replay(record), delay=NEVER, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("end")
            await pilot.pause()
            assert ("BOT2 played JO on 10H on Caravan A. Removed: 10S from Caravan C, "
                    "10S from Caravan D.") in app.messages
            await pilot.press("escape")

    asyncio.run(scenario())


def test_what_the_closed_replay_leaves_on_the_terminal(tmp_path: Path) -> None:
    """Nothing when left before the end; at the end, the line mode's ending: the winner, the
    recorded game's cause, or the cut record's complaint on standard error."""
    import subprocess
    import sys

    from cardtable.ui.tui.result_lines import result_lines

    finished = tmp_path / "game.jsonl"
    _recorded_game(finished)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(finished.read_text(encoding="utf-8").splitlines()[:12]) + "\n",
                   encoding="utf-8")
    quit_record = tmp_path / "quit.jsonl"
    subprocess.run([str(Path(sys.executable).with_name("caravan")), "--plain", "--seed", "5",
                    "--record", str(quit_record)], input="P1A\nquit\n", text=True,
                   capture_output=True, timeout=120, check=True)

    async def scenario(record: Path, keys: tuple[str, ...]) -> CaravanReplayApp:
        app = CaravanReplayApp(load_replay(record), delay=NEVER, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            await pilot.press("escape")
        return app

    assert result_lines(asyncio.run(scenario(finished, ("n",)))) == ([], [])
    assert result_lines(asyncio.run(scenario(finished, ("e",))))[0][0].startswith("WINNER: ")
    assert result_lines(asyncio.run(scenario(cut, ("e",)))) == (
        [], [f"caravan: Replay '{cut}', line 13: missing result line."])
    assert result_lines(asyncio.run(scenario(quit_record, ("e",)))) == (
        ["The recorded game was not finished (quit)."], [])
