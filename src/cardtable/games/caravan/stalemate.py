"""Stopping a game that can no longer end: the ``stuck_plies`` rule.

The rules have no end for a game in which nobody changes a caravan any more. Two bots can get
there: under foxon, two ``normal`` bots whose lanes are tied at the top of the sold range can
neither add to a caravan nor have a reason to clear one, so both keep discarding, and their
discards keep becoming decks again. ``SeatRules.stuck_plies`` (a rule of the whole table, not
of a seat) stops such a game: once no caravan has changed for that many moves in a row, the
state ends it as abandoned, cause ``stalemate`` (``Result((), "quit", {..., "cause":
"stalemate"})``), the result records and displays already know. Only discards leave every
caravan as it was; the game's first move is never counted (there is no earlier board to
compare with). ``None`` switches it off, which is what a state built straight from rules gets;
``load_game("caravan")`` and the shells' games between two bots use :data:`STUCK_PLIES`,
games with a person in them (who can always quit) ``None``. Ordinary play, random bots
included, changes a caravan within a few dozen moves.
"""

from __future__ import annotations

from dataclasses import replace

from cardtable.engine.history import History
from cardtable.engine.protocol import Result
from cardtable.games.caravan.events import HistoryEntry
from cardtable.games.caravan.notation import DISCARD, unpack
from cardtable.games.caravan.rules import SeatRules

STUCK_PLIES = 1000
STALEMATE = "stalemate"


def idle_plies(history: History[HistoryEntry], plies: int, limit: int) -> int:
    """How many moves in a row, up to ``limit``, have left every caravan unchanged (the
    discards at the end of ``history``); ``plies`` is the number of moves of the whole game."""
    idle = 0
    for entry in reversed(history):
        if entry.code is None:
            break  # a mulligan shown before the first move
        if unpack(entry.code)[0] != DISCARD:
            return idle
        idle += 1
        if idle > limit:
            return idle
    # Every move of the game is a discard: the first one is never counted.
    return idle - 1 if idle == plies else idle


def table_rules(rules: SeatRules, humans: tuple[bool, bool]) -> SeatRules:
    """``rules`` as the shells play them: unless ``stuck_plies`` is given, a game between two
    bots stops after :data:`STUCK_PLIES` idle moves, a game with a person never."""
    if rules.stuck_plies is not None or any(humans):
        return rules
    return replace(rules, stuck_plies=STUCK_PLIES)


def is_stalemate(result: Result | None) -> bool:
    """Whether ``result`` is a game the ``stuck_plies`` rule stopped."""
    return (result is not None and result.reason == "quit"
            and result.details.get("cause") == STALEMATE)


def stalemate_message(limit: int | None) -> str:
    """What an interface says when the rule stops the game."""
    return (f"No caravan has changed in {limit} moves: the bots are stuck and the "
            "game is stopped.")
