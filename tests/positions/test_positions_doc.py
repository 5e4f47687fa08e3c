"""The examples of docs/positions.md are real positions (tests/test_doc_snippets.py runs its
Python examples)."""

from __future__ import annotations

import re
from pathlib import Path

from cardtable.games.caravan import position as caravan_position
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.obsession import position as obsession_position
from cardtable.games.obsession.rules import Rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "positions.md"


def blocks() -> list[str]:
    return re.findall(r"```(?:python)?\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def example(prefix: str) -> str:
    return next(block.strip() for block in blocks() if block.startswith(prefix))


def test_the_caravan_example_restores():
    text = example("caravan/1")
    game = caravan_position.from_position(SeatRules.preset("power"), text)
    assert game.to_position() == text
    assert len(text.split(" ")) == len(caravan_position.FIELDS)


def test_the_obsession_example_restores():
    text = example("obsession/1")
    game = obsession_position.from_position(Rules(players=3), text)
    assert game.to_position() == text
    assert game.humans == (True, False, False)


def test_every_field_is_described():
    doc = DOC.read_text(encoding="utf-8")
    for name in (*caravan_position.FIELDS, *obsession_position.FIELDS):
        assert f"`{name}`" in doc, name
