"""The lobby's open tables a page at a time, in a real browser: the most recently active
first, Next and Previous, the game filter."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, running_server
from .harness import wait_for

PAGE_SIZE = 20


@pytest.fixture(scope="module")
def paging_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # The tables are made from this one client, faster than the default limit allows.
    yield from running_server(tmp_path_factory, ("--rate-limits", "create=100/60"))


def create(server: Server, game: str, seats: list[str], claim: str) -> str:
    request = urllib.request.Request(
        server.base + "/api/tables", method="POST",
        data=json.dumps({"game": game, "seats": seats, "claim": [claim]}).encode(),
        headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        table: str = json.loads(answer.read())["table"]
    return table


def shown(page: Any) -> list[str]:
    rows = page.locator("#open-tables tbody tr[data-table]")
    found: list[str] = rows.evaluate_all("(rows) => rows.map((row) => row.dataset.table)")
    return found


def wait_for_rows(page: Any, expected: list[str], what: str) -> None:
    wait_for(page, lambda: shown(page) == expected, what, timeout=60)


def test_the_lobby_pages_through_the_open_tables(paging_server: Server, browser: Any,
                                                 shots: Path) -> None:
    caravans = [create(paging_server, "caravan", ["human", "human"], "ABC") for _ in range(42)]
    obsessions = [create(paging_server, "obsession", ["human", "human"], "P1")
                  for _ in range(3)]
    newest_first = (caravans + obsessions)[::-1]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(paging_server.base + "/")
    previous, following = page.locator("#tables-previous"), page.locator("#tables-next")

    wait_for_rows(page, newest_first[:PAGE_SIZE], "the first page")
    assert page.inner_text("#tables-page") == "Page 1"
    assert previous.is_disabled() and following.is_enabled()
    page.screenshot(path=str(shots / "web-lobby-pages.png"), full_page=True)

    following.click()
    wait_for_rows(page, newest_first[PAGE_SIZE:2 * PAGE_SIZE], "the second page")
    assert page.inner_text("#tables-page") == "Page 2" and previous.is_enabled()
    following.click()
    wait_for_rows(page, newest_first[2 * PAGE_SIZE:], "the last page")
    assert page.inner_text("#tables-page") == "Page 3"
    wait_for(page, following.is_disabled, "Next to be disabled on the last page", timeout=60)
    previous.click()
    wait_for_rows(page, newest_first[PAGE_SIZE:2 * PAGE_SIZE], "the second page again")

    # A table made meanwhile comes first, on the first page.
    fresh = create(paging_server, "caravan", ["human", "human"], "ABC")
    previous.click()
    wait_for_rows(page, [fresh, *newest_first[:PAGE_SIZE - 1]], "the new table first")
    assert previous.is_disabled()

    page.select_option("#tables-game", "obsession")
    wait_for_rows(page, obsessions[::-1], "Obsession's tables only")
    assert page.inner_text("#tables-page") == "Page 1"
    wait_for(page, following.is_disabled, "Next to be disabled with one page", timeout=60)
    page.select_option("#tables-game", "")
    wait_for_rows(page, [fresh, *newest_first[:PAGE_SIZE - 1]], "every game again")
    context.close()
