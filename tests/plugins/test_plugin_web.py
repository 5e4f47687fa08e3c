"""``cardtable serve`` with the plug-in installed: the lobby offers Kuhn poker, and a person
plays a game to the end in a real browser on the generic table page.

The server is a real process and the browser Debian's Chromium (tests/web_browser)."""

from __future__ import annotations

import json
import os
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from web_browser.conftest import CHROMIUM, CHROMIUM_ARGS, Server, running_server
from web_browser.harness import Recorder, play_turns, say_my_name


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from running_server(tmp_path_factory)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright, as tests/web_browser starts it."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read())


def test_the_lobby_offers_the_game(server: Server) -> None:
    catalogue = get_json(server.base + "/api/games")["games"]
    (kuhn,) = [entry for entry in catalogue if entry["game"] == "kuhn_poker"]
    assert kuhn["seats"] == [2, 2]
    assert {"always-bet", "equilibrium", "random"} <= set(kuhn["bots"])
    howto = get_json(server.base + "/api/howto/kuhn_poker")
    assert any("J < Q < K" in line for line in howto["lines"])


def click_action(page: Any, move: str) -> None:
    """The generic table page offers each legal move as a button (``data-move``)."""
    page.locator(f'#board button.move[data-move="{move}"]').click()


def test_a_person_plays_a_game_to_the_end_in_the_browser(server: Server, browser: Any) -> None:
    page = browser.new_page()
    recorder = Recorder("kuhn").attach(page)
    page.goto(server.base + "/")
    page.select_option("#create-game", "kuhn_poker")
    choices = page.locator("#seat-choices select")
    assert choices.count() == 2
    choices.nth(0).select_option("human")
    choices.nth(1).select_option("bot:always-bet")
    say_my_name(page)
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/"))

    def choose(seat: str, frame: dict[str, Any]) -> str:
        # Always call: against always-bet every game ends in a showdown after P1's second turn
        # or P2's bet is called.
        return "bet"

    made = play_turns({"P1": (page, recorder)}, choose, click_action)
    assert made >= 1
    final = recorder.latest()
    assert final is not None and final["result"]
    states = recorder.states()
    for frame in states:
        cards = frame["observation"]["cards"]
        assert cards["P1"] in ("J", "Q", "K")
        if not frame["result"]:
            assert cards["P2"] is None, frame  # the other card is never sent before the end
    # Always-bet calls P1's bet: a showdown, both cards shown, P1 wins or loses 2 chips.
    assert final["observation"]["cards"]["P2"] in ("J", "Q", "K")
    assert abs(final["observation"]["chips"]["P1"]) == 2
    page.locator("body").filter(has_text="Game over").wait_for()
    assert recorder.page_errors() == []
    page.close()
