"""The options of an Obsession game. Every variant is a field; a preset is just an instance."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

KILL_ORDERS = ("effect-first", "kill-first")
MIN_PLAYERS, MAX_PLAYERS = 2, 10
MIN_RUN_KILL, MAX_RUN_KILL = 2, 8


@dataclass(frozen=True, slots=True)
class Rules:
    players: int = 4
    run_kill: int = 4
    """A run of this many identical faces on top of the discard pile kills it."""
    kill_order: str = "effect-first"
    """``effect-first``: effect, then run check. ``kill-first``: a run kill skips the effect."""
    max_plays: int = 5000
    """The game ends as a stalemate when this play ends and the game is not over."""
    repeat_limit: int = 3
    """A bots-only position seen this many times ends the game as a stalemate; 0 switches it off."""

    @property
    def decks(self) -> int:
        return (self.players + 1) // 2

    def problem(self) -> str | None:
        """What is wrong with these options, in words naming the option, or None."""
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            return f"--players must be from {MIN_PLAYERS} to {MAX_PLAYERS}"
        if not MIN_RUN_KILL <= self.run_kill <= MAX_RUN_KILL:
            return f"--run-kill must be from {MIN_RUN_KILL} to {MAX_RUN_KILL}"
        if self.kill_order not in KILL_ORDERS:
            return f"--kill-order must be one of: {', '.join(KILL_ORDERS)}"
        if self.max_plays < 1:
            return "--max-plays must be at least 1"
        if self.repeat_limit < 0:
            return "--repeat-limit must be 0 (off) or more"
        return None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        return {"players": data["players"], "decks": self.decks, "run_kill": data["run_kill"],
                "kill_order": data["kill_order"], "max_plays": data["max_plays"],
                "repeat_limit": data["repeat_limit"]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        """Rules from a record header; raises ValueError when a field is missing or wrong."""
        try:
            rules = cls(players=_int(data["players"]), run_kill=_int(data["run_kill"]),
                        kill_order=str(data["kill_order"]), max_plays=_int(data["max_plays"]),
                        repeat_limit=_int(data["repeat_limit"]))
        except (KeyError, TypeError) as error:
            raise ValueError(f"bad rules: {error}") from None
        problem = rules.problem()
        if problem is not None or data.get("decks", rules.decks) != rules.decks:
            raise ValueError(problem or "bad deck count")
        return rules


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not an integer: {value!r}")
    return int(value)
