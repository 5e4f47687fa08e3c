"""A program at a web table (``cardtable serve --allow-exec``), in a real browser: the lobby
offers it by name, and a forfeit is shown on the table's page with the seat and why."""

from __future__ import annotations

import json
import re
import shlex
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, running_server

SCRIPTS = Path(__file__).resolve().parents[1] / "external_bots" / "scripts"


@pytest.fixture(scope="module")
def program_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    crash = shlex.join([sys.executable, str(SCRIPTS / "misbehave.py"), "crash"])
    yield from running_server(tmp_path_factory, ("--allow-exec", f"crash={crash}"))


def test_the_lobby_offers_the_program_and_its_forfeit_is_shown(program_server: Server,
                                                              browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(program_server.base + "/")
    options = page.locator('#create-form select option[value="bot:exec:crash"]')
    assert options.count() > 0 and "bot: exec:crash" in options.first.inner_text()

    request = urllib.request.Request(
        program_server.base + "/api/tables", method="POST",
        data=json.dumps({"game": "caravan", "params": {"first": "DEF"},
                         "seats": ["human", "bot:exec:crash"]}).encode(),
        headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        made = json.loads(answer.read())
    table = made["table"]
    # The page sits at ABC: the program starts once its table's person is here.
    page.evaluate("([table, seat, token]) => CT.saveSeat(table, seat, token)",
                  [table, "ABC", made["tokens"]["ABC"]])
    page.goto(f"{program_server.base}/tables/{table}")
    status = page.locator("#status")
    status.filter(has_text="forfeits").wait_for(timeout=60_000)
    assert re.fullmatch(r"Game over: DEF forfeits \(its program exited with status 3\); "
                        r"ABC wins \(forfeit\)\.", status.inner_text().strip())
    assert "about to crash" not in page.content()
    context.close()
