"""``cardtable tournament kuhn_poker``: the plug-in's game in a real tournament process, read
back from the results file."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

from counts import FULL

COMMAND = [sys.executable, "-m", "cardtable.cli.main", "tournament", "kuhn_poker"]
GAMES = 2000 if FULL else 600
ISMCTS = "ismcts" if FULL else "ismcts:iters=250"
"""The searcher: its default 1000 iterations with the full count; 250 by default, which wins as
many chips a game from ``random`` here (0.318 against 0.322 over the same 600 deals) in a third
of the time."""
Z_999 = 3.2905267314918945


def test_ismcts_wins_chips_from_random(tmp_path: Path) -> None:
    out = tmp_path / "kuhn.jsonl"
    done = subprocess.run([*COMMAND, "--seat", "random", "--seat", ISMCTS, "--games",
                           str(GAMES), "--seed", "1", "--out", str(out)], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=1800)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert len(lines) == GAMES
    won = []
    for line in lines:
        chips = line["details"]["chips"]
        assert sum(chips) == 0
        won.append(chips[line["seats"].index(ISMCTS)])
    mean = sum(won) / len(won)
    spread = math.sqrt(sum((value - mean) ** 2 for value in won) / (len(won) - 1))
    # ISMCTS must win chips on average: the mean's 99.9 % interval lies above 0.
    assert mean - Z_999 * spread / math.sqrt(len(won)) > 0, (mean, spread)
