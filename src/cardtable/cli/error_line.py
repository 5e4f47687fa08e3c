"""The one place each program's error lines take their form: ``PROGRAM: message``.

Messages are written without the program's name; the entry point adds it when printing, and
writes any line break or control character of an echoed value as an escape, so that every
error stays one line.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from cardtable.engine.one_line import one_line


def error_line(program: str, message: str) -> str:
    return f"{program}: {one_line(message)}"


def print_error(program: str, message: str) -> None:
    """Write ``PROGRAM: message`` on standard error (nothing when it is closed)."""
    if sys.stderr is not None:
        print(error_line(program, message), file=sys.stderr)


class OneLineArgumentParser(argparse.ArgumentParser):
    """An argument parser whose syntax errors are one error line and status 1 (argparse
    prints its whole usage block and exits with 2)."""

    def error(self, message: str) -> NoReturn:
        print_error(self.prog, message)
        self.exit(1)
