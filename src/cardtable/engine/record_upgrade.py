"""Records of the former dialects, upgraded to the one record format.

Before the one format (:mod:`cardtable.engine.record`) each game wrote a dialect of its own:
Caravan ``{"type":"header",...,"format":1}`` lines, Obsession ``{"t":"header",...,"v":1}``
(a line per public event) and the Austerity hub ``{"ev":"start",...}``. A game names the
reader of its former dialect in its description (``GameDescription.former_records``, an
import path); the reader recognizes the dialect by the record's first line, checks the whole
record by playing it again, with every check its replay used to make (a line it refuses is
named by its number in the file), and gives the record in the one format, line by line, as
the game's recorder writes it today.

:func:`upgrade` is what ``cardtable records upgrade`` writes; :func:`current_lines` is what
every replay reads, so that there is one reader of records: the lines as they are for a
record of the one format (or for anything else, which that reader then names), and for a
record of a former dialect the upgraded lines laid out on the file's own lines (blank lines
between them), so that a line the replay names (where a result line is missing) is the
file's line.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cardtable.engine.record_lines import (
    FORMAT,
    KIND,
    Line,
    ReplayLineError,
    encode_line,
    first_object,
)

DOES_NOT_MATCH = "the line does not match the game"
"""The reason given for a line of a former record that the game does not play (the former
Obsession replay named only the line)."""


@dataclass(frozen=True)
class Upgraded:
    """A record of a former dialect in the one format: each line with the line of the file it
    was written from (the last line read to write it), in order."""

    game: str
    lines: tuple[Line, ...]
    sources: tuple[int, ...]

    @property
    def complete(self) -> bool:
        """Whether the record ends with its result line (a record cut short does not)."""
        return bool(self.lines) and self.lines[-1].get(KIND) == "result"

    def text(self) -> str:
        """The upgraded record as a file holds it."""
        return "".join(encode_line(line) for line in self.lines)


class UpgradeError(ReplayLineError):
    """A record of a former dialect that does not replay: "Replay 'FILE', line L: REASON."
    (L the file's line). ``reason`` is empty where the former replay named only the line."""

    def __init__(self, path: str, line: int, reason: str = "") -> None:
        super().__init__(path, line, reason or DOES_NOT_MATCH)
        self.path = path
        self.reason = reason

    @property
    def said(self) -> str:
        """The reason as a sentence says it."""
        return (self.reason or DOES_NOT_MATCH).rstrip(".")


class FormerDialect(Protocol):
    """The reader of one game's former record dialect (``GameDescription.former_records``)."""

    def recognizes(self, first: Mapping[str, Any]) -> bool:
        """Whether a record whose first line is ``first`` is of this dialect."""
        ...

    def upgrade(self, path: str, lines: Sequence[str]) -> Upgraded:
        """The record ``lines`` (of the file ``path``) in the one format, checked by playing it
        again; raises :class:`UpgradeError` at the first line that does not fit."""
        ...


def _dialects() -> Iterator[tuple[str, FormerDialect]]:
    from cardtable.engine.game_registry import descriptions
    from cardtable.engine.import_path import imported

    for described in descriptions():
        if described.former_records is not None:
            yield described.name, imported(described.former_records)


def is_current(first: Mapping[str, Any]) -> bool:
    """Whether ``first`` is the header of a record of the one format."""
    version = first.get("format")
    return (first.get(KIND) == "header" and isinstance(version, int)
            and not isinstance(version, bool) and version == FORMAT)


def dialect_of(lines: Sequence[str]) -> tuple[str, FormerDialect] | None:
    """The game and the reader of the former dialect ``lines`` are written in, or None (a
    record of the one format, or no record at all)."""
    first = first_object(lines)
    if first is None or is_current(first):
        return None
    return next(((game, reader) for game, reader in _dialects() if reader.recognizes(first)),
                None)


def former_game(first: Mapping[str, Any]) -> str | None:
    """The game whose former dialect starts with the line ``first``; None when none does, or
    when the line names another game (``"game"``) than the dialect's."""
    if is_current(first):
        return None
    named = first.get("game")
    for game, reader in _dialects():
        if reader.recognizes(first):
            return game if named is None or named == game else None
    return None


def upgrade(path: str, lines: Sequence[str]) -> Upgraded | None:
    """The record ``lines`` (of the file ``path``) upgraded to the one format, or None when it
    is of no former dialect; raises :class:`UpgradeError` when it does not replay."""
    found = dialect_of(lines)
    if found is None:
        return None
    return found[1].upgrade(path, lines)


def current_lines(path: str, lines: Sequence[str]) -> Sequence[str]:
    """``lines`` in the one format, for a replay: as they are, or upgraded in memory and laid
    out on the file's lines (see :func:`aligned`). Raises :class:`UpgradeError`."""
    upgraded = upgrade(path, lines)
    return lines if upgraded is None else aligned(upgraded, lines)


def aligned(upgraded: Upgraded, lines: Sequence[str]) -> list[str]:
    """The upgraded lines, each on the line of the file it was written from or the first free
    line after it, the last one on the file's last non-blank line or after it, blank lines
    between, the file's length kept: a replay that names where the record ends (its result
    line missing) names the file's line."""
    last = max((number for number, text in enumerate(lines, start=1) if text.strip()),
               default=0)
    places: list[int] = []
    for index, source in enumerate(upgraded.sources):
        place = max(source, places[-1] + 1 if places else 1)
        if index == len(upgraded.sources) - 1:
            place = max(place, last)
        places.append(place)
    out = [""] * max(len(lines), places[-1] if places else 0)
    for place, line in zip(places, upgraded.lines, strict=True):
        out[place - 1] = encode_line(line).rstrip("\n")
    return out
