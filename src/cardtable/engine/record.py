"""Game records as JSON Lines: one object per line, UTF-8, flushed after every line.

The first line is a header naming the game and the record format; the lines after
it are game-specific events. Replay is done by each game from these lines.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from cardtable.engine.bounded_read import MEBIBYTE, read_bounded_lines
from cardtable.engine.errors import RecordError

RECORD_FORMAT = 1
# A record line holds one event (the header with its rules and decks is the longest); a whole
# record is a few hundred lines. These limits only stop files that never end.
MAX_RECORD_LINE_BYTES = MEBIBYTE
MAX_RECORD_BYTES = 64 * MEBIBYTE


def encode_line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


class RecordWriter:
    """Writes one record. Opening a path that cannot be written raises ``OSError``."""

    def __init__(self, target: str | Path | IO[str]) -> None:
        if isinstance(target, str | Path):
            self._stream: IO[str] = open(target, "w", encoding="utf-8")  # noqa: SIM115
            self._owns = True
        else:
            self._stream = target
            self._owns = False

    def write(self, obj: dict[str, Any]) -> None:
        self._stream.write(encode_line(obj))
        self._stream.flush()

    def close(self) -> None:
        if self._owns and not self._stream.closed:
            # After a failed write the buffer cannot be flushed either; that failure was
            # already reported, so closing stays quiet.
            with contextlib.suppress(OSError):
                self._stream.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


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

