"""Reading files that come from outside with a size limit.

A path such as ``/dev/zero`` or a named pipe never ends: reading it whole would grow memory
without bound. Every file the programs read as a whole (decks, rules files, records) is read
through these functions with a limit of its own, named beside the reader.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import BinaryIO

MEBIBYTE = 1 << 20


class FileTooLarge(Exception):
    """A file, or one line of it, is longer than its limit of ``limit`` bytes."""

    def __init__(self, limit: int, line: int = 0) -> None:
        super().__init__(limit, line)
        self.limit = limit
        self.line = line

    @property
    def reason(self) -> str:
        """"the file is larger than 1 MiB" or "line 3 is longer than 1 MiB"."""
        size = describe_size(self.limit)
        if self.line:
            return f"line {self.line} is longer than {size}"
        return f"the file is larger than {size}"


def describe_size(limit: int) -> str:
    """``1 MiB``, ``64 MiB``, ``512 KiB`` or ``100 bytes``."""
    if limit % MEBIBYTE == 0:
        return f"{limit // MEBIBYTE} MiB"
    if limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit} bytes"


def _open(path: str | Path) -> BinaryIO:
    """``open(path, "rb")``; a path with a NUL byte names no file (``OSError``, not the
    ``ValueError`` of ``open``)."""
    try:
        return open(path, "rb")
    except ValueError:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path)) from None


def read_bounded(path: str | Path, limit: int) -> bytes:
    """The bytes of ``path``; :class:`FileTooLarge` when it holds more than ``limit`` bytes.

    ``OSError`` passes through.
    """
    with _open(path) as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(limit)
    return data


def read_bounded_lines(path: str | Path, line_limit: int, total_limit: int) -> bytes:
    """The bytes of ``path``, read line by line so that one endless line is caught early:
    :class:`FileTooLarge` names the first line longer than ``line_limit`` bytes (its
    ``\\n`` not counted), or the file when it holds more than ``total_limit`` bytes."""
    chunks: list[bytes] = []
    total = 0
    with _open(path) as stream:
        number = 0
        while True:
            line = stream.readline(line_limit + 2)
            if not line:
                break
            number += 1
            if len(line.rstrip(b"\n")) > line_limit:
                raise FileTooLarge(line_limit, number)
            total += len(line)
            if total > total_limit:
                raise FileTooLarge(total_limit)
            chunks.append(line)
    return b"".join(chunks)
