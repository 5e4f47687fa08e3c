"""Player start-up stays light: only small modules, checked with ``python -X importtime``."""

from __future__ import annotations

import subprocess
import sys

from austerity_support import TIMEOUT

# What the player path must never load (each costs milliseconds on every player start).
FORBIDDEN = {"argparse", "re", "json", "dataclasses", "enum", "typing", "logging", "subprocess",
             "pathlib", "importlib.metadata", "signal", "contextlib", "collections"}


def imported_by(statement: str) -> dict[str, int]:
    """Modules imported by ``statement`` beyond the interpreter's own start-up, with their
    cumulative import time in microseconds."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", statement],
                            capture_output=True, text=True, timeout=TIMEOUT, check=True)
    baseline = subprocess.run([sys.executable, "-X", "importtime", "-c", "pass"],
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
        "cardtable", "cardtable.cli", "cardtable.cli.austerity_player", "cardtable.games",
        "cardtable.games.austerity", "cardtable.games.austerity.player",
        "cardtable.games.austerity.codec", "cardtable.games.austerity.rules",
        "cardtable.games.austerity.strategies"}


def test_package_roots_import_nothing() -> None:
    new = imported_by("import cardtable.games.austerity")
    assert set(new) == {"cardtable", "cardtable.games", "cardtable.games.austerity"}
