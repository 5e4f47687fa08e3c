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
    assert first["t"] == "header" and first["game"] == "obsession" and first["v"] == 1
    assert first["seed"] == 21 and first["seats"] == ["obsessed"] * 3
    assert first["rules"] == {"players": 3, "decks": 2, "run_kill": 4,
                              "kill_order": "effect-first", "max_plays": 5000,
                              "repeat_limit": 3}
    assert len(first["deck"]) == 108  # type: ignore[arg-type]
    assert [line["t"] for line in lines[1:5]] == ["swap", "swap", "swap", "start"]
    opening = lines[5]
    assert opening["t"] == "play" and opening["n"] == 1 and opening["auto"] is True
    assert sum(1 for line in lines if line.get("auto")) == 1
    for index, line in enumerate(lines):
        if line["t"] == "blind":
            follower = lines[index + 1]
            assert follower["t"] in ("play", "pickup") and follower["n"] == line["n"]
        if line["t"] == "play":
            assert set(line["effects"]) <= {"reverse", "kill", "extra"}  # type: ignore[arg-type]
    end = lines[-1]
    assert end["t"] == "end" and end["stalemate"] is False and end["reason"] is None
    assert sorted(end["placings"]) == [1, 2, 3]  # type: ignore[arg-type]
    outs = [line["seat"] for line in lines if line["t"] == "out"]
    assert outs == end["placings"][:2]  # type: ignore[index]


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
    assert status == 3 and _lines(path)[-1] == {"t": "abandoned", "reason": "eof"}
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


def test_a_changed_derived_line_is_a_mismatch_at_that_line(tmp_path: Path) -> None:
    def change(lines: list[str]) -> list[str]:
        line = json.loads(lines[9])
        line["n"] = line["n"] + 1
        lines[9] = json.dumps(line)
        return lines

    assert _tampered(tmp_path, change) == (4, "!!! Replay mismatch at line 10")


def test_a_changed_decision_is_a_mismatch_at_that_line(tmp_path: Path) -> None:
    def change(lines: list[str]) -> list[str]:
        index = next(i for i, text in enumerate(lines) if '"auto"' not in text
                     and json.loads(text)["t"] == "play")
        line = json.loads(lines[index])
        line["cards"] = ["R", "R", "R", "R"]
        lines[index] = json.dumps(line)
        return lines

    status, message = _tampered(tmp_path, change)
    assert status == 4 and message.startswith("!!! Replay mismatch at line ")


def test_a_changed_deck_is_a_mismatch_at_line_1_or_later(tmp_path: Path) -> None:
    def change(lines: list[str]) -> list[str]:
        header = json.loads(lines[0])
        header["deck"][0], header["deck"][-1] = header["deck"][-1], header["deck"][0]
        lines[0] = json.dumps(header)
        return lines

    status, message = _tampered(tmp_path, change)
    assert status == 4 or message.endswith("=================")


@pytest.mark.parametrize(("change", "expected"), [
    (lambda lines: [*lines, '{"t":"out","seat":1,"place":1}'], "extra"),
    (lambda lines: [lines[0], "not json", *lines[1:]], 2),
    (lambda lines: ['{"t":"header","game":"caravan","v":1}', *lines[1:]], 1),
])
def test_broken_records_are_mismatches(tmp_path: Path, change: object, expected: object) -> None:
    path, _, _ = _record(tmp_path, BOTS)
    count = len(path.read_text(encoding="utf-8").splitlines())
    status, message = _tampered(tmp_path, change)
    line = {"end": count, "extra": count + 1}.get(expected, expected)  # type: ignore[call-overload]
    assert (status, message) == (4, f"!!! Replay mismatch at line {line}")
