"""Golden transcripts: seeded games through the real command must print exactly these files.

To accept a deliberate change of the output, run with OBSESSION_GOLDEN_UPDATE=1 and review
the diff of tests/obsession/golden/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .cli_helpers import run

GOLDEN = Path(__file__).parent / "golden"

CASES: dict[str, tuple[list[str], str, int]] = {
    "bots4_obsessed_seed1": (["--humans", "0", "--seed", "1"], "", 0),
    "bots2_random_runkill3_seed7": (
        ["--humans", "0", "--players", "2", "--bot", "random", "--seed", "7", "--run-kill", "3"],
        "", 0),
    "bots5_mixed_killfirst_seed3": (
        ["--seats", "obsessed,random,obsessed,random,random", "--seed", "3",
         "--kill-order", "kill-first"], "", 0),
    "bots10_random_seed5": (["--humans", "0", "--players", "10", "--bot", "random",
                             "--seed", "5"], "", 0),
    "bots3_cap40_seed2": (["--humans", "0", "--players", "3", "--seed", "2", "--max-plays", "40"],
                          "", 0),
    "human2_errors_then_eof_seed4": (
        ["--players", "2", "--bot", "random", "--seed", "4"],
        "\nx\n1 1 2\n9\n4 5 6\n1 3\n5\n1\n1\n2\n3\n1\n", 3),
    "hotseat3_seed2": (["--players", "3", "--humans", "2", "--seed", "2"],
                       "\n1 2 3\n\n4 5 6\n\n1\n\n1\n\n2\n", 3),
}


@pytest.mark.parametrize("name", list(CASES))
def test_golden_transcript(name: str) -> None:
    args, stdin, status = CASES[name]
    done = run(args, stdin)
    assert done.returncode == status and done.stderr == ""
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("OBSESSION_GOLDEN_UPDATE") == "1":
        path.write_text(done.stdout, encoding="utf-8")
    assert done.stdout == path.read_text(encoding="utf-8")
