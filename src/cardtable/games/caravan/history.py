"""Caravan's public history: the engine's constant-time :class:`History` of entries."""

from __future__ import annotations

from cardtable.engine.history import History
from cardtable.games.caravan.events import HistoryEntry

CaravanHistory = History[HistoryEntry]

__all__ = ["CaravanHistory", "History"]
