"""Skip the full-screen tests where Textual is not installed."""

import pytest

pytest.importorskip("textual")


@pytest.fixture
def brisk_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's pilot waits, after each key it presses, until the app is idle, checking every
    1/50 s: a whole game typed key by key spends most of its time there. Check every 1/500 s.
    Only for tests that wait for the game's own state, not for a screen drawn at a moment."""
    import textual._wait

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 1 / 500)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", 1 / 10000)
