"""The lines of a game record, below every reader and writer of records.

What both :mod:`cardtable.engine.record` (the one format's writers and reader) and
:mod:`cardtable.engine.record_upgrade` (the former dialects' upgrade) build on: the format's
number, the key naming a line's kind, how one line is written, the record's first object, and
the error naming the line of a record that does not replay. ``cardtable.engine.record`` gives
each of them under its own name too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardtable.engine.errors import RecordError

FORMAT = 2
"""The one record format every game writes (format 1 was each game's own dialect)."""
KIND = "type"
"""The key naming the kind of every line: ``header``, ``chance``, ``action``, ``result``."""

Line = dict[str, Any]


def encode_line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def first_object(lines: Sequence[str]) -> Line | None:
    """The first non-blank line as a JSON object, or None when it is not one."""
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        return None
    try:
        obj = json.loads(first)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def replay_message(path: str | Path, line: int, reason: str) -> str:
    """"Replay 'FILE', line L: REASON." (a reason that has its own final period keeps one)."""
    return f"Replay '{path}', line {line}: {reason.rstrip('.')}."


class ReplayLineError(RecordError):
    """A line of a record that does not replay: "Replay 'FILE', line L: REASON." (``line``
    is L, ``reason`` REASON)."""

    def __init__(self, path: str | Path, line: int, reason: str) -> None:
        super().__init__(replay_message(path, line, reason), line)
        self.reason = reason
