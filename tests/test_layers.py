"""The package's layers, read from its own imports: no import cycle (an import inside a function
counts; one under ``if TYPE_CHECKING:``, for annotations only, never runs and does not), no
import from a lower layer to a higher one, and no game named outside ``cardtable/games/`` (a
comparison with a game's name, or a list of games): every shell asks the games' descriptions.

The layers, low to high: ``cards`` and ``version``; ``engine``; ``games``, ``agents`` and the
package's front door (``cardtable.load_game``); ``ui``, ``envs`` and ``web``; ``tournament``;
``cli``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import cardtable
from cardtable.engine import game_registry

SOURCE = Path(cardtable.__file__).parent.parent

LAYERS = {
    "cardtable.cards": 0, "cardtable.version": 0,
    "cardtable.engine": 1,
    "cardtable.games": 2, "cardtable.agents": 2, "cardtable": 2,
    "cardtable.ui": 3, "cardtable.envs": 3, "cardtable.web": 3,
    "cardtable.tournament": 4,
    "cardtable.cli": 5,
}


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package under ``root`` (a ``src`` folder), by dotted name."""
    found = {}
    for path in sorted((root / "cardtable").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom,
             known: dict[str, Path]) -> Iterator[str]:
    if isinstance(node, ast.Import):
        wanted = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
            package = package[:len(package) - node.level + 1]
            base = ".".join([*package, base] if base else package)
        # ``from package import module`` imports the module; ``from module import name`` the module
        wanted = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                  for alias in node.names]
    for target in wanted:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            yield target


def _under_type_checking(test: ast.expr) -> bool:
    return "TYPE_CHECKING" in ast.unparse(test)


def imports(root: Path) -> dict[str, set[str]]:
    """Each module's imports of the package's own modules, those inside functions included."""
    known = modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        found: set[str] = set()

        def visit(nodes: list[ast.stmt], name: str = name, path: Path = path,
                  found: set[str] = found) -> None:
            for node in nodes:
                if isinstance(node, ast.If) and _under_type_checking(node.test):
                    visit(node.orelse)
                    continue
                if isinstance(node, ast.Import | ast.ImportFrom):
                    found.update(_targets(name, path, node, known))
                    continue
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.stmt):
                        visit([child])
                    elif isinstance(child, ast.ExceptHandler | ast.match_case):
                        visit(child.body)

        visit(ast.parse(path.read_text(encoding="utf-8")).body)
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of two modules or more (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1:
                    found.append(sorted(members))
    return found


def layer(module: str) -> int:
    """The layer of ``module``: that of its longest listed prefix."""
    while module not in LAYERS:
        module = module.rpartition(".")[0]
    return LAYERS[module]


def package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Imports from a module to one of a higher layer, or to another package of its layer."""
    found = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            if layer(target) > layer(module) or (
                    layer(target) == layer(module) and package(target) != package(module)):
                found.append(f"{module} -> {target}")
    return found


def game_names_outside_games(root: Path, names: set[str]) -> list[str]:
    """Comparisons with a game's name, and lists, sets or keys holding one, outside the games'
    own packages."""
    found = []
    for module, path in modules(root).items():
        if module.startswith("cardtable.games."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                values = [node.left, *node.comparators]
            elif isinstance(node, ast.List | ast.Tuple | ast.Set):
                values = list(node.elts)
            elif isinstance(node, ast.Dict):
                values = [key for key in node.keys if key is not None]
            elif isinstance(node, ast.MatchValue):
                values = [node.value]
            else:
                continue
            for value in values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str) \
                        and value.value.strip().lower() in names:
                    found.append(f"{module}:{value.lineno}: {value.value!r}")
    return found


def test_no_import_cycle() -> None:
    assert cycles(imports(SOURCE)) == []


def test_no_import_from_a_lower_layer_to_a_higher_one() -> None:
    assert upward(imports(SOURCE)) == []


def test_every_package_has_a_layer() -> None:
    packages = {package(name) for name in modules(SOURCE)}
    assert packages <= set(LAYERS), sorted(packages - set(LAYERS))


def test_no_game_is_named_outside_the_games() -> None:
    assert game_names_outside_games(SOURCE, set(game_registry.names())) == []


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """A package with a lazy import cycle, an import upward, a comparison with a game's name
    and a list of games is caught by each check."""
    package = tmp_path / "cardtable"
    for folder in ("engine", "cli", "games"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "engine" / "a.py").write_text(
        "def f():\n    from cardtable.engine import b\n    return b\n")
    (package / "engine" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cardtable.cli import c\n"
        "from cardtable.engine.a import f\n")
    (package / "engine" / "d.py").write_text(
        "from cardtable.cli.c import run\nGAMES = ('caravan', 'obsession')\n")
    (package / "cli" / "c.py").write_text(
        "def run(game):\n    return game == 'caravan'\n")
    graph = imports(tmp_path)
    assert cycles(graph) == [["cardtable.engine.a", "cardtable.engine.b"]]
    assert upward(graph) == ["cardtable.engine.d -> cardtable.cli.c"]
    assert game_names_outside_games(tmp_path, {"caravan", "obsession"}) == [
        "cardtable.cli.c:2: 'caravan'", "cardtable.engine.d:2: 'caravan'",
        "cardtable.engine.d:2: 'obsession'"]
