"""Pilot steps the launcher tests share."""

from __future__ import annotations

from typing import Any


async def click_play(app: Any, pilot: Any) -> None:
    """Click Play once the button is ready for it: a Textual button ignores clicks while it
    still shows its last press (0.2 s), and a test can click again sooner than that."""
    while app.query_one("#play").has_class("-active"):
        await pilot.pause(0.05)
    await pilot.click("#play")
