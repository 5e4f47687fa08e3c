"""Player start-up stays light: only small modules, checked with ``python -X importtime``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from austerity_support import CARDTABLE, DECKS, PLAYERS, TIMEOUT, run

import cardtable
from cardtable.games.austerity import hub

# What the player path must never load (each costs milliseconds on every player start).
FORBIDDEN = {"argparse", "re", "json", "dataclasses", "enum", "typing", "logging", "subprocess",
             "pathlib", "importlib.metadata", "signal", "contextlib", "collections"}


def imported_by(statement: str, isolated: bool = False) -> dict[str, int]:
    """Modules imported by ``statement`` beyond the interpreter's own start-up, with their
    cumulative import time in microseconds; ``isolated``: as the hub starts its own players,
    without site (``-I -S``) and the package's path given."""
    flags = ["-X", "importtime"]
    prefix = ""
    if isolated:
        flags += ["-I", "-S"]
        package = str(Path(cardtable.__file__).parent.parent)
        prefix = f"import sys; sys.path.insert(0, {package!r}); "
    result = subprocess.run([sys.executable, *flags, "-c", prefix + statement],
                            capture_output=True, text=True, timeout=TIMEOUT, check=True)
    baseline = subprocess.run([sys.executable, *flags, "-c", prefix + "pass"],
                              capture_output=True, text=True, timeout=TIMEOUT, check=True)

    def modules(stderr: str) -> dict[str, int]:
        found = {}
        for line in stderr.splitlines():
            if not line.startswith("import time:") or "|" not in line:
                continue
            _, cumulative, name = line.split("|")
            if cumulative.strip().isdigit():
                found[name.strip()] = int(cumulative)
        return found

    base = modules(baseline.stderr)
    return {name: time for name, time in modules(result.stderr).items() if name not in base}


def test_player_entry_point_imports_only_small_modules() -> None:
    new = imported_by("import cardtable.cli.austerity_player as p; "
                      "import cardtable.games.austerity.player")
    assert not FORBIDDEN & set(new), sorted(FORBIDDEN & set(new))
    ours = {name for name in new if name.startswith("cardtable")}
    assert set(new) == ours, sorted(set(new) - ours)
    assert ours == {
        "cardtable", "cardtable.version", "cardtable.cli", "cardtable.cli.austerity_player",
        "cardtable.games",
        "cardtable.games.austerity", "cardtable.games.austerity.player",
        "cardtable.games.austerity.codec", "cardtable.games.austerity.rules",
        "cardtable.games.austerity.strategies", "cardtable.games.austerity.state"}


def test_player_started_by_the_hub_does_not_even_import_os() -> None:
    # Without site nothing has loaded os yet; the players take what they need from its C core.
    new = imported_by("import cardtable.cli.austerity_player as p; "
                      "import cardtable.games.austerity.player", isolated=True)
    assert not {"os", "posixpath", "_collections_abc", "stat"} & set(new), sorted(new)
    assert {name for name in new if not name.startswith("cardtable")} <= {"_signal"}


def test_package_roots_import_nothing() -> None:
    new = imported_by("import cardtable.games.austerity")
    # (the package's own version, one constant, is the one module the root imports)
    assert set(new) == {"cardtable", "cardtable.version", "cardtable.games",
                        "cardtable.games.austerity"}


def test_hub_entry_point_imports_only_small_modules() -> None:
    new = imported_by("import cardtable.cli.austerity_hub; import cardtable.games.austerity.hub")
    assert not FORBIDDEN & set(new), sorted(FORBIDDEN & set(new))
    ours = {name for name in new if name.startswith("cardtable")}
    # Besides the game's own modules, only C modules of the standard library.
    assert set(new) - ours <= {"errno", "select", "_signal"}, sorted(set(new) - ours)
    # The record's module is loaded only when a record is asked for.
    assert "cardtable.games.austerity.record" not in ours


def _signal_mask(status: str, field: str) -> int:
    line = next(line for line in status.splitlines() if line.startswith(field + ":"))
    return int(line.split()[1], 16)


def test_hub_runs_this_installations_players_in_a_fork_of_itself() -> None:
    script = PLAYERS["ed"]
    with open(script, "rb") as file:
        if file.readline() != b"#!" + os.fsencode(sys.executable) + b"\n":
            pytest.skip("the installed ed script runs another interpreter")
    assert hub._own_player(script) == "ed"
    messages = [b"tokens2\nnewcardP:1:1,0,0,0\ndowhat\n", b"tookA:1,1,1,0\ndowhat\neog\n"]
    child_in, to_child = os.pipe()
    from_child, child_out = os.pipe()
    process = hub._spawn(script, [script, "3", "1"], child_in, child_out)
    os.close(child_in)
    os.close(child_out)
    try:
        os.write(to_child, messages[0])
        first = os.read(from_child, 4096)
        # A fork of this process, not a program of its own.
        assert (Path(f"/proc/{process.pid}/cmdline").read_bytes()
                == Path("/proc/self/cmdline").read_bytes())
        # Started as the console script would be: only its three standard descriptors, and
        # SIGINT, SIGPIPE and SIGXFSZ neither ignored nor caught.
        assert sorted(os.listdir(f"/proc/{process.pid}/fd")) == ["0", "1", "2"]
        assert os.path.samefile(f"/proc/{process.pid}/fd/2", os.devnull)
        status = Path(f"/proc/{process.pid}/status").read_text()
        for field in ("SigIgn", "SigCgt"):
            mask = _signal_mask(status, field)
            for number in (signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ):
                assert not mask & (1 << (number - 1)), (field, number)
        os.write(to_child, messages[1])
        rest = b""
        while chunk := os.read(from_child, 4096):
            rest += chunk
    finally:
        os.close(to_child)
        os.close(from_child)
    assert process.wait() == 0
    # The same conversation as the installed script gives, run as a program of its own.
    installed = run([script, "3", "1"], stdin=b"".join(messages))
    assert installed.returncode == 0
    assert first + rest == installed.stdout and installed.stdout.count(b"\n") == 2


def test_other_programs_start_as_they_are(tmp_path: Path) -> None:
    other = tmp_path / "ed"
    other.write_text(f"#!/bin/sh\nexec {sys.executable} -c pass\n"
                     "from cardtable.cli.austerity_player import ed\n")
    other.chmod(0o755)
    assert hub._own_player(str(other)) is None
    foreign = tmp_path / "shenzi"
    foreign.write_text(f"#!{sys.executable}\nfrom elsewhere import shenzi\n")
    foreign.chmod(0o755)
    assert hub._own_player(str(foreign)) is None
    unreadable = tmp_path / "banzai"
    unreadable.write_text(f"#!{sys.executable}\n"
                          "from cardtable.cli.austerity_player import banzai\n")
    unreadable.chmod(0o644)  # not executable: execvp would refuse it, and so does the hub
    assert hub._own_player(str(unreadable)) is None


def test_bench_times_a_whole_game_and_each_players_start() -> None:
    result = run([CARDTABLE, "bench", "austerity", "--deck", str(DECKS / "medium.deck"),
                  "--runs", "1"], timeout=TIMEOUT * 2)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode().splitlines()
    assert lines[0].startswith("austerity bench: austerity 5 15 ")
    assert [line.split(" median")[0].strip() for line in lines[1:]] == [
        "whole game", "whole game CPU", "player ready: shenzi", "player ready: banzai",
        "player ready: ed"]
    # One run: median, fastest and slowest are that run's figure, and a game takes some CPU.
    for line in lines[1:]:
        median, low, high = (float(word) for word in line.split()[-5::2])
        assert 0 < low == median == high, line


def test_bench_knows_bytecode_python_would_compile_on_every_start(tmp_path: Path) -> None:
    import py_compile

    from cardtable.games.austerity import bench

    fresh, edited, never, hashed = (tmp_path / f"{name}.py" for name in
                                    ("fresh", "edited", "never", "hashed"))
    for source in (fresh, edited, never, hashed):
        source.write_text("VALUE = 1\n")
    py_compile.compile(str(fresh), doraise=True)
    py_compile.compile(str(edited), doraise=True)
    py_compile.compile(str(hashed), doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    edited.write_text("VALUE = 12\n")  # another size than the bytecode's header records
    sources = [str(path) for path in (fresh, edited, never, hashed)]
    assert bench.stale_bytecode(sources) == [str(edited), str(never)]


def test_bench_notes_bytecode_only_when_python_may_not_write_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.games.austerity import bench

    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert bench.bytecode_note() is None
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(bench, "stale_bytecode", lambda sources: sources[:2])
    note = bench.bytecode_note()
    assert note is not None and "note: 2 of " in note and "compileall" in note
    assert "\n" not in note


def test_bench_refuses_bad_options() -> None:
    result = run([CARDTABLE, "bench", "austerity", "--deck", str(DECKS / "medium.deck"),
                  "--players", "shenzi,nobody"])
    assert result.returncode == 1
    assert result.stderr.decode().count("\n") == 1 and b"--players" in result.stderr


def test_player_answers_alike_when_its_stderr_is_discarded() -> None:
    """With stderr on /dev/null (as the hub starts players) the status blocks are skipped;
    the answers and the exit status are the same."""
    messages = (b"tokens3\nnewcardP:1:1,0,0,0\nnewcardB:2:0,2,1,0\ndowhat\ntookA:1,1,1,0\n"
                b"dowhat\npurchasedB:0:1,0,0,0,0\ndowhat\neog\n")
    for name, script in PLAYERS.items():
        shown = subprocess.run([script, "3", "1"], input=messages, capture_output=True,
                               timeout=TIMEOUT, check=False)
        quiet = subprocess.run([script, "3", "1"], input=messages, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, timeout=TIMEOUT, check=False)
        assert shown.returncode == quiet.returncode == 0, name
        assert shown.stdout == quiet.stdout and shown.stdout.count(b"\n") == 3, name
        assert b"Player A:" in shown.stderr


def test_a_hub_inside_a_threaded_program_starts_its_players_as_programs() -> None:
    import threading

    script = PLAYERS["shenzi"]
    release = threading.Event()
    helper = threading.Thread(target=release.wait)
    helper.start()
    child_in, to_child = os.pipe()
    from_child, child_out = os.pipe()
    try:
        process = hub._spawn(script, [script, "2", "0"], child_in, child_out)
        os.close(child_in)
        os.close(child_out)
        os.write(to_child, b"tokens2\ndowhat\n")
        assert os.read(from_child, 4096) == b"take1,1,1,0\n"
        # A program of its own (the script's interpreter), not a fork of this process.
        command = Path(f"/proc/{process.pid}/cmdline").read_bytes().split(b"\0")
        assert os.fsencode(script) in command
        os.write(to_child, b"eog\n")
        assert process.wait() == 0
    finally:
        release.set()
        helper.join()
        os.close(to_child)
        os.close(from_child)
