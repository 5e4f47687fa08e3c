"""``cardtable play GAME``: any registered game in line mode, through its description alone
(a game the test registers, which no part of cardtable knows by name)."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator

import pytest

from cardtable.cli.play import main

from .nim import registered


@pytest.fixture(autouse=True)
def nim() -> Iterator[None]:
    with registered():
        yield


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str,
         stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    status = main(["test_nim", "--plain", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_person_sees_the_view_and_the_numbered_moves_and_plays_by_number_or_notation(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = play(monkeypatch, capsys, "--stones", "4",
                            stdin="moves\n3\ntake 5\n2\n\ntake 1\n")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "@@@ Test Nim: A human, B take-one"
    # The game gives no view of its own: its observation's fields, as "key: value" lines.
    assert lines[1:6] == ["--- A to move", "  seat: A", "  pile: 4", "  to move: A",
                          "+++ Moves: 1. take 1   2. take 2"]
    prompt = "+++ A, your move (number or notation): "
    assert (f"{prompt}+++ Moves: 1. take 1   2. take 2\n"
            f"{prompt}!!! There is no move 3: choose 1 to 2, or type a move.\n"
            f"{prompt}!!! Unknown move 'take 5' (allowed: take 1, take 2).\n"
            f"{prompt}*** A: take 2\n*** B: take 1\n--- A to move\n") in out
    assert out.endswith(f"{prompt}{prompt}*** A: take 1\n=== Game over ===\n"
                        "Winner: A (last stone)\nleft: 0\n")


def test_a_move_the_game_refuses_is_said_and_asked_again(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = play(monkeypatch, capsys, "--stones", "1", stdin="take 2\n1\n")
    assert status == 0
    assert "!!! You cannot take 2 (the pile has 1).\n" in out
    assert out.count("--- A to move") == 1  # asked again without the view again
    assert out.endswith("Winner: A (last stone)\nleft: 0\n")


def test_help_quit_and_the_end_of_input(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = play(monkeypatch, capsys, stdin="help\nquit\n")
    assert status == 0 and out.endswith("!!! Game abandoned\n")
    assert "+++ Take one or two stones; whoever takes the last one wins.\n" in out
    status, out, _ = play(monkeypatch, capsys, stdin="")
    assert status == 3 and out.endswith("!!! End of input, game abandoned\n")


def test_two_people_pass_the_terminal(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = play(monkeypatch, capsys, "--seat", "human", "--seat", "HUMAN",
                          "--stones", "2", stdin="\n1\n\n1\n")
    assert status == 0
    assert out.count("+++ Pass to A, press Enter: ") == 1
    assert out.count("+++ Pass to B, press Enter: ") == 1
    assert out.endswith("Winner: B (last stone)\nleft: 0\n")


def test_bots_play_through_the_match_loop(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = play(monkeypatch, capsys, "--seat", "take-one", "--seat", "take-one",
                          "--stones", "3", "--seed", "4")
    assert status == 0
    assert out == ("@@@ Test Nim: A take-one, B take-one\n*** A: take 1\n*** B: take 1\n"
                   "*** A: take 1\n=== Game over ===\nWinner: A (last stone)\nleft: 0\n")


@pytest.mark.parametrize(("args", "message"), [
    (["--seed", "x"], "--seed must be an integer >= 0 (got 'x')"),
    (["--delay", "-1"], "--delay must be a number of seconds from 0 to 86400 (got '-1')"),
    (["--stones", "99"], "--stones must be an integer from 1 to 20 (got '99')"),
    (["--seat", "human", "--seat", "nope"], "Unknown bot 'nope' for test_nim (bots: "),
    (["--seat", "human"], "Test Nim has 2 seats (A, B): name a player for each (got 1)."),
    (["--bogus"], "unrecognized arguments: --bogus"),
])
def test_bad_options_are_one_line_and_status_1(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str],
                                               args: list[str], message: str) -> None:
    status, out, err = play(monkeypatch, capsys, *args)
    assert (status, out) == (1, "")
    assert err.startswith(f"cardtable play: {message}") and err.count("\n") == 1


def test_an_unknown_game_and_the_help_list_the_registered_games(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nope"]) == 1
    assert "Unknown game 'nope' (allowed: " in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert "test_nim" in capsys.readouterr().out.splitlines()[1]
    assert main(["test_nim", "--help"]) == 0
    help_text = capsys.readouterr().out
    assert "--stones N" in help_text and "an integer from 1 to 20 (default 5)" in help_text


def test_cardtables_help_lists_the_registered_games() -> None:
    from cardtable.cli.main import help_text

    text = help_text()
    assert "test_nim" in text.split("games: ")[1].splitlines()[0]
    assert "Test Nim" in text
