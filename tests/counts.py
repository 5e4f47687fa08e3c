"""How many games, examples or samples the slow statistical tests take.

``make test`` (and CI) takes the small counts, so that the suite stays within its time;
``CARDTABLE_FULL=1`` takes the full ones (README, "Tests"), for a change to an engine, a bot or
a sampler, and before a release.
"""

from __future__ import annotations

import os

FULL = os.environ.get("CARDTABLE_FULL", "").strip() not in ("", "0")
"""Full counts asked for (``CARDTABLE_FULL=1``)."""


def count(small: int, full: int) -> int:
    """``full`` under ``CARDTABLE_FULL=1``, else ``small``."""
    return full if FULL else small
