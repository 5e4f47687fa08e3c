"""The layout of the one door from a Python Obsession game into the compiled core.

The core never reads a game's attributes; it takes the flat tuple of
``ObsessionState.export_core()``,
whose fields are named, in order, by :data:`CORE_FIELDS`. The C side lists the same names
(``_core.EXPORT_FIELDS``), and a test checks that the two agree.

Fields: ``players``; ``phase``; ``rules`` (the game's
:class:`~cardtable.games.obsession.rules.Rules`); ``current``, ``direction``, ``active``,
``top_face``, ``run``, ``remaining``, ``plays``, ``turns`` (ints); ``humans`` and ``out``
(one flag per seat); ``placings`` (seats in the order they went out); ``stalemate`` (None,
``"cap"`` or ``"repetition"``); ``hands``, ``visible``, ``hidden`` (one card-id list per seat,
hands and visible rows sorted); ``draw`` (top card last), ``pile``, ``removed``, ``killed``
(card ids); ``seen`` (the repetition guard's count per position key); ``known`` (one sorted
card-id list per seat: the cards of its hand every seat saw go there, a part of its hand).
"""

from __future__ import annotations

from typing import Any

CORE_FIELDS = (
    "players", "phase", "rules", "current", "direction", "active", "top_face", "run",
    "remaining", "plays", "turns", "humans", "out", "placings", "stalemate", "hands",
    "visible", "hidden", "draw", "pile", "removed", "killed", "seen", "known",
)

CoreExport = tuple[Any, ...]
