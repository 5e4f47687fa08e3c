"""Game records (JSON Lines) and replay through the real command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .cli_helpers import run

BOTS = ["--humans", "0", "--players", "3", "--seed", "21"]


def _record(tmp_path: Path, args: list[str], stdin: str = "", name: str = "game.jsonl"
            ) -> tuple[Path, str, int]:
    path = tmp_path / name
    done = run([*args, "--record", str(path)], stdin)
    return path, done.stdout, done.returncode


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_record_format(tmp_path: Path) -> None:
    path, _, status = _record(tmp_path, BOTS)
    assert status == 0
    lines = _lines(path)
    first = lines[0]
    assert (first["type"], first["game"], first["format"]) == ("header", "obsession", 2)
    assert first["seed"] == 21 and first["seats"] == [
        {"seat": f"P{n}", "player": "bot:obsessed"} for n in (1, 2, 3)]
    assert first["rules"] == {"players": 3, "decks": 2, "run_kill": 4,
                              "kill_order": "effect-first", "max_plays": 5000,
                              "repeat_limit": 3}
    deck = lines[1]
    assert (deck["type"], deck["event"]) == ("chance", "deck")
    assert len(deck["cards"]) == 108  # type: ignore[arg-type]
    assert [line["type"] for line in lines[2:-1]] == ["action"] * (len(lines) - 3)
    assert [line["action"].split()[0] for line in lines[2:5]] == ["swap"] * 3  # type: ignore[union-attr]
    assert [line["seat"] for line in lines[2:5]] == ["P1", "P2", "P3"]
    end = lines[-1]
    assert end["type"] == "result" and end["reason"] == end["cause"] == "out"
    details = end["details"]
    assert isinstance(details, dict) and details["stalemate"] is False
    assert sorted(details["placings"]) == [1, 2, 3]
    assert end["winners"] == [f"P{details['placings'][0]}"]


def test_same_seed_gives_a_byte_identical_record(tmp_path: Path) -> None:
    first, _, _ = _record(tmp_path, BOTS, name="a.jsonl")
    second, _, _ = _record(tmp_path, BOTS, name="b.jsonl")
    assert first.read_bytes() == second.read_bytes()


def test_replay_prints_the_same_transcript(tmp_path: Path) -> None:
    path, transcript, _ = _record(tmp_path, BOTS)
    done = run(["--replay", str(path)])
    assert done.returncode == 0 and done.stdout == transcript


def _unfinished(transcript: str, cause: str) -> str:
    """The replay of a game that ended at the end of input: the original transcript up to the
    question where it stopped, then what the record says about the end (as in Caravan)."""
    lines = transcript.splitlines()
    assert lines[-1] == "!!! End of input, game abandoned"
    return "".join(line + "\n" for line in lines[:-1]) + (
        f"!!! The recorded game was not finished ({cause}).\n")


def test_replay_of_a_human_game_that_ended_by_end_of_input(tmp_path: Path) -> None:
    args = ["--players", "3", "--humans", "2", "--seed", "2"]
    path, transcript, status = _record(tmp_path, args, "\n1 2 3\n\n4 5 6\n\n1\n\n1\n\n2\n")
    assert status == 3
    last = _lines(path)[-1]
    assert (last["type"], last["winners"], last["reason"], last["cause"]) == (
        "result", [], "abandoned", "eof")
    done = run(["--replay", str(path)])
    assert done.stdout == _unfinished(transcript, "eof") and done.returncode == 0


def test_replay_never_reads_input(tmp_path: Path) -> None:
    args = ["--players", "2", "--humans", "1", "--seed", "9"]
    path, transcript, _ = _record(tmp_path, args, "1 2 3\n1\n")
    done = run(["--replay", str(path)], stdin="garbage\n")
    assert done.stdout == _unfinished(transcript, "eof")


def _tampered(tmp_path: Path, change: object) -> tuple[int, str]:
    path, _, _ = _record(tmp_path, BOTS)
    lines = path.read_text(encoding="utf-8").splitlines()
    changed = change(lines)  # type: ignore[operator]
    path.write_text("\n".join(changed) + "\n", encoding="utf-8")
    done = run(["--replay", str(path)])
    return done.returncode, done.stdout.splitlines()[-1]


def test_a_changed_result_is_a_mismatch_at_that_line(tmp_path: Path) -> None:
    def change(lines: list[str]) -> list[str]:
        line = json.loads(lines[-1])
        line["details"]["plays"] += 1
        lines[-1] = json.dumps(line)
        return lines

    path, _, _ = _record(tmp_path, BOTS)
    count = len(path.read_text(encoding="utf-8").splitlines())
    assert _tampered(tmp_path, change) == (4, f"!!! Replay mismatch at line {count}")


def test_a_changed_decision_is_a_mismatch_at_that_line(tmp_path: Path) -> None:
    def change(lines: list[str]) -> list[str]:
        line = json.loads(lines[9])
        line["action"] = "play R R R R"
        lines[9] = json.dumps(line)
        return lines

    assert _tampered(tmp_path, change) == (
        4, "!!! Replay mismatch at line 10: Invalid card selection")


def test_a_changed_deck_is_a_mismatch_at_line_2_or_later(tmp_path: Path) -> None:
    def change(lines: list[str]) -> list[str]:
        deck = json.loads(lines[1])
        deck["cards"][0], deck["cards"][-1] = deck["cards"][-1], deck["cards"][0]
        lines[1] = json.dumps(deck)
        return lines

    status, message = _tampered(tmp_path, change)
    assert status == 4 or message.endswith("=================")


@pytest.mark.parametrize(("change", "expected", "reason"), [
    (lambda lines: [*lines, '{"type":"action","seat":"P1","action":"blind 1"}'], "extra",
     ": a line after the result line"),
    (lambda lines: [lines[0], "not json", *lines[1:]], 2, ": malformed line"),
    (lambda lines: ['{"t":"header","game":"caravan","v":1}', *lines[1:]], 1, ""),
])
def test_broken_records_are_mismatches(tmp_path: Path, change: object, expected: object,
                                       reason: str) -> None:
    path, _, _ = _record(tmp_path, BOTS)
    count = len(path.read_text(encoding="utf-8").splitlines())
    status, message = _tampered(tmp_path, change)
    line = {"end": count, "extra": count + 1}.get(expected, expected)  # type: ignore[call-overload]
    assert (status, message) == (4, f"!!! Replay mismatch at line {line}{reason}")
