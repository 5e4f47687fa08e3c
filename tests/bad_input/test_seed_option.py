"""``--seed`` means the same in both games: a whole number >= 0 in decimal digits (spaces
around it allowed). Anything else is refused with one line naming the option and what it
allows, and exit status 1, before a game starts; every accepted seed gives a record that
replays."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import one_error_line, run

PROGRAM_ARGS = {"caravan": ["--plain", "--bvb", "--delay", "0"],
                "obsession": ["--plain", "--humans", "0", "--players", "2", "--quiet"]}
# One wording for both (cardtable.engine.option_refusals).
MESSAGES = {"caravan": "--seed must be an integer >= 0 (got '{}')",
            "obsession": "--seed must be an integer >= 0 (got '{}')"}

REFUSED = ["-5", "-1", "-0", "+3", "1_000", "1.5", "abc", "0x10", "", " ", "1e3", "٣"]
ACCEPTED = [("0", 0), (" 7 ", 7), ("12345678901234567890", 12345678901234567890)]


@pytest.mark.parametrize("program", sorted(PROGRAM_ARGS))
@pytest.mark.parametrize("seed", REFUSED)
def test_a_seed_that_is_not_a_whole_number_from_0_is_refused(program: str, seed: str) -> None:
    done = run(program, *PROGRAM_ARGS[program], f"--seed={seed}")
    assert done.returncode == 1
    assert done.stdout == b""
    assert one_error_line(done, program) == MESSAGES[program].format(seed)


@pytest.mark.parametrize("program", sorted(PROGRAM_ARGS))
@pytest.mark.parametrize(("seed", "value"), ACCEPTED)
def test_an_accepted_seed_is_recorded_and_replays(tmp_path: Path, program: str, seed: str,
                                                  value: int) -> None:
    record = tmp_path / "game.jsonl"
    done = run(program, *PROGRAM_ARGS[program], f"--seed={seed}", "--record", str(record))
    assert done.returncode == 0, done.stderr
    assert f'"seed":{value},' in record.read_text().splitlines()[0]
    replayed = run(program, "--plain", "--delay", "0", "--replay", str(record))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
