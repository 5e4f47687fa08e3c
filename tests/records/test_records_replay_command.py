"""``cardtable replay FILE`` replays any game's record through its description, and
:class:`MatchRecorder` writes the record of any game: a game with a replay of its own is shown
by it, any other is checked line by line and shown move by move, and a bad record is one line
with a documented status, never a traceback."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from records_pebbles import PEBBLES, registered

from cardtable.engine.errors import RecordError
from cardtable.engine.match import Forfeit, MatchAbandoned, play_match
from cardtable.engine.record import MatchRecorder, RecordWriter, SeatEntry, other_game_message

RECORDS = Path(__file__).parent
BIN = Path(sys.executable).parent


@pytest.fixture(autouse=True)
def pebbles() -> Iterator[Any]:
    with registered() as described:
        yield described


class Takes:
    """A seat that takes the given numbers in turn, then stops as ``ending`` says."""

    def __init__(self, takes: list[int], ending: Exception | None = None) -> None:
        self.takes = takes
        self.ending = ending

    def choose(self, observation: Any) -> int:
        if not self.takes:
            assert self.ending is not None
            raise self.ending
        return self.takes.pop(0)

    def rejected(self, error: Exception) -> None:
        raise error


def record(path: Path, seed: int, north: list[int], south: list[int], most: int = 2,
           ending: Exception | None = None) -> Path:
    """The record :class:`MatchRecorder` writes of a game of pebbles."""
    game = PEBBLES.load(most=most)
    state = game.new_state(seed)
    with RecordWriter(path) as writer:
        recorder = MatchRecorder(writer, PEBBLES.name, PEBBLES.record_rules(game), seed,
                                 [SeatEntry("N", "bot:greedy"), SeatEntry("S", "human")])
        with contextlib.suppress(MatchAbandoned):
            play_match(state, {"N": Takes(north, ending), "S": Takes(south, ending)},
                       (recorder,))
    return path


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def replay(*argv: str) -> tuple[int, str, str]:
    """``cardtable replay ARGV`` run in this process (where the test game is known)."""
    from cardtable.cli.records import replay_main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = replay_main(list(argv))
    return status, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------ the generic writer


def test_the_generic_writer_writes_the_one_format(tmp_path: Path) -> None:
    from cardtable import __version__

    path = record(tmp_path / "p.jsonl", 0, [2, 2, 1], [1, 1, 1], most=3)
    assert PEBBLES.load(most=3).new_state(0).pile == 8
    assert lines(path) == [
        {"type": "header", "game": "test_pebbles", "format": 2, "cardtable": __version__,
         "rules": {"most": 3}, "seed": 0,
         "seats": [{"seat": "N", "player": "bot:greedy"}, {"seat": "S", "player": "human"}]},
        {"type": "action", "seat": "N", "action": "take 2"},
        {"type": "action", "seat": "S", "action": "take 1"},
        {"type": "action", "seat": "N", "action": "take 2"},
        {"type": "action", "seat": "S", "action": "take 1"},
        {"type": "action", "seat": "N", "action": "take 1"},
        {"type": "action", "seat": "S", "action": "take 1"},
        {"type": "result", "winners": ["S"], "reason": "last pebble", "cause": "last pebble",
         "details": {"taker": "S"}},
    ]


def test_the_generic_writer_ends_an_abandoned_and_a_forfeited_game(tmp_path: Path) -> None:
    quit_path = record(tmp_path / "q.jsonl", 0, [1], [1], ending=MatchAbandoned("N", "quit"))
    assert lines(quit_path)[-1] == {"type": "result", "winners": [], "reason": "abandoned",
                                    "cause": "quit", "details": {}}
    lost = record(tmp_path / "f.jsonl", 0, [1], [], ending=Forfeit("S", "went silent"))
    assert lines(lost)[-1] == {"type": "result", "winners": ["N"], "reason": "forfeit",
                               "cause": "forfeit",
                               "details": {"seat": "S", "why": "went silent"}}


# ------------------------------------------------------------------ the generic replay


def test_a_record_is_shown_move_by_move(tmp_path: Path) -> None:
    path = record(tmp_path / "p.jsonl", 0, [2, 2, 1], [1, 1, 1], most=3)
    status, out, err = replay(str(path))
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "@@@ Pebbles: N bot:greedy, S human (seed 0)",
        "  pile: 8", "  to move: N",
        "*** N: take 2", "  pile: 6", "  to move: S",
        "*** S: take 1", "  pile: 5", "  to move: N",
        "*** N: take 2", "  pile: 3", "  to move: S",
        "*** S: take 1", "  pile: 2", "  to move: N",
        "*** N: take 1", "  pile: 1", "  to move: S",
        "*** S: take 1", "  pile: 0", "  to move: none",
        "=== Game over ===", "Winner: S (last pebble)", "taker: S",
    ]
    status, out, _ = replay(str(path), "--moves")
    assert status == 0 and out.splitlines()[1:3] == ["*** N: take 2", "*** S: take 1"]
    status, out, _ = replay(str(path), "--quiet")
    assert status == 0 and out.splitlines() == ["=== Game over ===", "Winner: S (last pebble)",
                                                 "taker: S"]


def test_an_unfinished_and_a_forfeited_game_say_how_they_ended(tmp_path: Path) -> None:
    quit_path = record(tmp_path / "q.jsonl", 0, [1], [1], ending=MatchAbandoned("N", "quit"))
    status, out, err = replay(str(quit_path), "--moves")
    assert (status, err) == (0, "")
    assert out.splitlines()[-1] == "The recorded game was not finished (quit)."
    lost = record(tmp_path / "f.jsonl", 0, [1], [], ending=Forfeit("S", "went silent"))
    status, out, err = replay(str(lost), "--quiet")
    assert (status, err) == (0, "")
    assert out.splitlines() == ["=== Game over ===", "S forfeits: went silent", "Winner: N"]


def _edited(path: Path, number: int, change: dict[str, Any] | None) -> Path:
    """``path`` with line ``number`` changed (``None``: the line and every later one gone)."""
    text = path.read_text(encoding="utf-8").splitlines()
    if change is None:
        kept = text[:number - 1]
    else:
        kept = [*text[:number - 1], json.dumps({**json.loads(text[number - 1]), **change}),
                *text[number:]]
    edited = path.with_name(f"edited-{number}.jsonl")
    edited.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    return edited


@pytest.mark.parametrize(("number", "change", "reason"), [
    (1, {"rules": {"most": 9}}, "the header's rules: --most must be an integer from 2 to 3 "
                                "(got '9')"),
    (1, {"seats": [{"seat": "S", "player": "x"}, {"seat": "N", "player": "y"}]},
     "the header's seats are not N, S"),
    (2, {"action": "take 3"}, "You cannot take 3 (the pile has 8)"),
    (2, {"action": "grab 2"}, "'grab 2' is not a move (take N)"),
    (3, {"seat": "N"}, "N is not the seat to move"),
    (2, {"type": "chance", "event": "deck"}, "unexpected chance line 'deck'"),
    (8, {"winners": ["N"]}, 'the result line\'s winners should be ["S"]'),
    (8, {"details": {}}, 'the result line\'s details should be {"taker":"S"}'),
    (8, {"reason": "abandoned", "winners": []},
     "the game is over, but the result line says abandoned"),
])
def test_a_line_that_does_not_fit_is_one_line_and_status_4(
        tmp_path: Path, number: int, change: dict[str, Any], reason: str) -> None:
    path = _edited(record(tmp_path / "p.jsonl", 0, [2, 2, 1], [1, 1, 1]), number, change)
    status, out, err = replay(str(path))
    assert (status, out) == (4, "")
    assert err == f"cardtable replay: Replay '{path}', line {number}: {reason}.\n"


def test_an_action_after_the_end_and_a_game_not_over(tmp_path: Path) -> None:
    path = record(tmp_path / "p.jsonl", 0, [2, 2, 1], [1, 1, 1])
    text = path.read_text(encoding="utf-8").splitlines()
    early = tmp_path / "early.jsonl"
    early.write_text("\n".join([*text[:3], text[-1]]) + "\n", encoding="utf-8")
    assert replay(str(early))[2] == (f"cardtable replay: Replay '{early}', line 4: the game is "
                                     f"not over at the result line.\n")
    late = tmp_path / "late.jsonl"
    late.write_text("\n".join([*text[:-1], text[2], text[-1]]) + "\n", encoding="utf-8")
    assert replay(str(late))[2] == (f"cardtable replay: Replay '{late}', line 8: the game is "
                                    f"over before this action.\n")


def test_a_record_cut_short_is_shown_then_named(tmp_path: Path) -> None:
    path = _edited(record(tmp_path / "p.jsonl", 0, [2, 2, 1], [1, 1, 1]), 4, None)
    status, out, err = replay(str(path), "--moves")
    assert status == 4
    assert out.splitlines()[1:] == ["*** N: take 2", "*** S: take 1"]
    assert err == f"cardtable replay: Replay '{path}', line 4: missing result line.\n"


@pytest.mark.parametrize(("text", "reason"), [
    ("", "line 1: the record is empty"),
    ("\n{nope\n", "line 2: malformed line"),
    ("[1]\n", 'line 1: malformed line (not an object with a "type")'),
    ('{"type":"action"}\n', "line 1: the first line is not a record header"),
    ('{"type":"header","game":"chess","format":2}\n',
     "line 1: the record's game 'chess' is not one cardtable knows (known: "),
])
def test_a_file_that_is_no_record_is_one_line_and_status_1(tmp_path: Path, text: str,
                                                            reason: str) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_text(text, encoding="utf-8")
    status, out, err = replay(str(path))
    assert (status, out) == (1, "")
    assert err.startswith(f"cardtable replay: Replay '{path}', {reason}")
    assert err.count("\n") == 1


def test_bad_command_lines_are_one_line_and_status_1(tmp_path: Path) -> None:
    path = record(tmp_path / "p.jsonl", 0, [2, 2, 1], [1, 1, 1])
    assert replay() == (1, "", "cardtable replay: a record file is needed (usage: cardtable "
                               "replay FILE [OPTIONS])\n")
    assert replay("--quiet", str(path))[::2] == (1, "cardtable replay: the record file comes "
                                                    "first (usage: cardtable replay FILE "
                                                    "[OPTIONS])\n")
    status, _, err = replay(str(path), "--fast")
    assert status == 1 and err == "cardtable replay: unrecognized arguments: --fast\n"
    status, _, err = replay(str(tmp_path / "missing.jsonl"))
    assert status == 1 and err == (f"cardtable replay: Cannot open record file "
                                   f"'{tmp_path / 'missing.jsonl'}': No such file or "
                                   f"directory.\n")
    status, out, _ = replay("--help")
    assert status == 0 and out.startswith("usage: cardtable replay FILE [OPTIONS]")


def test_each_replay_names_the_command_of_any_games_record(tmp_path: Path) -> None:
    from cardtable.engine.record import read_lines
    from cardtable.games.caravan.record import load_replay

    path = record(tmp_path / "p.jsonl", 0, [2, 2, 1], [1, 1, 1])
    expected = f"Replay '{path}': this is a Pebbles record; replay it with: cardtable replay {path}"
    assert other_game_message(str(path), read_lines(path), "caravan") == expected
    with pytest.raises(RecordError) as caught:
        load_replay(path)
    assert caught.value.message == expected


# ------------------------------------------------------------------ the games' own replays


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / argv[0]), *argv[1:]], capture_output=True, text=True,
                          timeout=120, check=False, stdin=subprocess.DEVNULL,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})


@pytest.mark.parametrize(("name", "program", "options"), [
    ("current/caravan-nv-mulligan.jsonl", "caravan", ["--plain", "--delay", "0"]),
    ("current/obsession-human-eof.jsonl", "obsession", ["--plain"]),
    ("legacy/obsession-cap40.jsonl", "obsession", ["--plain"]),
])
def test_a_game_with_its_own_replay_is_shown_by_it(name: str, program: str,
                                                   options: list[str]) -> None:
    path = str(RECORDS / name)
    own = run(program, "--replay", path, *options)
    generic = run("cardtable", "replay", path, *options)
    assert own.returncode == 0 and own.stdout
    assert (generic.returncode, generic.stdout, generic.stderr) == (
        own.returncode, own.stdout, own.stderr)


def test_an_austerity_record_is_checked_by_its_own_reader(tmp_path: Path) -> None:
    done = run("cardtable", "replay", str(RECORDS / "legacy" / "austerity-three.jsonl"),
               "--moves")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "@@@ Austerity: A shenzi, B banzai, C ed",
        "*** A: take1,1,1,0", "*** B: take1,1,1,0", "*** C: take0,1,1,1",
        "*** A: purchase2:0,0,1,0,0", "*** B: purchase2:1,0,1,0,0", "*** C: take1,0,1,1",
        "=== Game over ===", "Winners: A, B (points)", "points: 3, 3, 0", "turns: 6",
    ]
    lines_ = (RECORDS / "current" / "austerity-three.jsonl").read_text().splitlines()
    shown = next(n for n, line in enumerate(lines_) if '"New card' in line)
    obj = json.loads(lines_[shown])
    obj["line"] = "New card = Bonus B, worth 9, costs 0,1,0,1"
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([*lines_[:shown], json.dumps(obj), *lines_[shown + 1:]]) + "\n")
    done = run("cardtable", "replay", str(edited))
    assert done.returncode == 4 and done.stdout == ""
    assert done.stderr.startswith(f"cardtable replay: Replay '{edited}', line {shown + 1}: "
                                  f"the card turned up here is not the deck line's card")
    assert done.stderr.count("\n") == 1


# ------------------------------------------------------------------ rules a record holds


@pytest.mark.parametrize(("game", "params"), [
    ("caravan", {"rules": "karavane", "abc": {"max_faces": 2}}),
    ("obsession", {"players": 5, "run_kill": 3, "kill_order": "kill-first"}),
    ("austerity", {"players": 3, "tokens": 4, "points": 9}),
])
def test_the_rules_a_record_holds_load_the_same_game(game: str, params: dict[str, Any]) -> None:
    from cardtable import load_game
    from cardtable.engine.game_registry import description

    described = description(game)
    loaded = load_game(game, **params)
    rules = described.record_rules(loaded)
    assert json.loads(json.dumps(rules)) == rules
    again = described.load_recorded(rules)
    assert described.record_rules(again) == rules
    assert again.seats == loaded.seats
