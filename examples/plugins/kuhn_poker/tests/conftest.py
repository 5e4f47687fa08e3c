"""Hypothesis profiles of the plug-in's tests: cardtable's own (its tests/conftest.py), so that
the plug-in's tests run alike on their own and within cardtable's suite. ``ci`` (the variable
``CI`` set) draws the same examples every run; ``dev`` draws new ones."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

SLOW = [HealthCheck.too_slow]

settings.register_profile("ci", derandomize=True, database=None, print_blob=True, deadline=None,
                          suppress_health_check=SLOW)
settings.register_profile("dev", print_blob=True, deadline=None, suppress_health_check=SLOW)


def _profile() -> str:
    chosen = os.environ.get("HYPOTHESIS_PROFILE", "").strip()
    if chosen:
        return chosen
    ci = os.environ.get("CI", "").strip().lower()
    return "ci" if ci not in ("", "0", "false", "no") else "dev"


settings.load_profile(_profile())
