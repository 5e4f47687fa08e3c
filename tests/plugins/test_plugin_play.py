"""``cardtable play kuhn_poker``: the generic terminal table plays the plug-in's game, a person
typing poker's words against a bot."""

from __future__ import annotations

import subprocess
import sys

PLAY = [sys.executable, "-m", "cardtable.cli.main", "play", "kuhn_poker", "--plain",
        "--delay", "0"]


def test_a_person_plays_against_a_bot_in_the_terminal() -> None:
    # The seed deals P1 a Queen: "call" with no bet to face is refused, "bet" is played, and
    # always-bet calls it.
    done = subprocess.run([*PLAY, "--seat", "human", "--seat", "always-bet", "--seed", "3"],
                          input="call\nbet\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "card: Q" in out and "cards: P1 Q, P2 none" in out
    assert "!!! There is no bet to call: check (pass) or bet." in out
    assert "*** P1: bet" in out and "*** P2: bet" in out
    assert "Winner: P2 (showdown)" in out and "chips: -2, 2" in out


def test_bots_play_a_game_to_the_end() -> None:
    done = subprocess.run([*PLAY, "--seat", "equilibrium", "--seat", "always-bet", "--seed",
                           "3"], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert "=== Game over ===" in done.stdout
