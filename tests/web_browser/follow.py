"""What the browser tests of following a game share: a table made through the page's own API
client (so the seat's token is kept where the page keeps it), and a move typed in the move box.
"""

from __future__ import annotations

from typing import Any

from .harness import Recorder, wait_for

Json = dict[str, Any]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def new_table(page: Any, base: str, body: Json) -> tuple[str, dict[str, str]]:
    """Create a table as the lobby would (``POST /api/tables`` from one of the server's pages),
    keep each claimed seat's token in this browser, and open the table. Returns the table and
    its tokens."""
    page.goto(base + "/howto")
    answer = page.evaluate("(body) => CT.api('POST', '/api/tables', body)", body)
    table, tokens = answer["table"], answer["tokens"]
    for seat, token in tokens.items():
        page.evaluate("([table, seat, token]) => CT.saveSeat(table, seat, token)",
                      [table, seat, token])
    page.goto(f"{base}/tables/{table}")
    return table, tokens


def type_move(page: Any, recorder: Recorder, move: str) -> Json:
    """Type ``move`` in the move box and wait for the frame that follows it; returns it."""
    frame = recorder.latest()
    assert frame is not None and move in frame["legal"], (move, frame and frame["legal"])
    before = len(recorder.states())
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")
    wait_for(page, lambda: any(state["ply"] > frame["ply"]
                               for state in recorder.states()[before:]), f"the move {move}")
    latest = recorder.latest()
    assert latest is not None
    return latest


def my_turn(page: Any, recorder: Recorder, seat: str) -> Json:
    """Wait until ``seat`` is to move (or the game is over); returns the latest frame."""
    def ready() -> bool:
        frame = recorder.latest()
        return frame is not None and (bool(frame.get("result"))
                                      or (frame["to_move"] == seat and bool(frame["legal"])))

    wait_for(page, ready, f"{seat}'s turn")
    latest = recorder.latest()
    assert latest is not None
    return latest


def shown_last_move(page: Any, recorder: Recorder) -> Json:
    """Wait until the page shows the latest frame's last move in words; returns that move."""
    def shown() -> bool:
        frame = recorder.latest()
        last = frame["observation"].get("last_move") if frame else None
        return last is not None and page.evaluate(
            "(text) => { const box = document.getElementById('last-move');"
            " return !box.hidden && box.textContent.includes(text); }", last["text"])

    wait_for(page, shown, "the last move in words")
    frame = recorder.latest()
    assert frame is not None
    last: Json = frame["observation"]["last_move"]
    return last


def settled(page: Any) -> None:
    """Wait until no animation runs (a screenshot then shows the page at rest)."""
    page.wait_for_function(
        "() => document.getAnimations().every((animation) => animation.playState !== 'running')")
