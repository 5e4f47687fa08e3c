"""The examples of "The game API" in docs/engine.md run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

ENGINE_DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_engine_doc_examples_run() -> None:
    outcome = doctest.testfile(str(ENGINE_DOC), module_relative=False,
                               optionflags=doctest.ELLIPSIS)
    assert outcome.attempted >= 15
    assert outcome.failed == 0
