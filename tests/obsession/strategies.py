"""Hypothesis settings and rule strategies shared by the randomised Obsession tests."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from cardtable.games.obsession.rules import KILL_ORDERS, Rules


def tuned(examples: int) -> settings:
    # Derandomized: CI runs the same games every time and its duration stays predictable.
    return settings(max_examples=examples, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


rules_strategy = st.builds(
    Rules,
    players=st.integers(2, 10),
    run_kill=st.integers(2, 8),
    kill_order=st.sampled_from(KILL_ORDERS),
    max_plays=st.sampled_from([5000, 5000, 5000, 60, 400]),
    repeat_limit=st.sampled_from([3, 3, 0, 2]),
)
