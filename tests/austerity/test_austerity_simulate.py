"""``cardtable austerity simulate``: options, reports, deck errors, and the progress bar."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from austerity_support import CARDTABLE, DECKS, run, write_deck

from cardtable.ui.progress import Progress, format_duration


def simulate(*args: str | Path) -> tuple[int, str, str]:
    result = run([CARDTABLE, "austerity", "simulate", *map(str, args)])
    return result.returncode, result.stdout.decode(), result.stderr.decode()


BASE = ["--deck", DECKS / "medium.deck", "--tokens", "3-5", "--points", "5,10",
        "--players", "shenzi,banzai,ed"]


def test_json_report_counts_every_game() -> None:
    status, out, err = simulate(*BASE, "--json")
    assert (status, err) == (0, "")
    report = json.loads(out)
    # 3 token counts x 2 targets x 3 rotations.
    assert report["games"] == 18
    assert report["unfinished"] == 0
    assert set(report["strategies"]) == {"shenzi", "banzai", "ed"}
    assert set(report["seats"]) == {"A", "B", "C"}
    for tally in report["strategies"].values():
        assert tally["seats"] == 18
    shares = sum(t["win_share"] for t in report["strategies"].values())
    assert shares == pytest.approx(18)
    wins = sum(t["outright_wins"] for t in report["seats"].values())
    assert wins <= 18


def test_text_report() -> None:
    status, out, err = simulate(*BASE, "--seating", "permute", "--deck", DECKS / "cheap.deck")
    assert (status, err) == (0, "")
    assert out.startswith("games 72, unfinished 0, turns ")
    assert "strategy" in out and "\nbanzai " in out and "\nC " in out


def test_unfinished_games_are_counted_apart(tmp_path: Path) -> None:
    # Only banzai players and 0-point cards: the real hub would never end this game.
    deck = write_deck(tmp_path, ["P:0:1,0,0,0", "B:0:0,1,0,0"])
    status, out, _ = simulate("--deck", deck, "--tokens", "3", "--points", "1",
                              "--players", "banzai,banzai", "--max-turns", "500", "--json")
    report = json.loads(out)
    assert (status, report["games"], report["unfinished"], report["turns"]) == (0, 2, 1 * 2, 1000)
    assert report["strategies"] == {}


def test_transcript_needs_exactly_one_game() -> None:
    status, out, err = simulate(*BASE, "--transcript")
    assert status == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("cardtable austerity simulate: --transcript needs exactly one game")


@pytest.mark.parametrize("args, problem", [
    (["--tokens", "x"], "--tokens: 'x' is not a number or a range A-B"),
    (["--tokens", "5-3"], "--tokens: range '5-3' is empty"),
    (["--points", "-1"], "--points: '-1' is not a number or a range A-B"),
    (["--players", "shenzi"], "--players: 2 to 26 players are needed"),
    (["--seating", "random"], "--seating: 'random' is not one of fixed, rotate, permute"),
    (["--max-turns", "0"], "--max-turns: '0' is not a positive number"),
    (["--bogus"], "unknown option '--bogus'"),
    (["--tokens"], "--tokens needs a value"),
    (["--players", ",".join(["shenzi", "banzai", "ed"] * 5), "--seating", "permute"],
     "--seating permute: more than 100000 orderings"),
])
def test_bad_options_are_one_line_and_exit_1(args: list[str], problem: str) -> None:
    options = [str(a) for a in BASE]
    for option in args[::2]:
        if option in options:
            index = options.index(option)
            del options[index:index + 2]
    status, out, err = simulate(*options, *args)
    assert (status, out) == (1, "")
    (line,) = err.splitlines()
    assert line.startswith(f"cardtable austerity simulate: {problem}")
    assert line.endswith(" (see 'cardtable austerity --help')")


def test_missing_required_option() -> None:
    status, _, err = simulate("--deck", DECKS / "small.deck", "--tokens", "3", "--points", "3")
    assert status == 1
    assert err == ("cardtable austerity simulate: --players is required "
                   "(see 'cardtable austerity --help')\n")


@pytest.mark.parametrize("content, status, message", [
    (None, 3, "Cannot access deck file"),
    (b"B:1:1,0,0,0\r\n", 4, "Invalid deck file contents"),
])
def test_bad_decks_give_the_hub_messages(tmp_path: Path, content: bytes | None, status: int,
                                         message: str) -> None:
    path = tmp_path / "deck"
    if content is not None:
        path.write_bytes(content)
    result = simulate("--deck", path, "--tokens", "3", "--points", "3", "--players", "ed,ed")
    assert result == (status, "", f"cardtable austerity simulate: {message}\n")


def test_hub_alias(tmp_path: Path) -> None:
    result = run([CARDTABLE, "austerity", "hub", "1"])
    assert (result.returncode, result.stderr) == (
        1, b"Usage: austerity tokens points deck player player [player ...]\n")


def test_progress_bar_on_a_terminal_without_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without rich (a plain install has no extras) the bar is drawn by hand.
    monkeypatch.setitem(sys.modules, "rich", None)
    monkeypatch.setitem(sys.modules, "cardtable.ui.progress_rich", None)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    now = [0.0]
    stream = Terminal()
    progress = Progress(100, "games", stream=stream, clock=lambda: now[0])
    for _ in range(50):
        now[0] += 0.01
        progress.advance()
    progress.close()
    text = stream.getvalue()
    assert "\r\x1b[K[###############---------------] 50/100 games 100/s ETA 1s" in text
    assert text.endswith("\n")


def test_progress_bar_is_quiet_off_a_terminal() -> None:
    now = [0.0]
    stream = io.StringIO()
    progress = Progress(1000, "games", stream=stream, clock=lambda: now[0])
    for _ in range(1000):
        now[0] += 0.001
        progress.advance()
    progress.close()
    # One second of work: below the quiet interval, nothing at all is written.
    assert stream.getvalue() == ""
    slow = Progress(10, "games", stream=stream, clock=lambda: now[0])
    for _ in range(10):
        now[0] += 5
        slow.advance()
    slow.close()
    lines = stream.getvalue().splitlines()
    assert 4 <= len(lines) <= 6 and "\r" not in stream.getvalue()
    assert lines[-1] == "[##############################] 10/10 games 0/s ETA 0s"


def test_durations() -> None:
    assert [format_duration(s) for s in (0, 42, 185, 7620)] == ["0s", "42s", "3m05s", "2h07m"]


def test_an_unknown_player_is_refused_as_every_program_refuses_an_unknown_bot() -> None:
    options = [str(a) for a in BASE]
    index = options.index("--players")
    del options[index:index + 2]
    status, out, err = simulate(*options, "--players", "shenzi,nala")
    assert (status, out) == (1, "")
    assert err == ("cardtable austerity simulate: Unknown bot 'nala' for austerity "
                   "(bots: shenzi, banzai, ed).\n")
