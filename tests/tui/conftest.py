"""Skip the full-screen tests where Textual is not installed; fixtures of the full-screen
tests."""

import uuid
from collections.abc import Iterator

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


@pytest.fixture
def session(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A tmux session's name, on a tmux server of the test's own (``terminal.SOCKET``): a
    server killed at the end of one test may still be exiting as the next test's session
    starts, and that session would vanish with it (as would one started on a server whose
    last session just ended)."""
    from . import terminal

    monkeypatch.setattr(terminal, "SOCKET", f"cardtable-tests-{uuid.uuid4().hex[:8]}")
    yield f"cardtable-{uuid.uuid4().hex[:8]}"
    terminal.tmux("kill-server")
