"""The tests of a game from outside: Kuhn poker (``examples/plugins/kuhn_poker``), installed as
``make`` installs it, working with every shell of cardtable through its description alone.

``CARDTABLE_FULL=1`` runs the statistical tests at full size (a 2000-game tournament).
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "plugins" / "kuhn_poker"


@pytest.fixture(autouse=True)
def _plugin_installed() -> None:
    """Fail with the remedy, not with a confusing error, when the plug-in is not installed."""
    from importlib.metadata import entry_points

    if not any(point.name == "kuhn_poker" for point in entry_points(group="cardtable.games")):
        pytest.fail("the Kuhn poker plug-in is not installed: "
                    f"pip install -e {PLUGIN.relative_to(ROOT)} (make does)")
