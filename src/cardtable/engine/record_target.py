"""Whether a record may be written to a path: never onto a file the same command reads, and
never over an existing record unless asked to.

Both command-line games call :func:`check_record_target` before anything is opened for
writing; the full-screen launcher calls :func:`reads_record` and :func:`would_overwrite`
and asks the player instead of refusing.
"""

from __future__ import annotations

import os
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
    is replaced only with ``overwrite`` (the ``--overwrite`` option).
    """
    name = reads_record(path, reads)
    if name is not None:
        return f"Record file '{path}' is {name}; record to another file."
    if not overwrite and would_overwrite(path):
        return f"Record file '{path}' already exists; add {OVERWRITE_OPTION} to replace it."
    return None
