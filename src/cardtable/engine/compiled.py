"""Loading a game's optional compiled core.

A game may ship a C extension ``_core`` beside its Python engine for the hot loops that
search bots and benchmarks need. The extension is optional (the install skips it when no C
compiler is present) and can be turned off with ``CARDTABLE_PURE=1``; callers then use the
pure Python engine.

A core reads a Python game only through the game's one export, ``Game.export_core()``: a flat
tuple whose fields are named, in order, by ``games/<game>/core_export.CORE_FIELDS`` and mirrored
by the core's ``EXPORT_FIELDS`` (a test checks that both agree). Nothing else crosses the
language boundary into C.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE_VARIABLE = "CARDTABLE_PURE"


def pure_requested() -> bool:
    """Whether the environment asks for the pure Python engines only."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


def load_core(game: str) -> ModuleType | None:
    """``cardtable.games.<game>._core`` if it is built and allowed, else None."""
    if pure_requested():
        return None
    try:
        return importlib.import_module(f"cardtable.games.{game}._core")
    except ImportError:
        return None
