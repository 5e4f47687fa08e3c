"""Bad input from outside gets a message and a documented exit status, never a traceback:
huge numbers, endless files, closed or undecodable standard streams, unusable delays, and
every error line starting with the program's name."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from cardtable.engine.bounded_read import FileTooLarge, read_bounded, read_bounded_lines
from cardtable.engine.errors import PositionError
from cardtable.engine.one_line import one_line, shortened
from cardtable.engine.option_refusals import shown
from cardtable.games.austerity import codec
from cardtable.games.caravan.errors import MoveSyntaxError
from cardtable.games.caravan.notation import parse_move
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.obsession import selection

from .helpers import BIN, DIGITS, one_error_line, run, run_with_closed

# --- huge numbers in moves -------------------------------------------------------------------


HAND_OUT_OF_RANGE = "The chosen hand position is out of range."


@pytest.mark.parametrize(("move", "preset", "message"), [
    (f"P{DIGITS}A", "power", HAND_OUT_OF_RANGE),
    (f"P1A{DIGITS}", "power", "Invalid caravan position '1111"),
    (f"P1A{DIGITS}", "nv", "Invalid caravan position '1111"),
    (f"D{DIGITS}", "power", HAND_OUT_OF_RANGE),
    (f"CA{DIGITS}", "foxon", HAND_OUT_OF_RANGE),
])
def test_a_move_with_thousands_of_digits_is_refused_and_asked_again(
        move: str, preset: str, message: str) -> None:
    done = run("caravan", "--plain", "--seed", "1", "--rules", preset,
               stdin=f"{move}\nquit\n".encode())
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    out = done.stdout.decode()
    assert message in out
    if message != HAND_OUT_OF_RANGE:  # a message that repeats the digits repeats a dozen
        assert f"{message[-4:]}11111111...'." in out
    assert out.count("YOU > ") == 2  # asked again after the refusal
    assert done.returncode == 0


@pytest.mark.parametrize("text", [f"P{DIGITS}A", f"P1A{DIGITS}", f"D{DIGITS}", f"CA{DIGITS}",
                                  "P99999A", "P1A99999"])
def test_parser_refuses_long_positions_with_its_own_message(text: str) -> None:
    rules = SeatRules(PRESETS["foxon"], PRESETS["foxon"])
    refusal = (r"^(Invalid caravan position '[0-9]+(\.\.\.)?'|"
               r"The chosen hand position is out of range\.$)")
    with pytest.raises(MoveSyntaxError, match=refusal):
        parse_move(text, rules, 0)


def test_obsession_selection_with_thousands_of_digits_is_an_invalid_selection() -> None:
    assert selection.parse(DIGITS, 6) == ([-1], selection.INVALID_CARD_SELECTION)
    done = run("obsession", "--plain", "--seed", "1", "--players", "2",
               stdin=f"{DIGITS}\n".encode())
    assert b"Traceback" not in done.stderr
    assert "!!! Invalid card selection" in done.stdout.decode()
    assert done.returncode == 3


def test_austerity_numbers_with_thousands_of_digits_are_not_numbers() -> None:
    assert codec.parse_argument(DIGITS) == -1
    assert codec.parse_num(DIGITS.encode()) == -1


# --- huge numbers in options, rules files and records ----------------------------------------


def test_a_rule_value_with_thousands_of_digits_is_an_invalid_value() -> None:
    done = run("caravan", "--plain", "--rule", f"max_faces={DIGITS}")
    assert done.returncode == 1
    assert one_error_line(done, "caravan").startswith(
        "Invalid value '1111") and "for rule field 'max_faces'" in done.stderr.decode()


def test_a_rule_value_past_64_bits_is_an_invalid_value(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text("[rules]\nmax_faces = 99999999999999999999\n")
    done = run("caravan", "--plain", "--rules-file", str(rules))
    assert done.returncode == 1
    assert one_error_line(done, "caravan").startswith(
        "Invalid value '99999999999999999999' for rule field 'max_faces'")


@pytest.mark.parametrize("table", ["", "[rules]\n"])
def test_a_rules_file_integer_with_thousands_of_digits_is_invalid_toml(
        tmp_path: Path, table: str) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(f"{table}max_faces = {DIGITS}\n")
    done = run("caravan", "--plain", "--rules-file", str(rules))
    assert done.returncode == 1
    assert one_error_line(done, "caravan") == (
        f"Invalid TOML in rules file '{rules}': an integer has too many digits.")


def _record_with_huge_seed(tmp_path: Path, program: str, *args: str) -> Path:
    record = tmp_path / f"{program}.jsonl"
    done = run(program, *args, "--seed", "2", "--record", str(record))
    assert done.returncode == 0, done.stderr
    text = re.sub(r'"seed":\d+', f'"seed":{DIGITS}', record.read_text(), count=1)
    record.write_text(text)
    return record


def test_caravan_replay_of_a_record_with_a_huge_seed_is_a_malformed_line(tmp_path: Path) -> None:
    record = _record_with_huge_seed(tmp_path, "caravan", "--bvb", "--plain")
    done = run("caravan", "--plain", "--replay", str(record))
    assert done.returncode == 1
    assert one_error_line(done, "caravan") == f"Replay '{record}', line 1: malformed line."


def test_obsession_replay_of_a_record_with_a_huge_seed_is_a_malformed_line(
        tmp_path: Path) -> None:
    record = _record_with_huge_seed(tmp_path, "obsession", "--plain", "--humans", "0",
                                    "--players", "2")
    done = run("obsession", "--plain", "--replay", str(record))
    assert (done.returncode, done.stdout) == (1, b"")
    assert one_error_line(done, "obsession") == f"Replay '{record}', line 1: malformed line."


@pytest.mark.parametrize("option", ["--seed", "--players", "--max-plays", "--run-kill"])
def test_obsession_numbers_with_thousands_of_digits(option: str) -> None:
    done = run("obsession", "--plain", option, DIGITS)
    assert done.returncode == 1
    assert one_error_line(done, "obsession").startswith(f"{option} must be")


def test_caravan_seed_with_thousands_of_digits() -> None:
    done = run("caravan", "--plain", "--seed", DIGITS)
    assert done.returncode == 1
    assert one_error_line(done, "caravan") == (
        f"--seed must be an integer >= 0 (got '{shown(DIGITS)}')")


@pytest.mark.parametrize("args", [["--tokens", DIGITS], ["--max-turns", DIGITS]])
def test_austerity_simulate_numbers_with_thousands_of_digits(args: list[str]) -> None:
    base = {"--deck": "/dev/null", "--tokens": "3", "--points": "3", "--players": "ed,ed"}
    base.update(dict(zip(args[::2], args[1::2], strict=True)))
    done = run("cardtable", "austerity", "simulate", *[x for pair in base.items() for x in pair])
    assert done.returncode == 1
    assert one_error_line(done, "cardtable austerity simulate").startswith(args[0])


def test_austerity_hub_numbers_with_thousands_of_digits() -> None:
    done = run("austerity", DIGITS, "3", "/dev/null", "ed", "ed")
    assert (done.returncode, done.stderr) == (2, b"Bad argument\n")
    done = run("austerity", "--timeout", DIGITS, "3", "3", "/dev/null", "ed", "ed")
    assert (done.returncode, done.stderr) == (2, b"Bad argument\n")


# --- delays the clock cannot sleep -------------------------------------------------------------


@pytest.mark.parametrize("delay", ["1e300", "86401", "1e10", "inf", DIGITS])
def test_caravan_refuses_a_delay_past_one_day(delay: str, tmp_path: Path) -> None:
    for extra in ([], ["--replay", str(tmp_path / "none.jsonl")]):
        done = run("caravan", "--plain", "--bvb", "--seed", "1", "--delay", delay, *extra)
        assert done.returncode == 1
        assert one_error_line(done, "caravan") == (
            f"--delay must be a number of seconds from 0 to 86400 (got '{shown(delay)}')")


@pytest.mark.parametrize("delay", ["1e300", "86401", DIGITS])
def test_obsession_refuses_a_delay_past_one_day(delay: str, tmp_path: Path) -> None:
    for extra in ([], ["--replay", str(tmp_path / "none.jsonl")]):
        done = run("obsession", "--plain", "--humans", "0", "--delay", delay, *extra)
        assert done.returncode == 1
        assert one_error_line(done, "obsession") == (
            f"--delay must be a number of seconds from 0 to 86400 (got '{shown(delay)}')")


def test_a_delay_of_one_day_is_accepted() -> None:
    done = run("caravan", "--plain", "--delay", "86400", "--seed", "1", stdin=b"quit\n")
    assert (done.returncode, done.stderr) == (0, b"")


# --- closed standard streams -------------------------------------------------------------------


@pytest.mark.parametrize("command", [["caravan", "--plain"], ["obsession", "--plain"],
                                     ["cardtable", "caravan", "--plain"],
                                     ["cardtable", "obsession", "--plain"]])
def test_a_closed_standard_input_is_the_end_of_input(command: list[str]) -> None:
    done = run_with_closed(0, *command, "--seed", "1")
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    assert done.returncode == 3


@pytest.mark.parametrize("command", [["caravan", "--plain"], ["obsession", "--plain"],
                                     ["cardtable", "caravan", "--plain"],
                                     ["cardtable", "obsession", "--plain"], ["cardtable"]])
def test_a_closed_standard_output_ends_quietly(command: list[str]) -> None:
    done = run_with_closed(1, *command)
    assert done.stderr == b""
    assert done.returncode in (0, 1)


# --- undecodable standard input ------------------------------------------------------------------

STRICT_UTF8 = {"PYTHONIOENCODING": "utf-8:strict"}


@pytest.mark.parametrize("env", [STRICT_UTF8, {"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": ""},
                                 {"PYTHONIOENCODING": "ascii:strict"}])
def test_caravan_refuses_an_undecodable_line_and_plays_the_lines_around_it(
        env: dict[str, str]) -> None:
    done = run("caravan", "--plain", "--seed", "1", stdin=b"P1A\n\xff\xfe\nP4B\n", env=env)
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    out = done.stdout.decode(errors="replace")
    assert "YOU played 3S on Caravan A." in out
    assert "Invalid option '" in out
    assert "YOU played 7H on Caravan B." in out
    assert done.returncode == 3  # input ended after the three lines, not at the bad one


def test_obsession_refuses_an_undecodable_line_and_plays_the_lines_around_it() -> None:
    stdin = b"1\n\xff\n1,2,3\n"
    done = run("obsession", "--plain", "--seed", "1", "--players", "2", stdin=stdin,
               env=STRICT_UTF8)
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    out = done.stdout.decode()
    assert out.count("!!! You must select 3 cards") == 1  # the line "1"; the bad one asks again
    assert out.count("+++ Enter card number(s): ") >= 4  # "1", the bad line, "1,2,3", then more
    assert "Select your 3 VISIBLE cards" in out
    assert done.returncode == 3


# --- files that never end ------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["--deck", "/dev/zero"], "Cannot read deck file '/dev/zero': the file is larger than 1 MiB."),
    (["--deck-def", "/dev/urandom"],
     "Cannot read deck file '/dev/urandom': the file is larger than 1 MiB."),
    (["--rules-file", "/dev/urandom"],
     "Cannot read rules file '/dev/urandom': the file is larger than 1 MiB."),
    (["--replay", "/dev/zero"],
     "Cannot open record file '/dev/zero': line 1 is longer than 1 MiB."),
])
def test_caravan_refuses_endless_files(args: list[str], message: str) -> None:
    done = run("caravan", "--plain", *args, timeout=20)
    assert done.returncode == 1
    assert one_error_line(done, "caravan") == message


def test_obsession_refuses_an_endless_record() -> None:
    done = run("obsession", "--plain", "--replay", "/dev/zero", timeout=20)
    assert done.returncode == 1
    assert one_error_line(done, "obsession") == (
        "--replay: cannot read '/dev/zero' (line 1 is longer than 1 MiB)")


def test_a_record_of_many_short_lines_is_capped_too(tmp_path: Path) -> None:
    path = tmp_path / "lines"
    path.write_bytes(b"x\n" * 50)
    with pytest.raises(FileTooLarge) as caught:
        read_bounded_lines(path, 10, 64)
    assert caught.value.reason == "the file is larger than 64 bytes"
    assert read_bounded_lines(path, 10, 100) == b"x\n" * 50
    path.write_bytes(b"short\n" + b"y" * 11 + b"\n")
    with pytest.raises(FileTooLarge) as caught:
        read_bounded_lines(path, 10, 1000)
    assert caught.value.reason == "line 2 is longer than 10 bytes"
    path.write_bytes(b"y" * 10 + b"\n")
    assert read_bounded(path, 11) == b"y" * 10 + b"\n"
    with pytest.raises(FileTooLarge):
        read_bounded(path, 10)


def test_austerity_refuses_endless_deck_files() -> None:
    done = run("austerity", "3", "3", "/dev/zero", "ed", "ed", timeout=20)
    assert (done.returncode, done.stderr) == (4, b"Invalid deck file contents\n")
    done = run("cardtable", "austerity", "simulate", "--deck", "/dev/zero", "--tokens", "3",
               "--points", "3", "--players", "ed,ed", timeout=20)
    assert (done.returncode, done.stderr) == (
        4, b"cardtable austerity simulate: Invalid deck file contents\n")


# --- one line, exit 1, the program's name first ------------------------------------------------


@pytest.mark.parametrize(("args", "prefix", "start"), [
    (["bench", "obsession", "--games", "x"], "cardtable bench obsession",
     "argument --games: invalid int value: 'x'"),
    (["bench", "caravan", "--bogus"], "cardtable bench caravan",
     "unrecognized arguments: --bogus"),
    (["bench"], "cardtable bench", "a game is needed: caravan, obsession"),
    (["bench", "chess"], "cardtable bench", "unknown game 'chess'"),
    (["austerity"], "cardtable austerity", "a command is needed: simulate or hub"),
    (["austerity", "play"], "cardtable austerity", "unknown command 'play'"),
])
def test_tool_usage_errors_are_one_line_and_exit_1(
        args: list[str], prefix: str, start: str) -> None:
    done = run("cardtable", *args)
    assert (done.returncode, done.stdout) == (1, b"")
    assert one_error_line(done, prefix).startswith(start)


def test_a_multi_line_toml_string_is_echoed_on_one_line(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text('[rules]\nking_mode = """dou\nble\tx"""\n')
    done = run("caravan", "--plain", "--rules-file", str(rules))
    assert done.returncode == 1
    assert one_error_line(done, "caravan") == (
        "Invalid value 'dou\\nble\\tx' for rule field 'king_mode' (allowed: double, add).")


@pytest.mark.parametrize(("program", "args"), [
    ("caravan", ["--rule", "max_faces=a\nb"]),
    ("caravan", ["--seed", "1\n2"]),
    ("caravan", ["--bot", "x\ny"]),
    ("obsession", ["--bot", "x\ny"]),
    ("obsession", ["--seats", "human,ran\ndom"]),
])
def test_option_values_are_echoed_on_one_line(program: str, args: list[str]) -> None:
    done = run(program, "--plain", *args)
    assert done.returncode == 1
    assert "\\n" in one_error_line(done, program)


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "vegas"], "Unknown rules preset 'vegas' (allowed: power, nv, foxon, karavane)."),
    (["--seed", "x"], "--seed must be an integer >= 0 (got 'x')"),
    (["--pvp", "--bvb"], "Game cannot be both Player vs Player and Bot vs Bot."),
    (["-b", "nope"],
     "Unknown bot 'nope' for caravan (bots: random, normal, friendly, expert, ismcts, exec)."),
])
def test_every_caravan_error_line_starts_with_its_name(args: list[str], message: str) -> None:
    for program in (["caravan"], ["cardtable", "caravan"]):
        done = run(*program, "--plain", *args)
        assert done.returncode == 1
        assert one_error_line(done, "caravan") == message


def test_one_line_escapes_breaks_and_control_characters() -> None:
    assert one_line("a\nb\r\tc\x1b[31m\u2028é") == "a\\nb\\r\\tc\\x1b[31m\\u2028é"
    assert one_line("plain") == "plain"


def test_echoed_values_are_cut_after_their_limit() -> None:
    assert shortened("abcdef", 6) == "abcdef"
    assert shortened("abcdefg", 6) == "abcdef..."
    assert PositionError.quoted("x" * 21) == repr("x" * 21)
    assert PositionError.quoted("x" * 30) == repr("x" * 21 + "...")
    assert str(PositionError.in_field("seed", "bad")) == "position field 'seed': bad"


@pytest.mark.parametrize("command", [["cardtable"], ["cardtable", "--help"],
                                     ["cardtable", "-v"], ["caravan", "-v"],
                                     ["obsession", "--version"]])
def test_help_or_version_into_a_pipe_whose_reader_left_ends_quietly(
        command: list[str]) -> None:
    # As `cardtable | head -1`: the reader has gone before the text is written.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([str(BIN / command[0]), *command[1:]], stdin=subprocess.DEVNULL,
                              stdout=write_end, stderr=subprocess.PIPE, timeout=60,
                              check=False)
    finally:
        os.close(write_end)
    assert b"Traceback" not in done.stderr and done.stderr == b""
    assert done.returncode == 1
