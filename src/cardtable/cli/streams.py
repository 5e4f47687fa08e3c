"""Standard streams at the edges of the command-line programs."""

from __future__ import annotations

import os
import sys


def silence_stdout() -> None:
    """Point standard output at the null device once its reader has gone away (output piped
    into ``head``, say), so that the flush at exit raises no second ``BrokenPipeError``."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
