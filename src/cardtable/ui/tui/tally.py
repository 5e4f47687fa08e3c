"""Wins counted over the games of one table in the launcher (Ctrl+R plays the table again)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class WinTally:
    """Games played and wins per player; a shared win counts for each winner."""

    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)

    def add(self, players: Sequence[str], winners: Sequence[str]) -> None:
        """One finished game between ``players`` (every name is listed, winners or not)."""
        self.games += 1
        for name in players:
            self.wins.setdefault(name, 0)
        for name in dict.fromkeys(winners):
            self.wins[name] = self.wins.get(name, 0) + 1

    def copy(self) -> WinTally:
        return WinTally(self.games, dict(self.wins))

    def line(self) -> str:
        """``Wins over 3 games: YOU 2, BOT 1`` (most wins first), or "" before any game."""
        if not self.games:
            return ""
        ranked = sorted(self.wins.items(), key=lambda item: (-item[1], item[0]))
        games = f"{self.games} game{'s' if self.games != 1 else ''}"
        return f"Wins over {games}: " + ", ".join(f"{name} {wins}" for name, wins in ranked)
