"""A game's result as JSON, the same for every game and every interface (bots, web pages)."""

from __future__ import annotations

from typing import Any

from cardtable.engine.protocol import Result


def result_json(result: Result | None) -> dict[str, Any] | None:
    """``{"winners", "reason", "details"}``, or None while the game is not over. Details a
    game keeps for itself (anything but ints, strings, lists and None) are left out."""
    if result is None:
        return None
    details = {key: value for key, value in result.details.items()
               if isinstance(value, int | str | list | type(None))}
    return {"winners": list(result.winners), "reason": result.reason, "details": details}
