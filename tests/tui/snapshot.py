"""Helpers for the full-screen tests: skip without Textual, compare screens with golden text.

Golden screens live in ``tests/tui/snapshots/``. To rewrite them after an intended change of
the screen, run the tests with ``CARDTABLE_UPDATE_SNAPSHOTS=1``.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE_ENV = "CARDTABLE_UPDATE_SNAPSHOTS"


def check_snapshot(name: str, text: str) -> None:
    """Compare ``text`` with ``snapshots/NAME.txt`` (or write it when updating)."""
    path = SNAPSHOTS / f"{name}.txt"
    text = text.rstrip("\n") + "\n"
    if os.environ.get(UPDATE_ENV) or not path.exists():
        if not os.environ.get(UPDATE_ENV) and os.environ.get("CI"):
            pytest.fail(f"missing snapshot {path.name}; run with {UPDATE_ENV}=1")
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(keepends=True),
                                            text.splitlines(keepends=True),
                                            path.name, "screen"))
        pytest.fail(f"screen differs from {path.name}; rerun with {UPDATE_ENV}=1 if the "
                    f"change is intended\n{diff}")
