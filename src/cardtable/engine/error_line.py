"""Error lines at the command line: ``PROGRAM: message`` (formed in
:mod:`cardtable.engine.one_line`).

Messages are written without the program's name; the entry point adds it when printing, and
writes any line break or control character of an echoed value as an escape, so that every
error stays one line.
"""

from __future__ import annotations

import argparse
from typing import NoReturn

from cardtable.engine.one_line import error_line, print_error

__all__ = ["OneLineArgumentParser", "error_line", "print_error"]


class OneLineArgumentParser(argparse.ArgumentParser):
    """An argument parser whose syntax errors are one error line and status 1 (argparse
    prints its whole usage block and exits with 2)."""

    def error(self, message: str) -> NoReturn:
        print_error(self.prog, message)
        self.exit(1)
