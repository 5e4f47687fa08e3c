"""The parts of a game that a description names by an import path, ``"package.module:NAME"``
(a terminal table, a benchmark), imported only when a shell uses them: a game package never
imports the layers above it."""

from __future__ import annotations

import importlib
from typing import Any


def imported(path: str) -> Any:
    """The object ``path`` names (``"package.module:NAME"``, ``NAME`` may be dotted)."""
    module_name, colon, name = path.partition(":")
    if not colon or not module_name or not name:
        raise ValueError(f"'{path}' is not an import path (package.module:NAME)")
    found: Any = importlib.import_module(module_name)
    for part in name.split("."):
        found = getattr(found, part)
    return found
