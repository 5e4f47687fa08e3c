"""The page routes in process: every page answers, holds nothing secret, escapes what comes
from the address, and the static files ship in the package."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardtable.games.caravan.description import CARAVAN
from cardtable.games.caravan.howto import howto_lines
from cardtable.games.caravan.rules import FIELD_NAMES, GLOBAL_FIELDS, PRESETS, SeatRules
from cardtable.web import games, pages
from cardtable.web.app import create_app
from cardtable.web.store import Store
from waiting import wait_until

STATIC = ("style.css", "common.js", "cards.js", "table.js", "lobby.js", "replay.js",
          "leaderboard.js")


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'pages.db'}")
    with TestClient(create_app(store)) as test_client:
        yield test_client
    store.close()


class Elements(HTMLParser):
    """Tags, attributes and scripts of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def parse(html: str) -> Elements:
    elements = Elements()
    elements.feed(html)
    return elements


@pytest.mark.parametrize("path", ["/", "/howto", "/howto/obsession", "/howto/austerity",
                                  *(f"/howto/caravan/{name}" for name in PRESETS),
                                  "/leaderboard", "/tables/TABLE", "/replay/TABLE"])
def test_every_page_answers_with_html_and_its_scripts(client: TestClient, path: str) -> None:
    if "TABLE" in path:
        created = client.post("/api/tables", json={"game": "caravan", "seats": ["human"] * 2})
        path = path.replace("TABLE", created.json()["table"])
    answer = client.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    elements = parse(answer.text)
    scripts = [attrs["src"] for tag, attrs in elements.tags if tag == "script" and "src" in attrs]
    assert "/static/common.js" in scripts
    for script in scripts:
        assert client.get(str(script)).status_code == 200
    assert any(tag == "meta" and attrs.get("name") == "viewport" for tag, attrs in elements.tags)


def test_static_files_are_package_data() -> None:
    root = pages.PACKAGE.joinpath("static")
    for name in STATIC:
        assert root.joinpath(name).is_file(), name


def test_an_unknown_table_is_a_404_page_that_escapes_the_address(client: TestClient) -> None:
    for path in ("/tables/", "/replay/"):
        answer = client.get(path + "%3Cimg%20src=x%20onerror=alert(1)%3E")
        assert answer.status_code == 404
        assert answer.headers["content-type"].startswith("text/html")
        assert "No such table" in answer.text
        assert "<img" not in answer.text and "&lt;img src=x onerror=alert(1)&gt;" in answer.text


def test_the_lobby_offers_every_game_bot_and_rule_field(client: TestClient) -> None:
    html = client.get("/").text
    for game in games.game_names():
        assert f'<option value="{game}"' in html
        assert f'<fieldset data-game="{game}"' in html
        for bot in games.bot_names(game):
            assert f'"{bot}"' in html
    for name in FIELD_NAMES:
        if name in GLOBAL_FIELDS:
            assert f'name="{name}"' in html
        else:
            assert f'name="abc.{name}"' in html and f'name="def.{name}"' in html
    for name in PRESETS:
        assert f'<option value="{name}"' in html


def test_script_json_cannot_close_its_script_element() -> None:
    text = pages.script_json({"x": "</script><script>alert(1)</script>", "y": "<!--"})
    assert "</" not in text and "<!--" not in text
    assert "\\u003c/script\\u003e" in text


def test_a_page_holds_no_token(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": "caravan", "seats": ["human", "human"],
                                               "claim": ["ABC"]}).json()
    table, token = created["table"], created["tokens"]["ABC"]
    for path in (f"/tables/{table}", f"/replay/{table}", "/"):
        assert token not in client.get(path).text


def test_unknown_how_to_play_pages_are_404(client: TestClient) -> None:
    for path in ("/howto/poker", "/howto/caravan/nonsense"):
        answer = client.get(path)
        assert answer.status_code == 404
        assert re.search(r"Unknown (game|preset)", answer.text)


def test_how_to_play_is_the_terminal_text(client: TestClient) -> None:
    html = client.get("/howto/caravan/nv").text
    for line in howto_lines(SeatRules.preset("nv"), width=10_000)[1:]:
        if line.startswith("  "):
            assert escape(line.strip()) in html, line


def test_create_form_fields_are_accepted_by_the_game() -> None:
    """Every rule field is in the form, and every choice the form offers for one is a value
    the game takes."""
    rows = CARAVAN.form_fields()
    assert [name for name, _params in rows] == list(FIELD_NAMES)
    for name, params in rows:
        assert [param.name for param in params] == (
            [name] if name in GLOBAL_FIELDS else [f"abc.{name}", f"def.{name}"])
        for param in params:
            for value in param.choices:
                checked, _kinds = games.check_table("caravan", {param.name: value},
                                                    ["human", "human"])
                assert checked[param.name] == value


def test_replay_steps_of_a_finished_table(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": "caravan", "params": {"rules": "nv"},
                                               "seats": ["bot:normal", "bot:random"]}).json()
    table = created["table"]
    wait_until(lambda: client.get(f"/api/tables/{table}").json()["result"] is not None,
               "the bots to finish the game")
    steps = client.get(f"/replay/{table}/steps").json()
    moves = [move for _seat, move in client.app.state.store.moves(table)]
    assert [step["move"] for step in steps["moves"]] == moves
    assert len(steps["frames"]) == len(moves) + 1
    assert steps["result"]["winners"] and steps["frames"][-1]["result"] == steps["result"]
    assert set(steps["frames"][0]["hands"]) == {"ABC", "DEF"}


def test_replay_steps_wait_for_the_end_of_the_game(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": "caravan", "seats": ["human"] * 2})
    answer = client.get(f"/replay/{created.json()['table']}/steps")
    assert answer.status_code == 409
    assert answer.json() == {"error": "A replay is available once the game is over."}
    assert client.get("/replay/nosuchtable/steps").status_code == 404
