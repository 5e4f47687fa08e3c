"""No module but ``cardtable/cards.py`` spells out the suit letters, rank names or glyphs."""

from __future__ import annotations

import re
from pathlib import Path

import cardtable

SOURCES = Path(cardtable.__file__).parent
SPELLED = [
    re.compile(r"[♠♥♦♣]"),  # suit glyphs in code (docstrings and comments are stripped below)
    re.compile(r"""["'](SHDC|CDHS|SDHC|HSDC)["']"""),  # a suit order written out
    re.compile(r"""["']J["']\s*,\s*["']Q["']\s*,\s*["']K["']"""),  # rank names written out
]


def code_only(text: str) -> str:
    """The text without comments and triple-quoted strings (docstrings may show cards)."""
    text = re.sub(r'"""[\s\S]*?"""', "", text)
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def test_suits_ranks_and_glyphs_are_spelled_only_in_cards_py() -> None:
    offenders = []
    for path in sorted(SOURCES.rglob("*.py")):
        if path == SOURCES / "cards.py":
            continue
        text = code_only(path.read_text(encoding="utf-8"))
        offenders += [f"{path.relative_to(SOURCES)}: {pattern.pattern}"
                      for pattern in SPELLED if pattern.search(text)]
    assert offenders == []


def test_the_check_finds_what_it_looks_for() -> None:
    text = code_only((SOURCES / "cards.py").read_text(encoding="utf-8"))
    assert all(pattern.search(text) for pattern in SPELLED[:1] + SPELLED[2:])
    assert SPELLED[1].search('SUITS = "SHDC"')
