"""A guest is asked for a name in the lobby before sitting down: making a table with a seat
for them, taking a seat from the list of tables and a quick match all wait for it, and the
table then shows that name instead of "a person"."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from .conftest import Server


def table_seats(server: Server, table: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{server.base}/api/tables/{table}", timeout=30) as answer:
        seats: list[dict[str, Any]] = json.load(answer)["seats"]
    return seats


def test_a_guest_names_themselves_before_sitting_down(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(server.base + "/")
        page.locator("#name-row").wait_for()
        page.select_option("#create-game", "caravan")
        page.locator("#seat-choices select").nth(1).select_option("human")
        page.locator("#create-form button[type=submit]").click()
        page.locator("#create-error").filter(has_text="Choose your name first").wait_for()
        assert page.evaluate("document.activeElement.id") == "lobby-name"
        assert re.search(r"/$", page.url)  # nothing was made: still the lobby
        page.fill("#lobby-name", "Robin")
        page.locator("#create-form button[type=submit]").click()
        page.wait_for_url(re.compile(r"/tables/"))
        table = page.url.rsplit("/", 1)[1]
        assert table_seats(server, table)[0]["name"] == "Robin"
        page.locator("#me b").filter(has_text="Robin").wait_for()

        # Another guest takes the free seat from the lobby's list, named first.
        other = browser.new_context().new_page()
        other.goto(server.base + "/")
        row = other.locator(f'#open-tables tr[data-table="{table}"]')
        row.locator("button.join").click()
        other.locator("#lobby-error").filter(has_text="Choose your name first").wait_for()
        assert table_seats(server, table)[1]["name"] is None
        other.fill("#lobby-name", "Sam")
        row.locator("button.join").click()
        other.wait_for_url(re.compile(r"/tables/"))
        assert [seat["name"] for seat in table_seats(server, table)] == ["Robin", "Sam"]
        # A named guest is not asked again.
        other.goto(server.base + "/")
        other.locator("#me b").filter(has_text="Sam").wait_for()
        assert other.locator("#name-row").is_hidden()
        other.context.close()
    finally:
        context.close()
