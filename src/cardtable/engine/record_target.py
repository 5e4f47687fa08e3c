"""Whether a record may be written to a path: never onto a file the same command reads, never
into a named pipe (opening one for writing waits for a reader), and never over an existing
record unless asked to.

Both command-line games call :func:`check_record_target` before anything is opened for
writing; the full-screen launcher calls :func:`reads_record` and :func:`would_overwrite`
and asks the player instead of refusing. ``cardtable tournament`` checks its ``--out`` and
``--plot`` files with :func:`reads_record` and :func:`special_kind` too.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

OVERWRITE_OPTION = "--overwrite"


def same_file(first: str | Path, second: str | Path) -> bool:
    """Whether two paths name one file: through symbolic links and hard links when both
    exist, by their resolved paths otherwise."""
    try:
        return os.path.samefile(first, second)
    except (OSError, ValueError):
        pass
    try:
        return os.path.realpath(first) == os.path.realpath(second)
    except (OSError, ValueError):
        return False


def reads_record(path: str | Path, reads: Iterable[tuple[str, str | Path | None]]) -> str | None:
    """What the first input whose file is ``path`` is called, or None; ``reads`` are
    ``(name, path)`` pairs such as ``("the --replay file", R)``."""
    for name, read in reads:
        if read is not None and same_file(path, read):
            return name
    return None


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"))


def special_kind(path: str | Path) -> str | None:
    """What ``path`` is when it is there and is not a regular file (through symbolic links):
    "a directory", "a named pipe", "a socket", "a character device" or "a block device";
    None for a regular file or for nothing there. Nothing is opened: opening a named pipe
    blocks until its other end is opened."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def would_overwrite(path: str | Path) -> bool:
    """Whether writing a record to ``path`` would replace something: an existing regular
    file that is not empty (devices, pipes and empty files lose nothing)."""
    try:
        return os.path.isfile(path) and os.path.getsize(path) > 0
    except (OSError, ValueError):
        return False


def check_record_target(path: str | Path, reads: Iterable[tuple[str, str | Path | None]],
                        overwrite: bool) -> str | None:
    """The one-line refusal for recording to ``path``, or None when the record may go there.

    ``reads`` are the files the same command reads, as ``(name, path)`` pairs (the name as
    in "the --deck file"); recording onto one of them is always refused. An existing record
    is replaced only with ``overwrite`` (the ``--overwrite`` option). A named pipe or a socket
    is refused without being opened (a program waiting at its other end would be left
    waiting, and no reader means waiting for ever); devices such as ``/dev/null`` are not.
    """
    name = reads_record(path, reads)
    if name is not None:
        return f"Record file '{path}' is {name}; record to another file."
    kind = special_kind(path)
    if kind in ("a named pipe", "a socket"):
        return f"Record file '{path}' is {kind}; record to a regular file."
    if not overwrite and would_overwrite(path):
        return f"Record file '{path}' already exists; add {OVERWRITE_OPTION} to replace it."
    return None
