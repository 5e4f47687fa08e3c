"""The options of an Obsession game. Every variant is a field; a preset is just an instance."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from cardtable.engine.errors import GameParamsError
from cardtable.games.obsession.params import (
    KILL_ORDER,
    KILL_ORDERS,
    MAX_PLAYERS,
    MAX_PLAYS,
    MAX_RUN_KILL,
    MIN_PLAYERS,
    MIN_RUN_KILL,
    PLAYERS,
    REPEAT_LIMIT,
    RULES,
    RUN_KILL,
)

__all__ = ["KILL_ORDERS", "MAX_PLAYERS", "MAX_RUN_KILL", "MIN_PLAYERS", "MIN_RUN_KILL", "Rules"]


@dataclass(frozen=True, slots=True)
class Rules:
    """The defaults and the limits of every field are the game's parameters' (:mod:`params`)."""

    players: int = PLAYERS.default
    run_kill: int = RUN_KILL.default
    """A run of this many identical faces on top of the discard pile kills it."""
    kill_order: str = KILL_ORDER.default
    """``effect-first``: effect, then run check. ``kill-first``: a run kill skips the effect."""
    max_plays: int = MAX_PLAYS.default
    """The game ends as a stalemate when this play ends and the game is not over."""
    repeat_limit: int = REPEAT_LIMIT.default
    """A bots-only position seen this many times ends the game as a stalemate; 0 switches it off."""

    @property
    def decks(self) -> int:
        return (self.players + 1) // 2

    def problem(self) -> str | None:
        """What is wrong with these options, in the parameter's message, or None."""
        for param in RULES:
            try:
                param.check(getattr(self, param.name))
            except GameParamsError as error:
                return error.message
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
