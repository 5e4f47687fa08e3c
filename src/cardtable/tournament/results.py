"""The results file: a header line naming the configuration, then one JSON line per game.

Each line is written whole and flushed, so an interrupted run leaves complete games and at
worst one cut line at the end, which the next run removes before it appends. Only a file that
is recognisably a results file is ever appended to or trimmed: its first line is a header
(``tournament.lines``), every other complete line a game of the same tournament, and a last
line without its line break the start of a game line; anything else is refused, unchanged.
A file whose header names another configuration is refused: its games are not the games of
this one. The file is read with a size limit, and only when it is a regular file.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from cardtable.engine.bounded_read import MEBIBYTE, FileTooLarge, read_bounded_lines
from cardtable.engine.one_line import one_line
from cardtable.engine.record_target import reads_record, special_kind
from cardtable.tournament.errors import TournamentError
from cardtable.tournament.schedule import Config

GameKey = tuple[tuple[str, ...], int]

MAX_LINE_BYTES = MEBIBYTE
MAX_FILE_BYTES = 256 * MEBIBYTE
"""The limits of a results file read back: 1 MiB a line (as a record's), 256 MiB in all (about
800,000 games at some 300 bytes a line)."""


@dataclass
class Existing:
    """What a results file already holds: its games by key, and where complete lines end."""

    games: dict[GameKey, dict[str, Any]]
    size: int
    fresh: bool


def key_of(line: dict[str, Any]) -> GameKey:
    return (tuple(line["seats"]), int(line["deal"]))


def _different(header: dict[str, Any], config: Config) -> str | None:
    """How the file's header differs from ``config`` (None when it does not)."""
    wanted = config.header()
    for name in ("game", "params", "players", "seats", "gauntlet", "seed"):
        if header.get(name) != wanted[name]:
            return name
    return None


def _cannot_run(message: str) -> TournamentError:
    return TournamentError(message, TournamentError.CANNOT_RUN)


def read(path: Path, config: Config) -> Existing:
    """The games already in ``path`` (none when it does not exist or is empty), every line
    checked before anything is played or written."""
    from cardtable.tournament import lines

    shown = one_line(str(path))
    kind = special_kind(path)
    if kind is not None:
        raise _cannot_run(f"Cannot read results file '{shown}': it is {kind}, not a regular "
                          "file.")
    try:
        data = read_bounded_lines(path, MAX_LINE_BYTES, MAX_FILE_BYTES)
    except FileNotFoundError:
        return Existing({}, 0, True)
    except FileTooLarge as error:
        raise _cannot_run(f"Cannot read results file '{shown}': {error.reason}.") from None
    except OSError as error:
        raise _cannot_run(f"Cannot read results file '{shown}': {error.strerror}.") from None
    if not data:
        return Existing({}, 0, True)
    end = data.rfind(b"\n") + 1  # a last line without its line break was cut by a stop
    complete = data[:end].split(b"\n")[:-1]
    if not complete:  # not even a whole header: nothing this command wrote
        raise _cannot_run(f"'{shown}' is not a tournament results file.")
    try:
        header = lines.header(complete[0])
    except lines.BadLine as error:
        if error.field in ("", "tournament"):  # not even a header's beginning
            raise _cannot_run(f"'{shown}' is not a tournament results file.") from None
        raise _cannot_run(f"'{shown}', line 1: not a tournament header "
                          f"({one_line(error.reason)}).") from None
    differs = _different(header.model_dump(), config)
    if differs is not None:
        raise _cannot_run(f"'{shown}' holds a tournament with {_WHAT[differs]}; give another "
                          "--out file (or the same options again to resume it).")
    games: dict[GameKey, dict[str, Any]] = {}
    for number, raw in enumerate(complete[1:], start=2):
        try:
            line = lines.game(raw, config)
        except lines.BadLine as error:
            raise _cannot_run(f"'{shown}', line {number}: not a game result "
                              f"({one_line(error.reason)}).") from None
        games[key_of(line)] = line
    cut = data[end:]
    if cut and not lines.GAME_START.startswith(cut[:len(lines.GAME_START)]):
        raise _cannot_run(f"'{shown}', line {len(complete) + 1}: not a game result (a last "
                          "line without its line break that no stop could have cut).")
    return Existing(games, end, False)


_WHAT = {
    "game": "another game",
    "params": "other rules",
    "players": "another number of players",
    "seats": "other seats",
    "gauntlet": "another gauntlet",
    "seed": "another seed",
}


class Writer:
    """Appends game lines to a results file (after its header, written first if new)."""

    def __init__(self, path: Path, config: Config, existing: Existing) -> None:
        self.path = path
        shown = one_line(str(path))
        try:
            handle: IO[str] = open(  # noqa: SIM115 (kept open while games are written)
                path, "r+" if path.exists() else "w", encoding="utf-8")
        except OSError as error:
            raise TournamentError(f"Cannot write results file '{shown}': {error.strerror}.",
                                  TournamentError.CANNOT_RUN) from None
        self.handle = handle
        self.shown = shown
        try:
            handle.seek(existing.size)
            handle.truncate()
            if existing.fresh:
                self._write(config.header())
        except OSError as error:
            handle.close()
            raise TournamentError(f"Cannot write results file '{shown}': {error.strerror}.",
                                  TournamentError.CANNOT_RUN) from None

    def _write(self, line: dict[str, Any]) -> None:
        self.handle.write(json.dumps(line, separators=(",", ":")) + "\n")
        self.handle.flush()

    def append(self, line: dict[str, Any]) -> None:
        try:
            self._write(line)
        except OSError as error:
            raise TournamentError(f"Cannot write results file '{self.shown}': {error.strerror}.",
                                  TournamentError.CANNOT_RUN) from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.handle.close()


def check_writable(path: Path, what: str = "results file",
                   others: Iterable[tuple[str, str | Path | None]] = ()) -> None:
    """Refuse early an ``--out`` (or ``--plot``) that cannot be written: a directory, a named
    pipe, a device or anything else that is not a regular file (nothing is opened), a path
    that is one of ``others`` (the command's other files, as ``(name, path)`` pairs, through
    links too), no such folder, no permission."""
    shown = one_line(str(path))
    kind = special_kind(path)
    if kind == "a directory":
        raise _cannot_run(f"Cannot write {what} '{shown}': it is a directory.")
    if kind is not None:
        raise _cannot_run(f"Cannot write {what} '{shown}': it is {kind}, not a regular file.")
    name = reads_record(path, others)
    if name is not None:
        raise _cannot_run(f"Cannot write {what} '{shown}': it is {name}; give another file.")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise _cannot_run(f"Cannot write {what} '{shown}': no folder '{one_line(str(folder))}'.")
    if (path.exists() and not os.access(path, os.W_OK)) or \
            (not path.exists() and not os.access(folder, os.W_OK)):
        raise _cannot_run(f"Cannot write {what} '{shown}': permission denied.")
