"""The hub's command line: every check in its order, with exact messages and exit statuses."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from austerity_support import HUB, PLAYERS, hub, make_fake, pid_alive, read_log, run, write_deck

USAGE = b"Usage: austerity tokens points deck player player [player ...]\n"
SHENZI = PLAYERS["shenzi"]


@pytest.fixture
def deck(tmp_path: Path) -> Path:
    return write_deck(tmp_path, ["B:1:1,0,0,0", "Y:0:0,3,0,2"])


def expect(result: subprocess.CompletedProcess[bytes], status: int, stderr: bytes,
           stdout: bytes = b"") -> None:
    assert (result.returncode, result.stdout, result.stderr) == (status, stdout, stderr)


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 30, 31])
def test_wrong_number_of_arguments_is_a_usage_error(count: int) -> None:
    expect(hub(*(["1"] * count)), 1, USAGE)


def test_27_players_is_a_usage_error(deck: Path) -> None:
    expect(hub("1", "1", deck, *([SHENZI] * 27)), 1, USAGE)


def test_usage_names_austerity_whatever_argv0(tmp_path: Path) -> None:
    link = tmp_path / "renamed-hub"
    link.symlink_to(HUB)
    expect(run([str(link)]), 1, USAGE)


def test_help_is_not_an_option_and_keeps_the_usage_error() -> None:
    expect(hub("--help"), 1, USAGE)


@pytest.mark.parametrize("bad", ["-1", "+1", "a", "1a", "", "2147483648", " 1", "1 ", "1.0",
                                 "0x1", "99999999999999999999", "٣"])
@pytest.mark.parametrize("position", [0, 1])
def test_bad_numbers_are_bad_arguments(bad: str, position: int) -> None:
    args = ["1", "1", "no-such-deck", SHENZI, SHENZI]
    args[position] = bad
    # The deck does not exist: the number check must come first.
    expect(hub(*args), 2, b"Bad argument\n")


@pytest.mark.parametrize("tokens, points", [("0", "0"), ("007", "1"), ("2147483647", "0")])
def test_valid_numbers_reach_the_game(deck: Path, tokens: str, points: str) -> None:
    result = hub(tokens, points, deck, SHENZI, SHENZI)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(b"New card = Bonus B, worth 1, costs 1,0,0,0\n")


def test_missing_deck_cannot_be_accessed(tmp_path: Path) -> None:
    expect(hub("1", "1", tmp_path / "missing", SHENZI, SHENZI), 3, b"Cannot access deck file\n")


def test_directory_deck_cannot_be_accessed(tmp_path: Path) -> None:
    expect(hub("1", "1", tmp_path, SHENZI, SHENZI), 3, b"Cannot access deck file\n")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_deck_cannot_be_accessed(tmp_path: Path) -> None:
    path = write_deck(tmp_path, ["B:1:1,0,0,0"])
    path.chmod(0)
    expect(hub("1", "1", path, SHENZI, SHENZI), 3, b"Cannot access deck file\n")


INVALID_DECKS = {
    "empty": b"",
    "only newline": b"\n",
    "two final newlines": b"B:1:1,0,0,0\n\n",
    "blank middle line": b"B:1:1,0,0,0\n\nY:0:0,3,0,2\n",
    "blank first line": b"\nB:1:1,0,0,0\n",
    "crlf": b"B:1:1,0,0,0\r\nY:0:0,3,0,2\r\n",
    "space": b"B:1: 1,0,0,0\n",
    "trailing space": b"B:1:1,0,0,0 \n",
    "tab": b"B:1:1,0,0,0\t\n",
    "colour G": b"G:1:1,0,0,0\n",
    "lower case": b"b:1:1,0,0,0\n",
    "three costs": b"B:1:1,0,0\n",
    "five costs": b"B:1:1,0,0,0,0\n",
    "negative": b"B:1:-1,0,0,0\n",
    "plus sign": b"B:+1:1,0,0,0\n",
    "decimal": b"B:1.0:1,0,0,0\n",
    "empty field": b"B::1,0,0,0\n",
    "missing points": b"B:1,0,0,0\n",
    "extra field": b"B:1:1,0,0,0:2\n",
    "too big": b"B:2147483648:1,0,0,0\n",
    "nul": b"B:1:1,0,0,0\x00\n",
    "non-ascii digit": "B:١:1,0,0,0\n".encode(),
    "two colours": b"BY:1:1,0,0,0\n",
    "bad second card": b"B:1:1,0,0,0\nY:x:0,3,0,2\n",
}


@pytest.mark.parametrize("name", sorted(INVALID_DECKS))
def test_invalid_deck_contents(tmp_path: Path, name: str) -> None:
    path = write_deck(tmp_path, INVALID_DECKS[name].decode("latin-1"))
    path.write_bytes(INVALID_DECKS[name])
    expect(hub("1", "1", path, SHENZI, SHENZI), 4, b"Invalid deck file contents\n")


def test_deck_is_checked_before_any_player_starts(tmp_path: Path) -> None:
    log = tmp_path / "log"
    fake = make_fake(tmp_path, "fake", log=str(log))
    path = write_deck(tmp_path, "B:1:1,0,0,0\n\n")
    expect(hub("1", "1", path, fake, fake), 4, b"Invalid deck file contents\n")
    assert not log.exists()


@pytest.mark.parametrize("text", [
    "B:1:1,0,0,0",                      # no final newline
    "B:01:0001,0,0,0\n",                # leading zeros
    "B:2147483647:0,0,0,0\nR:0:0,0,0,0\n",
])
def test_valid_deck_forms(tmp_path: Path, text: str) -> None:
    path = write_deck(tmp_path, text)
    result = hub("1", "1", path, SHENZI, SHENZI)
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""


def test_leading_zeros_are_shown_canonically(tmp_path: Path) -> None:
    path = write_deck(tmp_path, "B:01:0001,0,0,0\n")
    result = hub("1", "1", path, SHENZI, SHENZI)
    assert result.stdout.splitlines()[0] == b"New card = Bonus B, worth 1, costs 1,0,0,0"


def test_bad_start_shuts_down_started_players(tmp_path: Path, deck: Path) -> None:
    log, pidfile = tmp_path / "log", tmp_path / "pid"
    first = make_fake(tmp_path, "first", log=str(log), eog="exit:3", pidfile=str(pidfile))
    result = hub("1", "1", deck, first, tmp_path / "missing", SHENZI)
    expect(result, 5, b"Bad start\n")
    # The first player got only eog; its non-zero exit gives no status line.
    assert read_log(log) == ["eog"]
    # ... and it was reaped: no process, not even a zombie, is left behind.
    assert not pid_alive(int(pidfile.read_text()))


def test_bad_start_on_path_lookup(tmp_path: Path, deck: Path) -> None:
    env = dict(os.environ, PATH=str(tmp_path))
    expect(hub("1", "1", deck, SHENZI, "no-such-player-program", env=env), 5, b"Bad start\n")


def test_bad_start_for_a_directory_and_a_non_executable(tmp_path: Path, deck: Path) -> None:
    plain = tmp_path / "plain"
    plain.write_text("#!/bin/sh\n")
    expect(hub("1", "1", deck, tmp_path, SHENZI), 5, b"Bad start\n")
    if os.geteuid() != 0:
        expect(hub("1", "1", deck, SHENZI, plain), 5, b"Bad start\n")


def test_first_player_missing_starts_nobody(tmp_path: Path, deck: Path) -> None:
    expect(hub("1", "1", deck, tmp_path / "missing", SHENZI), 5, b"Bad start\n")


def test_player_found_on_path_and_given_its_arguments(tmp_path: Path, deck: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "argv-player"
    # Records its argument vector, then plays wild until eog.
    script.write_text('#!/bin/sh\necho "$0 $#:$1:$2" >> "$ARGV_LOG"\n'
                      'while read -r line; do\n'
                      '  case "$line" in dowhat) echo wild ;; eog) exit 0 ;; esac\n'
                      'done\n')
    script.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ.get('PATH', '')}",
               ARGV_LOG=str(tmp_path / "argv"))
    result = hub("1", "1", deck, "argv-player", SHENZI, "argv-player", env=env)
    assert result.returncode == 0, result.stderr
    # Both players start at once, so their lines may come in either order.
    assert sorted((tmp_path / "argv").read_text().splitlines()) == [
        f"{bin_dir}/argv-player 2:3:0", f"{bin_dir}/argv-player 2:3:2"]


def test_script_without_shebang_runs_through_sh(tmp_path: Path, deck: Path) -> None:
    script = tmp_path / "noshebang"
    script.write_text('while read -r line; do\n'
                      '  case "$line" in dowhat) echo wild ;; eog) exit 0 ;; esac\n'
                      'done\n')
    script.chmod(0o755)
    result = hub("1", "1", deck, script, SHENZI)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[2] == b"Player A took a wild"


def test_relative_program_path(tmp_path: Path, deck: Path) -> None:
    fake = make_fake(tmp_path, "fake")
    result = hub("1", "1", deck.name, "./" + fake.name, "./" + fake.name, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
