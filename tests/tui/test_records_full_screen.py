"""Records on the full screen: a record that cannot be written is said as in the line mode
(and closing the game afterwards stays quiet); SIGTERM and SIGHUP close the screen, restore
the terminal and record the cause, like Ctrl-C."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import signal
import subprocess
from pathlib import Path

import pytest

from cardtable.games.caravan.rules import SeatRules
from cardtable.games.obsession.rules import Rules
from cardtable.ui.tui.caravan_app import CaravanApp
from cardtable.ui.tui.common import FatalScreen
from cardtable.ui.tui.obsession_app import ObsessionApp
from cardtable.ui.tui.result_lines import result_lines
from waiting import wait_until

from .terminal import BIN, needs_tmux, tmux, wait_for

FULL = "Cannot write record file '/dev/full': No space left on device."
needs_dev_full = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")


@needs_dev_full
def test_obsession_record_to_a_full_device() -> None:
    async def scenario() -> ObsessionApp:
        app = ObsessionApp(Rules(players=2), ("human", "obsessed"), 4, 0.0, "/dev/full",
                           ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, FatalScreen) and app.screen.message == FULL
            await pilot.press("escape")
            await pilot.pause()
        return app

    app = asyncio.run(scenario())
    assert app.return_value == 1
    app.abandon()  # what the program does after the screen closes: no second error
    # The reason stays on the terminal once the screen has gone, not "Game abandoned.".
    assert result_lines(app) == ([], [f"obsession: {FULL}"])


@needs_dev_full
def test_caravan_record_to_a_full_device() -> None:
    async def scenario() -> CaravanApp:
        app = CaravanApp(SeatRules.preset("power"), ("human", "bot:normal"), 7, 0, 0.0,
                         None, "/dev/full", True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, FatalScreen) and app.screen.message == FULL
            await pilot.press("escape")
            await pilot.pause()
        return app

    app = asyncio.run(scenario())
    assert app.return_value == 1
    assert result_lines(app) == ([], [f"caravan: {FULL}"])


# ------------------------------------------------------------------ signals in a real terminal

def _start_and_stop(session: str, tmp_path: Path, program: str, args: str, ready: str,
                    number: int) -> str:
    """Run ``program args`` in a terminal, send ``number`` once ``ready`` shows, and return the
    screen after the program ended (checking that the normal screen is back)."""
    pid = tmp_path / "pid"
    command = (f"echo $$ > {shlex.quote(str(pid))}; exec env TERM=xterm-256color "
               f"{shlex.quote(str(BIN / program))} {args}")
    tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", session,
         f"sh -c {shlex.quote(command)}; echo status=$?; sleep 30")
    wait_for(session, ready)
    assert tmux("display-message", "-p", "-t", session, "#{alternate_on}").strip() == "1"
    os.kill(int(pid.read_text().strip()), number)
    screen = wait_for(session, f"status={128 + number}")
    assert f"Game interrupted by {signal.Signals(number).name}." in screen
    # The terminal is back to its normal screen, with the shell's lines on it.
    wait_until(lambda: tmux("display-message", "-p", "-t", session,
                            "#{alternate_on}").strip() == "0",
               "the alternate screen to be off")
    return screen


@needs_tmux
@pytest.mark.parametrize(("game", "ready"), [
    ("obsession", "Select your 3 VISIBLE cards"),
    ("caravan", "Welcome to Caravan"),
])
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_stopping_signal_closes_the_full_screen(game: str, ready: str, number: int,
                                                  session: str, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    screen = _start_and_stop(session, tmp_path, game,
                             f"--seed 1 --delay 0 --ascii --record {shlex.quote(str(record))}",
                             ready, number)
    # The one line that says why; not "Game abandoned." as if the player had quit.
    assert "Game abandoned." not in screen
    cause = signal.Signals(number).name.lower()
    last = json.loads(record.read_text(encoding="utf-8").splitlines()[-1])
    assert (last["type"], last["reason"], last["cause"]) == ("result", "abandoned", cause)


@needs_tmux
def test_a_stopping_signal_closes_a_replay_and_the_launcher(session: str,
                                                            tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    done = subprocess.run([str(BIN / "caravan"), "--bvb", "--seed", "1", "--record",
                           str(record)], capture_output=True, check=False, timeout=60)
    assert done.returncode == 0
    _start_and_stop(session, tmp_path, "caravan",
                    f"--replay {shlex.quote(str(record))} --delay 5", "Welcome to Caravan",
                    signal.SIGTERM)
    # A session of its own: the replay's session stays (its shell sleeps), so the tmux server
    # is not left without a session, and exiting, as the launcher's session starts on it.
    _start_and_stop(f"{session}-launcher", tmp_path, "cardtable", "", "choose a game",
                    signal.SIGTERM)
