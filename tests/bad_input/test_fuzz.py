"""Fuzzing both games' line mode: random bytes on standard input and random values for the real
options (huge, malformed, endless files). Whatever comes in, the program answers with a
documented exit status and never a traceback.

The in-process runs call ``main(argv)`` with replaced standard streams (fast); a few real
processes check the same through the installed scripts. ``CARDTABLE_FUZZ_EXAMPLES=2000``
runs a longer campaign with fresh random inputs (default: a quick, fixed one for every run).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.cli import caravan as caravan_cli
from cardtable.cli import obsession as obsession_cli

from .helpers import DIGITS, run

CAMPAIGN = os.environ.get("CARDTABLE_FUZZ_EXAMPLES")
EXAMPLES = int(CAMPAIGN or "60")
PROCESS_EXAMPLES = max(3, EXAMPLES // 20)
# The quick run is the same every time (no flaky CI); a campaign explores new inputs.
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=not CAMPAIGN,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Exit statuses each program documents (its --help epilog and docs).
STATUSES = {"caravan": {0, 1, 3, 130}, "obsession": {0, 1, 3, 4, 130}}

ODD_VALUES = ["", " ", "-1", "0", "1", "2", "3", "10", "-0", "+5", "1e300", "-1e300", "nan",
              "inf", "-inf", "0x10", "1_000", "٣", "１", "\x00", "a\nb", "'", "=", "abc.",
              "none", "true", DIGITS, "9" * 25, "-" + "9" * 25, "\udcff", "é", "human,random"]
# Pauses are kept short: any positive delay up to a day is legal and would only slow the run.
DELAYS = ["-1", "0", "0.0", "nan", "inf", "-inf", "1e300", "86401", DIGITS, "x", "", "1e-9"]
MOVE_WORDS = [b"P1A", b"P2B3", b"P4F3", b"D3", b"CA", b"CB4", b"quit", b"exit", b"1,2,3", b"4 5",
              b"1", b"3", b"", b"help", b"?", b"P" + DIGITS.encode() + b"A", b"\xff\xfe",
              b"\x00", b"\r", b"P1A\r", "é".encode(), b"D" + b"9" * 30]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Paths for file options: missing, endless, empty, a directory, garbage, and records."""
    folder = tmp_path_factory.mktemp("fuzz")
    garbage = folder / "garbage"
    garbage.write_bytes(bytes(range(256)) * 4)
    toml = folder / "rules.toml"
    toml.write_text(f'[rules]\nmax_faces = {DIGITS}\nking_mode = """a\nb"""\n')
    half_record = folder / "half.jsonl"
    half_record.write_text('{"type":"header","game":"caravan","format":1,"seed":1}\n'
                           '{"t":"header","game":"obsession","v":1,"seed":-1}\n')
    return [str(folder / "missing"), "/dev/zero", "/dev/null", str(folder), str(garbage),
            str(toml), str(half_record), "", "\x00"]


def _value_options(parser: argparse.ArgumentParser) -> list[str]:
    """The long spelling of every option of ``parser`` that takes a value."""
    names = []
    for action in parser._actions:
        if action.nargs == 0 or not action.option_strings:
            continue
        names.append(max(action.option_strings, key=len))
    return names


def _flag_options(parser: argparse.ArgumentParser) -> list[str]:
    return [max(action.option_strings, key=len) for action in parser._actions
            if action.nargs == 0 and action.option_strings
            and "--help" not in action.option_strings]


VALID = {
    "caravan": [["--seed", "5"], ["--rules", "foxon"], ["--rules", "nv"], ["--pvp"],
                ["--first", "2"], ["--rules", "karavane"], ["--bot", "random"]],
    "obsession": [["--seed", "5"], ["--players", "2"], ["--humans", "2"], ["--run-kill", "3"],
                  ["--kill-order", "kill-first"], ["--players", "10"], ["--bot", "random"]],
}
FILE_OPTIONS = {"--deck", "--deck-abc", "--deck-def", "--rules-file", "--replay"}


def arguments(parser: argparse.ArgumentParser, files: list[str]) -> st.SearchStrategy[list[str]]:
    """Random command lines built from the parser's own options. ``--record`` is left out:
    it writes files (and has its own tests); everything else gets random values."""
    values = [name for name in _value_options(parser) if name != "--record"]
    flags = _flag_options(parser)

    def pair(name: str) -> st.SearchStrategy[list[str]]:
        if name in FILE_OPTIONS:
            value: st.SearchStrategy[str] = st.sampled_from(files)
        elif name == "--delay":
            value = st.sampled_from(DELAYS)
        else:
            value = st.one_of(st.sampled_from(ODD_VALUES), st.text(max_size=12),
                              st.integers().map(str))
        return value.map(lambda text: [name, text])

    option = st.one_of(st.sampled_from(values).flatmap(pair),
                       st.sampled_from(flags).map(lambda flag: [flag]),
                       st.sampled_from(ODD_VALUES).map(lambda text: [text]))
    # Half of the command lines are valid, so that the random input reaches the game itself.
    valid = st.lists(st.sampled_from(VALID[parser.prog]), max_size=3, unique_by=tuple)
    return st.one_of(st.lists(option, max_size=5), valid).map(
        lambda parts: ["--plain", *[word for part in parts for word in part]])


stdin_bytes = st.one_of(
    st.binary(max_size=200),
    st.lists(st.one_of(st.sampled_from(MOVE_WORDS), st.binary(max_size=12)), max_size=30)
    .map(lambda lines: b"\n".join(lines)),
)


@contextmanager
def standard_streams(data: bytes) -> Iterator[tuple[io.BytesIO, io.StringIO]]:
    """Replace stdin (strict UTF-8 over ``data``), stdout and stderr for an in-process run."""
    saved = sys.stdin, sys.stdout, sys.stderr
    out = io.BytesIO()
    err = io.StringIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="strict")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True)
    sys.stderr = err
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


def check_in_process(program: str, main: Callable[[list[str]], int], argv: list[str],
                     data: bytes) -> None:
    with standard_streams(data) as (_, err):
        status = main(argv)
    assert status in STATUSES[program], (argv, status, err.getvalue())
    for line in err.getvalue().splitlines():
        # Every error line names the program.
        assert line.startswith(f"{program}: "), (argv, line)


@FUZZ
@given(data=st.data())
def test_caravan_plain_takes_any_input(files: list[str], data: st.DataObject) -> None:
    argv = data.draw(arguments(caravan_cli.build_parser(), files), label="argv")
    check_in_process("caravan", caravan_cli.main, argv, data.draw(stdin_bytes, label="stdin"))


@FUZZ
@given(data=st.data())
def test_obsession_plain_takes_any_input(files: list[str], data: st.DataObject) -> None:
    argv = data.draw(arguments(obsession_cli.build_parser(), files), label="argv")
    check_in_process("obsession", obsession_cli.main, argv, data.draw(stdin_bytes, label="stdin"))


@settings(FUZZ, max_examples=PROCESS_EXAMPLES)
@given(data=st.data(), program=st.sampled_from(["caravan", "obsession"]))
def test_real_processes_take_any_input(files: list[str], data: st.DataObject,
                                       program: str) -> None:
    module = caravan_cli if program == "caravan" else obsession_cli
    argv = data.draw(arguments(module.build_parser(), files), label="argv")
    argv = [arg for arg in argv if "\x00" not in arg]  # a NUL cannot pass through exec
    stdin = data.draw(stdin_bytes, label="stdin")
    done = run(program, *argv, stdin=stdin, env={"PYTHONIOENCODING": "utf-8:strict"})
    assert b"Traceback" not in done.stderr, (argv, done.stderr.decode(errors="replace"))
    assert done.returncode in STATUSES[program], (argv, done.returncode)


def test_hostile_input_on_the_real_programs(files: list[str]) -> None:
    """Fixed worst cases, one real process each."""
    for program, argv in [("caravan", ["--bvb", "--seed", "7", "--delay", "0"]),
                          ("obsession", ["--seed", "7"]), ("caravan", ["--pvp"])]:
        done = run(program, "--plain", *argv, stdin=b"\xff\n" + b"P" + DIGITS.encode() + b"A\n"
                   + bytes(range(256)), env={"PYTHONIOENCODING": "utf-8:strict"})
        assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
        assert done.returncode in STATUSES[program]
    assert Path(files[1]) == Path("/dev/zero")
