"""A game shown and played through its description and the state protocol alone: the generic
terminal table (``cardtable play GAME``, and the launcher for a game without a terminal table
of its own) draws any registered game with these.

A seat sees its view (:meth:`~cardtable.engine.description.GameDescription.seat_view`, or its
observation's fields when the game gives no view) as lines of ``key: value``; its legal moves
are numbered in the game's notation, and a move is chosen by its number or typed in notation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.engine.description import GameDescription
from cardtable.engine.errors import GameError
from cardtable.engine.match import forfeit_message
from cardtable.engine.one_line import one_line, shortened
from cardtable.engine.protocol import Result

MOVES_COMMAND = "moves"
HELP_COMMANDS = ("help", "?")
QUIT_COMMANDS = ("quit", "exit")
INLINE = 60
"""A list or a table of plain values this short in all is written on its key's line."""


def plain(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON-like data (mappings, lists, text, numbers), for an observation the
    game gives no view of: a dataclass by its fields, an object with ``to_json()`` by that."""
    if depth > 8:
        return str(value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, Mapping):
        return {str(key): plain(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(item, depth + 1) for item in value]
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return plain(to_json(), depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: plain(getattr(value, field.name), depth + 1)
                for field in dataclasses.fields(value) if not field.name.startswith("_")}
    return str(value)


def seat_view(described: GameDescription, state: Any, seat: str) -> Any:
    """What ``seat`` may see: the description's view of it, else its observation's data."""
    try:
        return described.seat_view(state, seat)
    except NotImplementedError:
        return plain(state.observation(seat))


def _scalar(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return shortened(one_line(str(value)), 200)


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, Mapping | list)


def _inline(value: Any) -> str | None:
    """A short list or table of plain values on one line (``a, b``; ``P1 2, P2 1``), else
    None."""
    if isinstance(value, list) and all(map(_is_scalar, value)):
        text = ", ".join(map(_scalar, value)) if value else "(none)"
    elif isinstance(value, Mapping) and value and all(map(_is_scalar, value.values())):
        text = ", ".join(f"{key} {_scalar(item)}" for key, item in value.items())
    else:
        return None
    return text if len(text) <= INLINE else None


def readable_lines(value: Any, indent: str = "") -> list[str]:
    """JSON-like ``value`` as lines a person reads: ``key: value``, short lists and tables on
    one line, longer ones below their key, indented."""
    lines: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            name = str(key).replace("_", " ")
            inline = _scalar(item) if _is_scalar(item) else _inline(item)
            if inline is not None:
                lines.append(f"{indent}{name}: {inline}")
            else:
                lines.append(f"{indent}{name}:")
                lines += readable_lines(item, indent + "  ")
    elif isinstance(value, list):
        for item in value:
            inline = _scalar(item) if _is_scalar(item) else _inline(item)
            if inline is not None:
                lines.append(f"{indent}- {inline}")
            else:
                inner = readable_lines(item, indent + "  ")
                lines.append(f"{indent}- {inner[0].lstrip()}" if inner else f"{indent}-")
                lines += inner[1:]
    else:
        lines.append(indent + _scalar(value))
    return lines


def legal_moves(state: Any) -> list[tuple[str, Any]]:
    """The legal actions of the seat to move with their notation, in the game's order."""
    return [(state.action_text(action), action) for action in state.legal_actions()]


def numbered(moves: Sequence[tuple[str, Any]]) -> str:
    """``1 pass · 2 bet``: what a person types to choose."""
    return "   ".join(f"{number}. {text}" for number, (text, _) in enumerate(moves, 1))


def chosen(state: Any, moves: Sequence[tuple[str, Any]], text: str) -> Any:
    """The action ``text`` chooses: a number of ``moves``, else the game's notation (whether
    it is legal is for ``apply`` to say). Raises :class:`GameError` with the message to show."""
    typed = text.strip()
    if typed.isascii() and typed.isdigit():
        number = int(typed) if len(typed) < 6 else 0
        if not 1 <= number <= len(moves):
            raise GameError(f"There is no move {shortened(typed, 12)}: choose 1 to "
                            f"{len(moves)}, or type a move.")
        return moves[number - 1][1]
    return state.parse_action(typed)


def winners_line(result: Result) -> str:
    """``Winner: P1``, ``Winners: P1, P3`` or ``No winner``."""
    if not result.winners:
        return "No winner"
    label = "Winner" if len(result.winners) == 1 else "Winners"
    return f"{label}: {', '.join(result.winners)}"


def result_lines(result: Result) -> list[str]:
    """The end of a game: who won, why, and the game's details."""
    forfeited = forfeit_message(result)
    if forfeited is not None:
        return [forfeited, winners_line(result)]
    lines = [f"{winners_line(result)} ({result.reason})"]
    details = plain(dict(result.details))
    if details:
        lines += readable_lines(details)
    return lines
