"""docs/rl.md's tables agree with the environments (tests/test_doc_snippets.py runs its
examples)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from cardtable.envs import austerity_v0, caravan_v0, obsession_v0
from cardtable.envs.caravan_encoding import CaravanEncoder

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_rl_page_sizes() -> None:
    text = PAGE.read_text()
    for players in (2, 3, 4, 10):
        size = obsession_v0.raw_env(players=players).encoder.size
        assert size == 100 + 57 * players
    for players in (2, 4, 6):
        assert austerity_v0.raw_env(players=players).encoder.size == 87 + 10 * players
    for rules, size in (("power", 386), ("nv", 530), ("foxon", 530), ("karavane", 530)):
        encoder = cast(CaravanEncoder, caravan_v0.raw_env(rules=rules).encoder)
        assert encoder.size == size == 82 + 2 * encoder.hand_slots + 36 * encoder.slots
    assert "`100 + 57 N`" in text and "`87 + 10 N`" in text and "`82 + 2 H + 36 K`" in text
