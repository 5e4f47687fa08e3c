"""``--seed`` as both games read it: a whole number >= 0 written in decimal digits.

A record's header only holds a seed >= 0, so a game played from any other seed could not be
replayed; signs, underscores, other bases and digits of other scripts are refused rather than
read some way a person did not mean.
"""

from __future__ import annotations

SEED_ALLOWED = "an integer >= 0"
"""What the refusal says is allowed."""


def seed_value(text: str) -> int | None:
    """The seed ``text`` names (spaces around it allowed), or None when it names none."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        return None
    try:
        return int(digits)
    except ValueError:  # more digits than int() converts
        return None
