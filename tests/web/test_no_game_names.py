"""The web server names no game: every game's part comes from its description. No Python
module of ``cardtable.web`` holds a game's name as a value (a list of games, a comparison, a
key), and the game pages' boards are chosen by the page templates the descriptions name."""

from __future__ import annotations

import ast
from pathlib import Path

import cardtable.web
from cardtable.engine import game_registry

WEB = Path(cardtable.web.__file__).parent


def test_no_web_module_names_a_game() -> None:
    names = set(game_registry.names())
    found = []
    for path in sorted(WEB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.strip().lower() in names:
                found.append(f"{path.relative_to(WEB)}:{node.lineno}: {node.value!r}")
    assert found == []


def test_every_game_page_is_a_template_with_its_board() -> None:
    templates = WEB / "templates"
    for description in game_registry.descriptions():
        if description.web_page is None:
            continue
        page = templates / description.web_page
        assert page.is_file(), description.web_page
        board = page.read_text(encoding="utf-8")
        name = board.split('data-board="', 1)[1].split('"', 1)[0]
        assert f"Boards.{name} = " in (WEB / "static" / "table.js").read_text(encoding="utf-8")
