"""The lobby's Bot pace, in a real browser: the table made from the form keeps the pace chosen
(stored with it), and one left at the server's pace stores none."""

from __future__ import annotations

import sqlite3
from typing import Any

from .conftest import Server
from .harness import say_my_name, wait_for


def stored_pace(server: Server, table: str) -> object:
    path = server.db_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        row = conn.execute("SELECT bot_delay FROM tables WHERE id = ?", (table,)).fetchone()
    assert row is not None
    return row[0]


def create_from_the_lobby(page: Any, server: Server, pace: str | None) -> str:
    page.goto(server.base + "/")
    page.select_option("#create-game", "caravan")
    page.locator("#seat-choices select").nth(1).select_option("bot:random")
    if pace is not None:
        page.select_option('select[name="bot_delay"]', pace)
    say_my_name(page)
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_url("**/tables/*", timeout=60_000)
    return str(page.url.rsplit("/", 1)[-1])


def test_the_lobby_sets_a_tables_bot_pace(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        assert page.goto(server.base + "/") is not None
        labels = page.locator('select[name="bot_delay"] option').all_inner_texts()
        assert labels == ["server's", "no wait", "1 s", "2 s", "4 s"]
        paced = create_from_the_lobby(page, server, "2")
        wait_for(page, lambda: stored_pace(server, paced) == 2.0, "the pace to be stored",
                 timeout=60)
        plain = create_from_the_lobby(page, server, None)
        assert plain != paced and stored_pace(server, plain) is None
    finally:
        context.close()
