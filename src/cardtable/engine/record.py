"""Game records as JSON Lines: one object per line, UTF-8, flushed after every line.

The first line is a header naming the game and the record format; the lines after
it are game-specific events. Replay is done by each game from these lines.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shlex
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any, BinaryIO

from cardtable.engine.bounded_read import MEBIBYTE, read_bounded_lines
from cardtable.engine.errors import RecordError

RECORD_FORMAT = 1
# A record line holds one event (the header with its rules and decks is the longest); a whole
# record is a few hundred lines. These limits only stop files that never end.
MAX_RECORD_LINE_BYTES = MEBIBYTE
MAX_RECORD_BYTES = 64 * MEBIBYTE


def encode_line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


class RecordWriteError(RecordError):
    """The record file could not be written; the message names the file and the reason."""


def open_error_message(path: str | Path, error: OSError) -> str:
    """"Cannot open record file 'PATH': REASON." for a record file that cannot be created."""
    return f"Cannot open record file '{path}': {error.strerror or error}."


class RecordWriter:
    """Writes one record. Opening a path that cannot be written raises ``OSError``; a line
    that cannot be written (a full disk, a file size limit) raises :class:`RecordWriteError`
    ("Cannot write record file 'PATH': REASON."). The complete lines written before it stay
    in the file (a partly written line is cut off again) and nothing more is written."""

    def __init__(self, target: str | Path | IO[str], name: str | None = None) -> None:
        self._file: BinaryIO | None = None
        self._stream: IO[str] | None = None
        if isinstance(target, str | Path):
            # Unbuffered: each line goes to the file at once, and a failed line leaves no
            # bytes behind in a buffer for a later flush to write.
            self._file = open(target, "wb", buffering=0)  # noqa: SIM115
            self.name = str(target) if name is None else name
        else:
            self._stream = target
            self.name = str(getattr(target, "name", "")) if name is None else name
        self._size = 0
        self._failure: RecordWriteError | None = None

    def write(self, obj: dict[str, Any]) -> None:
        if self._failure is not None:
            raise self._failure
        try:
            if self._file is not None:
                data = memoryview(encode_line(obj).encode("utf-8"))
                end = self._size + len(data)
                while data:
                    written = self._file.write(data)
                    if not written:
                        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                    data = data[written:]
                self._size = end
            else:
                assert self._stream is not None
                self._stream.write(encode_line(obj))
                self._stream.flush()
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            self._failure = RecordWriteError(f"Cannot write record file '{self.name}': {reason}.")
            self._cut_partial_line()
            raise self._failure from error
        except BaseException:
            # Interrupted in the middle of a line (Ctrl-C): the next line starts cleanly.
            self._cut_partial_line()
            raise

    def _cut_partial_line(self) -> None:
        """Cut the file back to its last complete line (a device such as /dev/full cannot
        be cut, and has nothing to cut)."""
        if self._file is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if self._file.tell() > self._size:
                self._file.truncate(self._size)

    def close(self) -> None:
        if self._file is not None and not self._file.closed:
            with contextlib.suppress(OSError):
                self._file.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


# ---------------------------------------------------------------- replay messages

MISSING_RESULT = "missing result line"
"""The reason given for a record that ends before the game did (its program was killed, or
the file was cut short)."""

GAME_TITLES = {"caravan": "Caravan", "obsession": "Obsession", "austerity": "Austerity hub"}
REPLAY_COMMANDS = {"caravan": "caravan --replay", "obsession": "obsession --replay"}


def replay_message(path: str | Path, line: int, reason: str) -> str:
    """"Replay 'FILE', line L: REASON." (a reason that has its own final period keeps one)."""
    return f"Replay '{path}', line {line}: {reason.rstrip('.')}."


def not_finished_message(cause: str) -> str:
    """What a replay says at the end of a record of a game that was left unfinished."""
    return f"The recorded game was not finished ({cause})."


def record_game(lines: Sequence[str]) -> str | None:
    """The game a record belongs to, told by its first non-blank line: the Caravan header
    (``type``/``format``) and the Obsession header (``t``/``v``) both name the game; an
    Austerity hub record starts with ``{"ev":"start", ...}``. None when the line says none."""
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        return None
    try:
        obj = json.loads(first)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    if obj.get("type") == "header" and obj.get("game") == "caravan":
        return "caravan"
    if obj.get("t") == "header" and obj.get("game") == "obsession":
        return "obsession"
    if obj.get("ev") == "start":
        return "austerity"
    return None


def other_game_message(path: str | Path, lines: Sequence[str], game: str) -> str | None:
    """The complaint about a record of another game than ``game`` given to its replay
    (naming the command that replays it), or None when the record may be ``game``'s."""
    found = record_game(lines)
    if found is None or found == game:
        return None
    command = REPLAY_COMMANDS.get(found)
    if command is None:
        return f"Replay '{path}': this is an {GAME_TITLES[found]} record, which cannot be replayed"
    article = "an" if GAME_TITLES[found][0] in "AEIOU" else "a"
    return (f"Replay '{path}': this is {article} {GAME_TITLES[found]} record; "
            f"replay it with: {command} {shlex.quote(str(path))}")


def parse_lines(
    lines: Sequence[str], kind_key: str = "type"
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for every non-blank line; a line that is not a JSON
    object with a string ``kind_key`` (the line's kind) raises ``RecordError``."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            # JSONDecodeError, or an integer of more digits than int() converts.
            raise RecordError("malformed line", number) from None
        if not isinstance(obj, dict) or not isinstance(obj.get(kind_key), str):
            raise RecordError("malformed line", number)
        yield number, obj


def read_lines(path: str | Path) -> list[str]:
    """The lines of a record file; ``OSError`` and ``UnicodeDecodeError`` pass through.

    A line longer than ``MAX_RECORD_LINE_BYTES`` or a file larger than ``MAX_RECORD_BYTES``
    raises :class:`~cardtable.engine.bounded_read.FileTooLarge` (its ``reason`` says which).
    """
    data = read_bounded_lines(path, MAX_RECORD_LINE_BYTES, MAX_RECORD_BYTES)
    return data.decode("utf-8").splitlines()

