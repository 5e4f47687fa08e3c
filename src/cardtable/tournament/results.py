"""The results file: a header line naming the configuration, then one JSON line per game.

Each line is written whole and flushed, so an interrupted run leaves complete games and at
worst one cut line at the end, which the next run removes before it appends. A file whose
header names another configuration is refused: its games are not the games of this one.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from cardtable.engine.one_line import one_line
from cardtable.tournament.errors import TournamentError
from cardtable.tournament.schedule import Config

GameKey = tuple[tuple[str, ...], int]

_FIELDS = ("seats", "deal", "rotation", "seed", "result", "moves")


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


def read(path: Path, config: Config) -> Existing:
    """The games already in ``path`` (none when it does not exist or is empty)."""
    shown = one_line(str(path))
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Existing({}, 0, True)
    except OSError as error:
        raise TournamentError(f"Cannot read results file '{shown}': {error.strerror}.",
                              TournamentError.CANNOT_RUN) from None
    end = data.rfind(b"\n") + 1  # a last line without its line break was cut by a stop
    lines = data[:end].split(b"\n")[:-1]
    if not lines:
        return Existing({}, 0, True)
    try:
        header = json.loads(lines[0])
        if not isinstance(header, dict) or header.get("tournament") != 1:
            raise ValueError
    except ValueError:
        raise TournamentError(f"'{shown}' is not a tournament results file.",
                              TournamentError.CANNOT_RUN) from None
    differs = _different(header, config)
    if differs is not None:
        raise TournamentError(
            f"'{shown}' holds a tournament with other {_WHAT[differs]}; give another --out "
            "file (or the same options again to resume it).", TournamentError.CANNOT_RUN)
    games: dict[GameKey, dict[str, Any]] = {}
    for number, raw in enumerate(lines[1:], start=2):
        try:
            line = json.loads(raw)
            if not isinstance(line, dict) or any(name not in line for name in _FIELDS):
                raise ValueError
            games[key_of(line)] = line
        except (ValueError, TypeError):
            raise TournamentError(f"'{shown}', line {number}: not a game result.",
                                  TournamentError.CANNOT_RUN) from None
    return Existing(games, end, False)


_WHAT = {
    "game": "a different game",
    "params": "rules",
    "players": "a number of players",
    "seats": "seats",
    "gauntlet": "a gauntlet",
    "seed": "a seed",
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


def check_writable(path: Path, what: str = "results file") -> None:
    """Refuse early an ``--out`` that cannot be written (a directory, no such folder ...)."""
    shown = one_line(str(path))
    if path.is_dir():
        raise TournamentError(f"Cannot write {what} '{shown}': it is a directory.",
                              TournamentError.CANNOT_RUN)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise TournamentError(f"Cannot write {what} '{shown}': no folder "
                              f"'{one_line(str(folder))}'.", TournamentError.CANNOT_RUN)
    if (path.exists() and not os.access(path, os.W_OK)) or \
            (not path.exists() and not os.access(folder, os.W_OK)):
        raise TournamentError(f"Cannot write {what} '{shown}': permission denied.",
                              TournamentError.CANNOT_RUN)
