"""The bots know games only through their descriptions, and the games never import the bots.

Read from the source: no module of ``cardtable.agents`` names a game (no string holding a
game's name outside the docstrings: no ``game == "caravan"``, no table keyed by names), and no
module of ``cardtable.games`` or ``cardtable.engine`` imports ``cardtable.agents``, not even
inside a function.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import cardtable
from cardtable.engine.game_registry import descriptions

SRC = Path(cardtable.__file__).resolve().parent


def _modules(package: str) -> Iterator[Path]:
    yield from sorted((SRC / package).rglob("*.py"))


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (of the module, a class, a function) or
    an attribute's docstring (a string standing alone as a statement)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            found.add(id(node.value))
    return found


def _builtin_games() -> set[str]:
    return {described.name for described in descriptions()
            if type(described).__module__.startswith("cardtable.games.")}


def test_the_bots_name_no_game() -> None:
    games = _builtin_games()
    assert {"caravan", "obsession", "austerity"} <= games
    named: list[str] = []
    for path in _modules("agents"):
        tree = ast.parse(path.read_text())
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in skip and node.value.strip().lower() in games:
                named.append(f"{path.relative_to(SRC)}:{node.lineno}: {node.value!r}")
    assert named == []


def test_no_game_and_no_engine_module_imports_the_bots() -> None:
    imports: list[str] = []
    for package in ("games", "engine"):
        for path in _modules(package):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module is not None:
                    names = [node.module] + [f"{node.module}.{alias.name}"
                                             for alias in node.names]
                elif isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                else:
                    continue
                if any(name == "cardtable.agents" or name.startswith("cardtable.agents.")
                       for name in names):
                    imports.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert imports == []
