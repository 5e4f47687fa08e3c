"""The examples of docs/action-indices.md run and print what the page says."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "action-indices.md"


def test_the_action_index_page_examples_hold() -> None:
    failures, tried = doctest.testfile(str(PAGE), module_relative=False,
                                       optionflags=doctest.ELLIPSIS)
    assert tried > 10
    assert failures == 0
