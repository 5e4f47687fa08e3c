"""The pages under their Content-Security-Policy in a real browser: every page works with no
policy violation (an inline script injected on purpose is blocked and reported), the table's
WebSocket opens with a hello whose URL holds no token, and the server's log (at info level)
never shows a seat's token."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, running_server
from .harness import Recorder, check_no_leak, wait_for
from .test_browser_pages import create_from_lobby

WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from running_server(tmp_path_factory, ("--log-level", "info"))


class Watched:
    """A page with what it says about its policy, its sockets and the frames it sends."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.console: list[str] = []
        self.sockets: list[str] = []
        self.sent: list[dict[str, Any]] = []
        page.add_init_script(WATCH_VIOLATIONS)
        page.on("console", lambda message: self.console.append(message.text))
        page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        self.sockets.append(socket.url)
        socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def violations(self) -> list[str]:
        found: list[str] = self.page.evaluate("window.__violations || []")
        return found + [text for text in self.console
                        if "Content Security Policy" in text or "Refused to" in text]


def test_pages_work_under_the_policy_and_the_socket_says_hello(server: Server, browser: Any,
                                                               shots: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    player = Watched(context.new_page())
    recorder = Recorder("player").attach(player.page)
    # The lobby's form posts JSON from the server's own origin: accepted.
    table = create_from_lobby(player.page, server.base, "caravan", ["human", "bot:random"])
    player.page.locator("#seat-line").filter(has_text="You are ABC").wait_for()
    wait_for(player.page, lambda: bool((recorder.latest() or {}).get("legal")), "a legal move")
    state = recorder.latest()
    assert state is not None
    player.page.fill("#move-input", state["legal"][0])
    player.page.press("#move-input", "Enter")
    wait_for(player.page, lambda: (recorder.latest() or {}).get("ply", 0) >= 1, "the move")
    token = player.page.evaluate(
        f"JSON.parse(localStorage.getItem('cardtable.seat.{table}')).token")
    assert token
    # The socket: no token in its URL, the token in its first message.
    assert player.sockets and all("token" not in url for url in player.sockets)
    assert player.sent[0] == {"type": "hello", "token": token}
    assert all(frame["seat"] == "ABC" for frame in recorder.states())
    assert check_no_leak(server.db_url, table, {"ABC": token}, recorder, "ABC") >= 2

    # A spectator's page says hello without a token and sees the table.
    watcher = Watched(browser.new_context().new_page())
    watcher.page.goto(f"{server.base}/tables/{table}")
    watcher.page.locator("#board").wait_for()
    wait_for(watcher.page, lambda: bool(watcher.sent), "the spectator's hello")
    assert watcher.sent[0] == {"type": "hello"}
    assert all("token" not in url for url in watcher.sockets)

    # Every other page, under the same policy.
    me = player.page.evaluate("fetch('/api/players/me').then((answer) => answer.json())")
    person = "/people/" + urllib.parse.quote(me["name"])
    for path in ("/", "/howto", "/howto/caravan", "/leaderboard", f"/replay/{table}",
                 "/account", person):
        answer = player.page.goto(server.base + path)
        assert answer is not None and answer.status == 200, path
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        player.page.wait_for_load_state("networkidle")
        assert player.violations() == [], (path, player.violations())
    assert watcher.violations() == []
    assert recorder.page_errors() == []

    # The policy does hold: an inline script injected into the page is blocked and reported.
    player.page.evaluate("""() => {
      const script = document.createElement("script");
      script.textContent = "window.__ran = true;";
      document.body.append(script);
    }""")
    wait_for(player.page, lambda: bool(player.page.evaluate("window.__violations.length")),
             "the blocked script's report")
    assert player.page.evaluate("window.__ran === undefined")
    assert any(text.startswith("script-src") for text in player.violations())
    context.close()
    watcher.page.context.close()

    # And the server's log, at info level, shows the sockets but no token.
    log = server.log.read_text(errors="replace")
    # (A table's id may hold "-" and "_": the socket's line is looked for by the id itself.)
    assert f"WebSocket /api/tables/{table}/ws" in log
    assert token not in log and token[:12] not in log
