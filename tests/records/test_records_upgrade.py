"""``cardtable records upgrade``: every record of a former dialect the tests hold becomes the
record today's programs write, replays exactly as the former file does, and no file is ever
lost or overwritten; anything else gets one line and a documented status."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardtable.engine.record import read_lines
from cardtable.engine.record_upgrade import aligned, upgrade

RECORDS = Path(__file__).parent
LEGACY = RECORDS / "legacy"
CURRENT = RECORDS / "current"
BIN = Path(sys.executable).parent
FORMER = sorted(LEGACY.glob("*.jsonl"))
# The former records and the records of today written by the same command (README.md).
SAME_GAME = {"caravan-power-normal-normal": "caravan-power", "caravan-nv-mulligan": None,
             "caravan-foxon-stalemate-shuffles": None, "caravan-human-eof": None,
             "obsession-bots4": None, "obsession-cap40": None, "obsession-human-eof": None,
             "austerity-three": None}


def run(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / argv[0]), *argv[1:]], capture_output=True, text=True,
                          timeout=120, check=False, stdin=subprocess.DEVNULL, cwd=cwd,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})


def without_version(path: Path) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    lines[0].pop("cardtable")
    return lines


def replayed(path: Path) -> tuple[int, str, str]:
    """What the game's own replay shows of ``path`` (status, output, errors)."""
    game = path.name.split("-")[0]
    if game == "austerity":
        done = run("cardtable", "replay", str(path), "--moves")
    else:
        done = run(game, "--plain", "--replay", str(path), "--delay", "0")
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for path in FORMER:
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


# ------------------------------------------------------------------ the upgraded records


def test_every_former_record_is_upgraded_next_to_it(folder: Path) -> None:
    names = [path.name for path in FORMER]
    done = run("cardtable", "records", "upgrade", *names, cwd=folder)
    assert (done.returncode, done.stderr) == (0, "")
    titles = {"caravan": "a Caravan", "obsession": "an Obsession", "austerity": "an Austerity"}
    assert done.stdout.splitlines() == [
        f"Upgraded '{name}' ({titles[name.split('-')[0]]} record of the former format) to "
        f"'{name.removesuffix('.jsonl')}.upgraded.jsonl'." for name in names]
    for path in FORMER:
        assert (folder / path.name).read_bytes() == path.read_bytes()  # never changed
        upgraded = folder / f"{path.stem}.upgraded.jsonl"
        first = json.loads(upgraded.read_text(encoding="utf-8").splitlines()[0])
        assert (first["type"], first["format"]) == ("header", 2)
        # The upgrade replays exactly as the former file does, in the game's own replay.
        assert replayed(upgraded) == replayed(folder / path.name)


@pytest.mark.parametrize("name", sorted(SAME_GAME))
def test_an_upgraded_record_is_the_record_written_today(folder: Path, name: str) -> None:
    """The former records and today's of the same command and seed: the upgrade is today's
    record line for line (but for the version that wrote it), and both replay the same."""
    today = CURRENT / f"{SAME_GAME[name] or name}.jsonl"
    done = run("cardtable", "records", "upgrade", f"{name}.jsonl", cwd=folder)
    assert done.returncode == 0, done.stderr
    upgraded = folder / f"{name}.upgraded.jsonl"
    assert without_version(upgraded) == without_version(today)
    status, out, err = replayed(today)
    assert replayed(folder / f"{name}.jsonl") == (status, out, err.replace(str(today), "X"))


def test_a_record_of_the_one_format_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "today.jsonl"
    shutil.copy(CURRENT / "caravan-power.jsonl", path)
    for options in ([], ["--in-place"]):
        done = run("cardtable", "records", "upgrade", *options, str(path))
        assert (done.returncode, done.stderr) == (0, "")
        assert done.stdout == f"'{path}' is already in the one record format; left as it is.\n"
    assert path.read_bytes() == (CURRENT / "caravan-power.jsonl").read_bytes()
    assert sorted(tmp_path.iterdir()) == [path]


# ------------------------------------------------------------------ never losing a file


def test_an_existing_upgrade_is_never_overwritten(folder: Path) -> None:
    target = folder / "caravan-foxon.upgraded.jsonl"
    target.write_text("mine\n", encoding="utf-8")
    done = run("cardtable", "records", "upgrade", "caravan-foxon.jsonl", "obsession-bots4.jsonl",
               cwd=folder)
    assert done.returncode == 1
    assert done.stderr == ("cardtable records upgrade: Upgrade 'caravan-foxon.jsonl': "
                           "'caravan-foxon.upgraded.jsonl' already exists; move it away, or "
                           "upgrade with --in-place.\n")
    assert target.read_text(encoding="utf-8") == "mine\n"
    assert (folder / "obsession-bots4.upgraded.jsonl").exists()  # the other file is done


def test_in_place_keeps_the_original(folder: Path) -> None:
    path = folder / "obsession-cap40.jsonl"
    before = path.read_bytes()
    done = run("cardtable", "records", "upgrade", "--in-place", str(path))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (f"Upgraded '{path}' (an Obsession record of the former format) in "
                           f"place; the original is kept as '{path}.orig'.\n")
    assert Path(f"{path}.orig").read_bytes() == before
    assert without_version(path) == without_version(CURRENT / "obsession-cap40.jsonl")
    assert not [name for name in os.listdir(folder) if name.startswith(".")]  # no leftovers
    # Once more: the file is current now, and the backup stays as it is.
    again = run("cardtable", "records", "upgrade", "--in-place", str(path))
    assert again.returncode == 0 and "already in the one record format" in again.stdout
    assert Path(f"{path}.orig").read_bytes() == before


def test_in_place_never_replaces_a_backup(folder: Path) -> None:
    path = folder / "caravan-foxon.jsonl"
    Path(f"{path}.orig").write_text("older\n", encoding="utf-8")
    before = path.read_bytes()
    done = run("cardtable", "records", "upgrade", "--in-place", str(path))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"cardtable records upgrade: Upgrade '{path}': the backup "
                           f"'{path}.orig' already exists; move it away first.\n")
    assert path.read_bytes() == before
    assert Path(f"{path}.orig").read_text(encoding="utf-8") == "older\n"


def test_in_place_that_fails_keeps_the_original(folder: Path, monkeypatch: Any,
                                                capsys: Any) -> None:
    from cardtable.cli import records

    path = folder / "caravan-foxon.jsonl"
    before = path.read_bytes()

    def no_rename(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_rename)
    assert records.main(["upgrade", "--in-place", str(path)]) == 1
    assert capsys.readouterr().err == (f"cardtable records upgrade: Cannot write '{path}': "
                                       f"No space left on device.\n")
    assert path.read_bytes() == before
    assert not [name for name in os.listdir(folder) if name.startswith(".")]


def test_in_place_through_a_link_upgrades_the_file_it_points_to(folder: Path) -> None:
    real = folder / "caravan-nv-mulligan.jsonl"
    link = folder / "link.jsonl"
    link.symlink_to(real)
    before = real.read_bytes()
    done = run("cardtable", "records", "upgrade", "--in-place", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and Path(f"{real}.orig").read_bytes() == before
    assert without_version(real) == without_version(CURRENT / "caravan-nv-mulligan.jsonl")


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize(("text", "line", "reason"), [
    ("", 1, "the record is empty"),
    ("\n\nhello\n", 3, "malformed line"),
    ("[1, 2]\n", 1, 'malformed line (not an object with a "type")'),
    ('{"type": "action"}\n', 1, "the first line is not a record header"),
])
def test_a_file_that_is_not_a_record_is_one_line(tmp_path: Path, text: str, line: int,
                                                 reason: str) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_text(text, encoding="utf-8")
    done = run("cardtable", "records", "upgrade", str(path))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"cardtable records upgrade: Upgrade '{path}', line {line}: {reason}.\n"
    assert sorted(tmp_path.iterdir()) == [path]


def test_a_file_that_cannot_be_read_is_one_line(tmp_path: Path) -> None:
    done = run("cardtable", "records", "upgrade", str(tmp_path / "none.jsonl"), str(tmp_path))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"cardtable records upgrade: Cannot open record file '{tmp_path / 'none.jsonl'}': "
        f"No such file or directory.",
        f"cardtable records upgrade: Cannot open record file '{tmp_path}': Is a directory."]


@pytest.mark.parametrize(("name", "change", "reason"), [
    ("caravan-power-normal-normal.jsonl", ("move", "card", "KH@3"), "card mismatch"),
    ("caravan-power-normal-normal.jsonl", ("move", "ply", 7), "malformed line"),
    ("obsession-bots4.jsonl", ("play", "n", 99), "the line does not match the game"),
    ("austerity-three.jsonl", ("recv", "msg", "wild"), "A is not the seat to move"),
])
def test_a_former_record_that_does_not_replay_is_refused_at_its_line(
        tmp_path: Path, name: str, change: tuple[str, str, Any], reason: str) -> None:
    kind, field, value = change
    lines = (LEGACY / name).read_text(encoding="utf-8").splitlines()
    key = "ev" if name.startswith("austerity") else "t" if name.startswith("obsession") else "type"
    number = next(index for index, line in enumerate(lines)
                  if json.loads(line).get(key) == kind
                  and (kind != "recv" or json.loads(line).get("valid")))
    if name.startswith("austerity"):  # the second valid reply: B's turn, not A's
        number = [index for index, line in enumerate(lines)
                  if json.loads(line).get("ev") == "recv" and json.loads(line)["valid"]][1]
        lines[number] = json.dumps({**json.loads(lines[number]), "from": "A"})
    else:
        lines[number] = json.dumps({**json.loads(lines[number]), field: value})
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run("cardtable", "records", "upgrade", str(path))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (f"cardtable records upgrade: Upgrade '{path}', line {number + 1}: "
                           f"{reason}.\n")
    assert sorted(tmp_path.iterdir()) == [path]


def test_bad_command_lines(tmp_path: Path) -> None:
    done = run("cardtable", "records")
    assert (done.returncode, done.stderr) == (1, "cardtable records: a command is needed: "
                                                 "upgrade (usage: cardtable records upgrade "
                                                 "[--in-place] FILE [FILE ...])\n")
    done = run("cardtable", "records", "downgrade", "x")
    assert (done.returncode, done.stderr) == (1, "cardtable records: unknown command "
                                                 "'downgrade' (allowed: upgrade)\n")
    done = run("cardtable", "records", "upgrade")
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    done = run("cardtable", "records", "upgrade", "--help")
    assert done.returncode == 0 and "--in-place" in done.stdout


# ------------------------------------------------------------------ replays of cut records


@pytest.mark.parametrize(("name", "keep"), [("caravan-foxon.jsonl", 10),
                                            ("obsession-bots4.jsonl", 60),
                                            ("obsession-bots4.jsonl", 143)])
def test_a_former_record_cut_short_replays_as_before(tmp_path: Path, name: str,
                                                     keep: int) -> None:
    """Upgraded in memory, a record cut short is shown as far as it goes, and the line where
    its end is missing is the file's own."""
    lines = (LEGACY / name).read_text(encoding="utf-8").splitlines()
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines[:keep]), encoding="utf-8")
    status, out, err = replayed(path)
    assert status == (1 if name.startswith("caravan") else 4)
    program = name.split("-")[0]
    assert err == f"{program}: Replay '{path}', line {keep + 1}: missing result line.\n"
    assert out  # what the record holds is shown first
    upgraded = upgrade(str(path), read_lines(path))
    assert upgraded is not None and not upgraded.complete
    laid_out = aligned(upgraded, read_lines(path))
    assert len(laid_out) == keep and laid_out[-1]
