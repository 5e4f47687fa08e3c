"""Which face may be played on which active face: the legality matrix of the rules, as data.

The active face is the first non-joker from the top of the discard pile (jokers are transparent);
0 stands for "no active face" (empty pile or jokers only), on which everything is legal.
Legality never compares ranks: it is read from this table.
"""

from __future__ import annotations

from cardtable.games.obsession.cards import FACE, FACE_NAMES, FACE_OF_NAME, ID_LIMIT

NONE = 0
"""The active face of an empty (or jokers-only) pile."""

MATRIX = """
active  2 3 4 5 6 7 8 9 10 J Q K A R
none    y y y y y y y y y  y y y y y
2       y y y y y y y y y  y y y y y
3       - y - - - - - - -  - - - - y
4       y y y y y y y y y  y y y y y
5       y y - y y y y y y  y y y y y
6       y y - - y y y y y  y y y y y
7       y y y y y y - - y  - - - - y
8       y y y y y y y y y  y y y y y
9       y y - - - y y y y  y y y y y
J       y y - - - y y - y  y y y y y
Q       y y - - - y y - y  - y y y y
K       y y - - - y y - y  - - y y y
A       y y - - - y y - y  - - - y y
"""
"""Rows: active face; columns: played face; ``y`` = legal. A 10 never stays on the pile and a
joker is never the active face, so those rows cannot occur."""


def _parse(text: str) -> tuple[tuple[bool, ...], ...]:
    lines = [line.split() for line in text.strip().splitlines()]
    columns = [FACE_OF_NAME[name] for name in lines[0][1:]]
    # Rows that cannot occur (10, R) allow everything, like an empty pile.
    table = [[True] * 16 for _ in range(16)]
    for row in lines[1:]:
        active = NONE if row[0] == "none" else FACE_OF_NAME[row[0]]
        for played, mark in zip(columns, row[1:], strict=True):
            # "The face equals the active face" is a rule of its own; the matrix agrees with it.
            table[active][played] = mark == "y" or played == active
    return tuple(tuple(row) for row in table)


LEGAL = _parse(MATRIX)
"""``LEGAL[active][played]``: may ``played`` go on ``active``."""


def matrix_rows() -> dict[str, dict[str, bool]]:
    """The matrix by names, e.g. ``matrix_rows()["7"]["8"] is False`` (for tests and docs)."""
    rows: dict[str, dict[str, bool]] = {}
    for active_name in ["none", *[FACE_NAMES[f] for f in (2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14)]]:
        active = NONE if active_name == "none" else FACE_OF_NAME[active_name]
        rows[active_name] = {FACE_NAMES[p]: LEGAL[active][p] for p in range(2, 16)}
    return rows


LEGAL_CARD = tuple(bytes(LEGAL[active][FACE[card]] for card in range(ID_LIMIT))
                   for active in range(len(LEGAL)))
"""``LEGAL_CARD[active][card]``: ``LEGAL`` by card id rather than by face, so that the hot
loops test a card with one lookup instead of two."""

ALL_LEGAL = tuple(all(row) for row in LEGAL)
"""``ALL_LEGAL[active]``: is every face legal on ``active`` (no face, 2, 4, 8)."""
