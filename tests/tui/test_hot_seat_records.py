"""Hot-seat games left at the pass screen of the full screen: their records replay.

Two people share the screen; after a move the pass screen hides the hands. Leaving there
(Esc, then yes) writes an ``abandoned`` line with cause ``quit``; the real ``obsession`` and
``caravan`` programs replay such a record to that point and say the game was not finished.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path

from cardtable.games.caravan.rules import SeatRules
from cardtable.games.obsession.rules import Rules
from cardtable.ui.tui.caravan_app import CaravanApp
from cardtable.ui.tui.common import ConfirmQuit, PassScreen
from cardtable.ui.tui.obsession_app import ObsessionApp

from .terminal import BIN


def _replay(program: str, record: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / program), "--plain", "--replay", str(record)],
                          capture_output=True, text=True, timeout=120, check=False,
                          stdin=subprocess.DEVNULL, env={**os.environ, "PYTHONIOENCODING": "utf-8"})


async def _type(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    for key in text:
        await pilot.press("space" if key == " " else key)
    await pilot.press("enter")


async def _settle(app, pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def _quit_at_the_pass_screen(app, pilot) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(app.screen, PassScreen)
    await pilot.press("escape")
    await pilot.pause()
    assert isinstance(app.screen, ConfirmQuit)
    await pilot.press("y")
    await pilot.pause()


def _cause(record: Path) -> object:
    return json.loads(record.read_text().splitlines()[-1])["cause"]


def test_obsession_quit_at_the_pass_screen_replays(tmp_path: Path) -> None:
    record = tmp_path / "obsession.jsonl"

    async def scenario() -> ObsessionApp:
        app = ObsessionApp(Rules(players=2), ("human", "human"), 3, 0.0, str(record),
                           ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(2):  # each player passes the screen and swaps
                await _settle(app, pilot)
                await pilot.press("enter")
                await pilot.pause()
                await _type(pilot, "1 2 3")
            await _settle(app, pilot)
            await _quit_at_the_pass_screen(app, pilot)
        return app

    app = asyncio.run(scenario())
    assert app.return_value == 0
    assert _cause(record) == "quit"
    replayed = _replay("obsession", record)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert replayed.stdout.endswith("!!! The recorded game was not finished (quit).\n")


def test_caravan_quit_at_the_pass_screen_replays(tmp_path: Path) -> None:
    record = tmp_path / "caravan.jsonl"

    async def scenario() -> CaravanApp:
        app = CaravanApp(SeatRules.preset("power"), ("human", "human"), 7, 0, 0.0, None,
                         str(record), True)
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(app, pilot)
            await _type(pilot, "P1A")
            await _settle(app, pilot)
            await _quit_at_the_pass_screen(app, pilot)
        return app

    app = asyncio.run(scenario())
    assert app.return_value == 0
    assert _cause(record) == "quit"
    replayed = _replay("caravan", record)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert replayed.stdout.rstrip().endswith("The recorded game was not finished (quit).")
