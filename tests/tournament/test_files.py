"""``cardtable tournament``'s files: nothing is lost. Only a results file is appended to or
trimmed, no file the command writes is another of its files, what is not a regular file is
refused without being opened, a file is read with a limit, and every line of a file resumed
is checked before anything is played."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from .test_cli import COMMAND, run

TWO = ["caravan", "--seat", "random", "--seat", "normal", "--games", "2"]


def refusal(*args: str) -> str:
    """The one error line of a refused run (status 2, nothing on standard output)."""
    done = run(*args, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("cardtable tournament: ")
    assert done.stderr.count("\n") == 1, done.stderr
    return done.stderr.removeprefix("cardtable tournament: ").rstrip("\n")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A finished results file of ``TWO``: its header and two games."""
    path = tmp_path_factory.mktemp("results") / "r.jsonl"
    assert run(*TWO, "--out", str(path)).returncode == 0
    return path.read_bytes()


@pytest.mark.parametrize("text", [b"my notes", b"my notes\n", b"\n", b"{}\n",
                                  b'{"tournament": 2}\n', b"[1, 2]\nmore"])
def test_a_file_that_is_no_results_file_is_refused_unchanged(tmp_path: Path,
                                                             text: bytes) -> None:
    notes = tmp_path / "notes"
    notes.write_bytes(text)
    assert refusal(*TWO, "--out", str(notes)) == f"'{notes}' is not a tournament results file."
    assert notes.read_bytes() == text


def test_a_last_line_that_no_stop_could_have_cut_is_refused(tmp_path: Path,
                                                            results: bytes) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(results + b"my notes")
    assert refusal(*TWO, "--out", str(out)) == (
        f"'{out}', line 4: not a game result (a last line without its line break that no stop "
        "could have cut).")
    assert out.read_bytes() == results + b"my notes"


def _games(text: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()[1:]]


def _edit(results: bytes, change: str) -> bytes:
    """``results`` with its first game's line changed by ``change`` (a Python statement on
    ``line``, the game's dictionary)."""
    lines = results.splitlines(keepends=True)
    line = json.loads(lines[1])
    exec(change, {}, {"line": line})
    lines[1] = json.dumps(line).encode() + b"\n"
    return b"".join(lines)


@pytest.mark.parametrize(("change", "reason"), [
    ("line['result'] = 'won'", "result: Input should be an object"),
    ("line['result']['ranks'] = [-1, 5]", "result.ranks.0: Input should be greater than or "
                                          "equal to 0"),
    ("line['result']['ranks'] = [0, 5]", "ranks must be 2 places from 0 to 1"),
    ("line['result']['ranks'] = [0]", "ranks must be 2 places from 0 to 1"),
    ("line['result']['ranks'] = [0, '1']", "result.ranks.1: Input should be a valid integer"),
    ("del line['result']['ranks']", "result.ranks: Field required"),
    ("line['moves'] = 'many'", "moves: Input should be a valid integer"),
    ("line['moves'] = 10 ** 400", "moves: Input should be less than or equal to 100000"),
    ("line['moves'] = True", "moves: Input should be a valid integer"),
    ("line['time'] = 'fast'", "time: Input should be a valid number"),
    ("line['time'] = -1", "time: Input should be greater than or equal to 0"),
    ("line['time'] = 1e308", "time: Input should be less than or equal to 1000000000"),
    ("line['seats'] = ['random', 'deep-blue']", "seat 'deep-blue' is not an entrant of this "
                                                "tournament"),
    ("line['seats'] = ['random', 'random']", "seats must be 2 different entrants"),
    ("line['rotation'] = 7", "rotation must be below 2"),
    ("line['deal'] = -3", "deal: Input should be greater than or equal to 0"),
    ("line['result']['winners'] = ['expert']", "every winner must be one of the seats"),
    ("line['details'] = []", "details: Input should be an object"),
    ("line['extra'] = 1", "extra: Extra inputs are not permitted"),
    ("line.clear()", "seats: Field required"),
])
def test_a_malformed_game_line_is_refused_by_number_before_anything_is_played(
        tmp_path: Path, results: bytes, change: str, reason: str) -> None:
    out = tmp_path / "r.jsonl"
    text = _edit(results, change)
    out.write_bytes(text)
    more = [*TWO[:-1], "6"]  # more games to play: none may be appended
    assert refusal(*more, "--out", str(out)) == (
        f"'{out}', line 2: not a game result ({reason}).")
    assert out.read_bytes() == text


def test_a_line_that_is_no_json_object_is_refused_by_number(tmp_path: Path,
                                                            results: bytes) -> None:
    out = tmp_path / "r.jsonl"
    text = results + b"[" * 100_000 + b"]" * 100_000 + b"\n"
    out.write_bytes(text)
    message = refusal(*TWO, "--out", str(out))
    assert message.startswith(f"'{out}', line 4: not a game result (Invalid JSON: recursion "
                              "limit exceeded")
    assert out.read_bytes() == text


@pytest.mark.parametrize("params", [
    "[" * 100_000 + "]" * 100_000,
    "{" + '"a":{' * 50_000 + "}" * 50_001,
])
def test_a_deeply_nested_header_is_refused(tmp_path: Path, params: str) -> None:
    out = tmp_path / "r.jsonl"
    text = ('{"tournament":1,"game":"caravan","params":' + params + "}\n").encode()
    out.write_bytes(text)
    assert refusal(*TWO, "--out", str(out)) == f"'{out}' is not a tournament results file."
    assert out.read_bytes() == text


def test_a_header_of_the_wrong_shape_is_refused_by_line(tmp_path: Path,
                                                        results: bytes) -> None:
    out = tmp_path / "r.jsonl"
    header = json.loads(results.splitlines()[0])
    header["seats"] = "random"
    out.write_text(json.dumps(header) + "\n")
    assert refusal(*TWO, "--out", str(out)) == (
        f"'{out}', line 1: not a tournament header (seats: Input should be a valid array).")


@pytest.mark.parametrize(("args", "what"), [
    (["--seed", "9"], "another seed"),
    (["--rules", "nv"], "other rules"),
    (["--gauntlet", "normal"], "another gauntlet"),
])
def test_another_tournament_is_named_in_plain_words(tmp_path: Path, results: bytes,
                                                    args: list[str], what: str) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(results)
    assert refusal(*TWO, *args, "--out", str(out)) == (
        f"'{out}' holds a tournament with {what}; give another --out file (or the same options "
        "again to resume it).")


def test_the_plot_cannot_be_the_results_file(tmp_path: Path, results: bytes) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(results)
    (tmp_path / "link.png").symlink_to(out)
    for plot in (out, tmp_path / "link.png", tmp_path / "." / "r.jsonl"):
        assert refusal(*TWO, "--out", str(out), "--plot", str(plot)) == (
            f"Cannot write results file '{out}': it is the --plot file; give another file.")
    assert out.read_bytes() == results
    new = tmp_path / "new.jsonl"
    assert refusal(*TWO, "--out", str(new), "--plot", str(new)).endswith(
        "it is the --plot file; give another file.")
    assert not new.exists()


def test_the_plot_cannot_be_the_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text('preset = "nv"\n')
    assert refusal(*TWO, "--rules-file", str(rules), "--plot", str(rules)) == (
        f"Cannot write plot '{rules}': it is the --rules-file file; give another file.")
    assert rules.read_text() == 'preset = "nv"\n'


def test_what_is_not_a_regular_file_is_refused_without_waiting(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for option, what in (("--out", "results file"), ("--plot", "plot")):
        assert refusal(*TWO, option, str(pipe)) == (
            f"Cannot write {what} '{pipe}': it is a named pipe, not a regular file.")
        assert refusal(*TWO, option, "/dev/zero") == (
            f"Cannot write {what} '/dev/zero': it is a character device, not a regular file.")


def test_standard_output_into_a_pipe_is_refused() -> None:
    assert refusal(*TWO, "--out", "/dev/stdout") == (  # run() reads standard output by a pipe
        "Cannot write results file '/dev/stdout': it is a named pipe, not a regular file.")


def test_standard_output_into_a_file_is_not_the_results_file(tmp_path: Path) -> None:
    shown = tmp_path / "shown.txt"
    with open(shown, "w") as stdout:
        done = subprocess.run([*COMMAND, *TWO, "--out", "/dev/stdout"], stdout=stdout,
                              stderr=subprocess.PIPE, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stderr == ("cardtable tournament: Cannot write results file '/dev/stdout': it "
                           "is standard output; give another file.\n")
    assert shown.read_text() == ""


def test_a_file_too_large_is_refused_after_reading_a_bounded_part(
        tmp_path: Path, results: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(results + b'{"seats":"' + b"x" * (2 << 20) + b'"}\n')
    assert refusal(*TWO, "--out", str(out)) == (
        f"Cannot read results file '{out}': line 4 is longer than 1 MiB.")
    # The limit of the whole file (256 MiB), made small here so as not to write that much.
    from cardtable.tournament import results as results_file
    from cardtable.tournament.errors import TournamentError
    from cardtable.tournament.schedule import Config, Entrant

    assert results_file.MAX_FILE_BYTES == 256 << 20
    monkeypatch.setattr(results_file, "MAX_FILE_BYTES", 4097)
    game = results.splitlines(keepends=True)[1]
    out.write_bytes(results + game * 20)
    config = Config("caravan", {}, 2, (Entrant("random", "random"),
                                       Entrant("normal", "normal")), None, 1)
    with pytest.raises(TournamentError) as refused:
        results_file.read(out, config)
    assert refused.value.message == (
        f"Cannot read results file '{out}': the file is larger than 4097 bytes.")
    assert refused.value.status == 2
    assert len(results_file.read(tmp_path / "absent", config).games) == 0


def test_a_cut_line_is_still_trimmed_and_played_again(tmp_path: Path, results: bytes) -> None:
    out = tmp_path / "r.jsonl"
    lines = results.splitlines(keepends=True)
    for cut in (lines[2][:5], lines[2][:-2]):
        out.write_bytes(b"".join(lines[:2]) + cut)
        done = run(*TWO, "--out", str(out))
        assert done.returncode == 0, done.stderr
        assert _without_time(out.read_bytes()) == _without_time(results)


def _without_time(text: bytes) -> list[object]:
    games = _games(text)
    for game in games:
        del game["time"]
    return sorted(games, key=str)


def test_a_host_name_that_cannot_be_encoded_is_one_line() -> None:
    assert refusal(*TWO, "--backend", "ray", "--address", "a..b:1") == (
        "Cannot reach a Ray cluster at 'a..b:1': 'a..b' is not a host name.")
