"""Smoke tests in a real terminal: tmux runs the installed entry points, we type and read.

Skipped when tmux is not installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import importlib.util
import shlex
import sys

from .terminal import BIN, needs_tmux, tmux, wait_for

pytestmark = needs_tmux


def caravan_command() -> str:
    if importlib.util.find_spec("cardtable.cli.caravan") is not None:
        return f"{shlex.quote(str(BIN / 'caravan'))} --seed 7 --delay 0 --bot normal"
    # Until the caravan command dispatches to the full screen, start it the same way it will.
    code = ("import sys; from cardtable.games.caravan.rules import SeatRules; "
            "from cardtable.ui.tui.caravan_app import run_caravan; "
            "sys.exit(run_caravan(SeatRules.preset('power'), ('human', 'bot:normal'), 7, 0, "
            "0.0, None, None, False))")
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"


def test_caravan_in_a_real_terminal(session: str) -> None:
    start_with_status(session, caravan_command())
    wait_for(session, "Welcome to Caravan")
    tmux("send-keys", "-t", session, "q1", "Enter")
    wait_for(session, "Invalid option 'q'")
    for command in ("P1A", "P1B"):
        tmux("send-keys", "-t", session, command, "Enter")
        wait_for(session, f"YOU entered: {command}")
    screen = wait_for(session, "last: YOU P1B")
    assert "B 4 ANY" in screen
    assert " YOU " in screen and " BOT " in screen and " · hand " in screen
    assert "lanes" in screen
    leave_and_wait(session)
    assert "Welcome to Caravan" not in tmux("capture-pane", "-p", "-t", session)


def test_obsession_in_a_real_terminal(session: str) -> None:
    start_with_status(session, f"{shlex.quote(str(BIN / 'obsession'))} --seed 1 --delay 0 --ascii")
    wait_for(session, "Select your 3 VISIBLE cards")
    tmux("send-keys", "-t", session, "9", "Enter")
    wait_for(session, "!!! Invalid card selection")
    tmux("send-keys", "-t", session, "456", "Enter")  # digit keys toggle cards 4, 5, 6
    screen = wait_for(session, "Starting with Player")
    assert "P1 you" in screen and "Draw pile" in screen
    leave_and_wait(session)


def start_with_status(name: str, command: str) -> None:
    """Run ``command``, then print its exit status below whatever it left on the terminal.

    COLUMNS and LINES (set by some test runners) would fix the size the screen believes in,
    whatever the pane's size: they are removed."""
    tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", name,
         f"env -u COLUMNS -u LINES TERM=xterm-256color {command}; echo \"exit=$?\"; "
         "sleep 30")


def resize_until(name: str, width: int, height: int, text: str) -> None:
    """Resize the pane until ``text`` shows; a resize that arrives while the program is still
    starting can go unseen, so it is repeated (one column more or less each time)."""
    for attempt in range(8):
        tmux("resize-window", "-t", name, "-x", str(width + attempt % 2), "-y", str(height))
        try:
            wait_for(name, text, timeout=4.0)
            return
        except AssertionError:
            continue
    wait_for(name, text)


def test_typing_works_after_the_terminal_was_too_small(session: str) -> None:
    start_with_status(session, caravan_command())
    wait_for(session, "Welcome to Caravan")
    resize_until(session, 70, 24, "Terminal too small")
    resize_until(session, 80, 24, "Welcome to Caravan")
    tmux("send-keys", "-t", session, "P1A", "Enter")  # no Tab first: the input has the keys
    wait_for(session, "YOU entered: P1A")
    leave_and_wait(session)


def leave_and_wait(session: str) -> None:
    """Esc, then yes, and wait for the program's exit status: it ends by itself, not by the
    terminal closing under it as it closes its screen (the session ends after the test)."""
    tmux("send-keys", "-t", session, "Escape")
    wait_for(session, "Quit this game?")
    tmux("send-keys", "-t", session, "y")
    wait_for(session, "exit=")


def test_the_result_line_stays_after_the_screen_closes(session: str) -> None:
    start_with_status(session, f"{shlex.quote(str(BIN / 'obsession'))} --seed 1 --delay 0 "
                               "--humans 0 --players 3")
    wait_for(session, "Game over.")
    tmux("send-keys", "-t", session, "Escape")
    screen = wait_for(session, "exit=0")
    assert "=== Game Over ===" in screen and "1. Player" in screen
    assert "Draw pile" not in screen  # the full screen is gone, its result stays


def test_ctrl_c_asks_then_exits_130(session: str) -> None:
    start_with_status(session, caravan_command())
    wait_for(session, "Welcome to Caravan")
    tmux("send-keys", "-t", session, "C-c")
    screen = wait_for(session, "Quit this game?")
    assert "ctrl+q" not in screen.lower()
    tmux("send-keys", "-t", session, "y")
    screen = wait_for(session, "exit=130")
    assert "Game interrupted." in screen
