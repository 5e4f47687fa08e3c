"""Nothing is lost: record files of both games, run as real programs.

A record that cannot be written is reported and keeps its complete lines; a record never
replaces a file the same command reads, nor an existing record without ``--overwrite``;
SIGTERM and SIGHUP end a game like Ctrl-C; a replay says when a record was cut short, how
an unfinished game ended, and which game a record of the other game belongs to.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
POSIX = pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals and limits")

CARAVAN_BOTS = ["--bvb", "--seed", "1"]
OBSESSION_BOTS = ["--plain", "--humans", "0", "--players", "3", "--seed", "21"]
BOTS = {"caravan": CARAVAN_BOTS, "obsession": OBSESSION_BOTS}


def run(game: str, *args: str, stdin: str = "",
        limit: int | None = None) -> subprocess.CompletedProcess[str]:
    def small_files() -> None:  # a disk that fills up: files may grow to ``limit`` bytes
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        assert limit is not None
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([str(BIN / game), *args], input=stdin, capture_output=True,
                          text=True, timeout=60, check=False,
                          preexec_fn=None if limit is None else small_files,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})


def stderr_text(done: subprocess.CompletedProcess[str] | tuple[str, str], game: str) -> str:
    """Standard error without the program's name before each line (``caravan: ``)."""
    text = done[1] if isinstance(done, tuple) else done.stderr
    return "".join(line.removeprefix(f"{game}: ") for line in text.splitlines(keepends=True))


def one_line(done: subprocess.CompletedProcess[str], status: int = 1) -> str:
    assert done.returncode == status, done
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    return stderr_text(done, Path(done.args[0]).name).rstrip("\n")


def record_of(tmp_path: Path, game: str, name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    done = run(game, *BOTS[game], "--record", str(path))
    assert done.returncode == 0, done
    return path


# ------------------------------------------------------------ a record that cannot be written


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("game", ["caravan", "obsession"])
def test_record_to_a_full_device_is_one_line(game: str) -> None:
    done = run(game, *BOTS[game], "--record", "/dev/full")
    assert one_line(done) == "Cannot write record file '/dev/full': No space left on device."


@POSIX
@pytest.mark.parametrize("game", ["caravan", "obsession"])
def test_disk_full_in_mid_game_keeps_the_complete_lines(game: str, tmp_path: Path) -> None:
    whole = record_of(tmp_path, game, "whole.jsonl").read_text(encoding="utf-8")
    path = tmp_path / "cut.jsonl"
    done = run(game, *BOTS[game], "--record", str(path), limit=3000)
    assert one_line(done) == f"Cannot write record file '{path}': File too large."
    kept = path.read_text(encoding="utf-8")
    assert 0 < len(kept) <= 3000 and kept.endswith("\n")
    assert whole.startswith(kept)  # every line written is there, and no piece of a line
    lines = kept.count("\n")
    replayed = run(game, "--plain", "--replay", str(path))
    assert stderr_text(replayed, game) == (
        f"Replay '{path}', line {lines + 1}: missing result line.\n")


# ------------------------------------------------------------ files the command reads


def test_obsession_replay_onto_itself_is_refused(tmp_path: Path) -> None:
    path = record_of(tmp_path, "obsession")
    before = path.read_bytes()
    (tmp_path / "soft.jsonl").symlink_to(path)
    os.link(path, tmp_path / "hard.jsonl")
    for replay, record in ((path, path), (tmp_path / "soft.jsonl", path),
                           (path, tmp_path / "hard.jsonl"), (tmp_path / "soft.jsonl",
                                                             tmp_path / "hard.jsonl")):
        done = run("obsession", "--plain", "--replay", str(replay), "--record", str(record),
                   "--overwrite")
        assert one_line(done) == (f"Record file '{record}' is the --replay file; "
                                  f"record to another file.")
        assert done.stdout == ""
    assert path.read_bytes() == before


def test_caravan_record_onto_its_deck_or_rules_file_is_refused(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    deck.write_text("".join(f"{rank}{suit}\n" for suit in "SHDC" for rank in ranks),
                    encoding="utf-8")
    rules = tmp_path / "rules.toml"
    rules.write_text('preset = "nv"\n', encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(deck)
    cases = [("--deck", deck, deck), ("--deck-def", deck, tmp_path / "link.txt"),
             ("--deck-abc", tmp_path / "link.txt", deck), ("--rules-file", rules, rules)]
    for option, read, record in cases:
        before = read.read_bytes()
        done = run("caravan", *CARAVAN_BOTS, option, str(read), "--record", str(record),
                   "--overwrite")
        assert one_line(done) == (f"Record file '{record}' is the {option} file; "
                                  f"record to another file.")
        assert read.read_bytes() == before


def test_caravan_replay_with_record_stays_refused(tmp_path: Path) -> None:
    path = record_of(tmp_path, "caravan")
    before = path.read_bytes()
    done = run("caravan", "--replay", str(path), "--record", str(path), "--overwrite")
    assert one_line(done) == "Options --replay and --record cannot be combined."
    assert path.read_bytes() == before


# ------------------------------------------------------------ existing records


@pytest.mark.parametrize("game", ["caravan", "obsession"])
def test_an_existing_record_is_kept_unless_overwrite(game: str, tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text("precious\n", encoding="utf-8")
    done = run(game, *BOTS[game], "--record", str(path))
    assert one_line(done) == (f"Record file '{path}' already exists; add --overwrite to "
                              f"replace it.")
    assert done.stdout == "" and path.read_text(encoding="utf-8") == "precious\n"
    done = run(game, *BOTS[game], "--record", str(path), "--overwrite")
    assert done.returncode == 0 and path.read_text(encoding="utf-8").startswith("{")
    empty = tmp_path / "empty.jsonl"
    empty.touch()  # an empty file holds nothing to lose
    assert run(game, *BOTS[game], "--record", str(empty)).returncode == 0


@pytest.mark.parametrize("game", ["caravan", "obsession"])
def test_help_offers_overwrite(game: str) -> None:
    done = run(game, "--help")
    assert "--overwrite" in done.stdout


# ------------------------------------------------------------ SIGTERM and SIGHUP


def _start_human_game(game: str, path: Path) -> subprocess.Popen[str]:
    """A game waiting for the person at seat 1 to type a move."""
    args = (["--plain", "--seed", "3"] if game == "caravan"
            else ["--plain", "--players", "2", "--seed", "1"])
    process = subprocess.Popen([str(BIN / game), *args, "--record", str(path)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    prompt = "YOU > " if game == "caravan" else "+++ Enter card number(s): "
    seen = ""
    deadline = time.monotonic() + 60
    while not seen.endswith(prompt) and time.monotonic() < deadline:
        char = process.stdout.read(1)
        assert char, f"the game ended before asking: {seen}"
        seen += char
    return process


@POSIX
@pytest.mark.parametrize("game", ["caravan", "obsession"])
@pytest.mark.parametrize(("number", "cause"), [(signal.SIGTERM, "sigterm"),
                                               (signal.SIGHUP, "sighup")])
def test_stopping_signals_end_the_game_like_ctrl_c(game: str, number: int, cause: str,
                                                   tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    process = _start_human_game(game, path)
    process.send_signal(number)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 128 + number
    assert stderr_text((out, err), game) == f"Game interrupted by {signal.Signals(number).name}.\n"
    last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    assert (last["type"], last["winners"], last["reason"], last["cause"]) == (
        "result", [], "abandoned", cause)
    if game == "obsession":
        assert out.splitlines()[-1] == "!!! Interrupted"
    replayed = run(game, "--plain", "--replay", str(path))
    assert replayed.returncode == 0 and replayed.stderr == ""
    end = f"The recorded game was not finished ({cause})."
    assert replayed.stdout.splitlines()[-1] == (end if game == "caravan" else f"!!! {end}")


# ------------------------------------------------------------ replays that end early


def test_obsession_replay_of_a_cut_record_says_the_record_ends_first(tmp_path: Path) -> None:
    path = record_of(tmp_path, "obsession")
    lines = path.read_text(encoding="utf-8").splitlines()
    for keep in (len(lines) - 1, 40, 1):
        cut = tmp_path / f"cut{keep}.jsonl"
        cut.write_text("".join(line + "\n" for line in lines[:keep]), encoding="utf-8")
        done = run("obsession", "--replay", str(cut))
        assert done.returncode == 4
        assert stderr_text(done, "obsession") == (
            f"Replay '{cut}', line {keep + 1}: missing result line.\n")
        assert "Replay mismatch" not in done.stdout
    # A record that has its last line but does not match the game is still a mismatch.
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(line + "\n" for line in [*lines[:40], lines[-1]]),
                        encoding="utf-8")
    done = run("obsession", "--replay", str(tampered))
    assert done.returncode == 4 and done.stdout.endswith("!!! Replay mismatch at line 41\n")


def test_obsession_replay_of_an_interrupted_game_ends_as_caravan_does(tmp_path: Path) -> None:
    path = tmp_path / "int.jsonl"
    process = _start_human_game("obsession", path)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=30)
    assert process.returncode == 130
    done = run("obsession", "--replay", str(path))
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.endswith(
        "+++ Enter card number(s): \n!!! The recorded game was not finished (interrupt).\n")
    assert "End of input" not in done.stdout


# ------------------------------------------------------------ the other game's record


def test_each_replay_names_the_game_of_a_foreign_record(tmp_path: Path) -> None:
    caravan = record_of(tmp_path, "caravan", "caravan.jsonl")
    obsession = record_of(tmp_path, "obsession", "obsession.jsonl")
    done = run("caravan", "--plain", "--replay", str(obsession))
    assert one_line(done) == (f"Replay '{obsession}': this is an Obsession record; "
                              f"replay it with: obsession --replay {obsession}")
    done = run("obsession", "--replay", str(caravan))
    assert one_line(done) == (f"Replay '{caravan}': this is a Caravan record; "
                              f"replay it with: caravan --replay {caravan}")
    austerity = tmp_path / "hub.jsonl"
    austerity.write_text('{"ev":"start","version":1,"tokens":7,"points":15}\n',
                         encoding="utf-8")
    for game in ("caravan", "obsession"):
        done = run(game, "--plain", "--replay", str(austerity))
        assert one_line(done) == (f"Replay '{austerity}': this is an Austerity record; "
                                  f"replay it with: cardtable replay {austerity}")
