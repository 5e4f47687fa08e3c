"""Echoing outside text (option values, file contents) inside a one-line message, and the one
form of every program's error lines: ``PROGRAM: message``."""

from __future__ import annotations

import re
import sys

# C0 and C1 control characters, DEL and the Unicode line and paragraph separators: anything
# that would break a message over several lines or move the cursor.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def one_line(text: str) -> str:
    """``text`` with every line break and control character written as its Python escape
    (``\\n``, ``\\t``, ``\\x1b``), so a multi-line value stays on the message's one line."""
    return _UNPRINTABLE.sub(_escape, text)


def shortened(text: str, limit: int) -> str:
    """``text`` cut to its first ``limit`` characters, with ``...`` after them, when it is
    longer: an echoed value never makes a message long."""
    return text if len(text) <= limit else text[:limit] + "..."


def error_line(program: str, message: str) -> str:
    """``PROGRAM: message``, the message kept on one line."""
    return f"{program}: {one_line(message)}"


def print_error(program: str, message: str) -> None:
    """Write ``PROGRAM: message`` on standard error (nothing when it is closed)."""
    if sys.stderr is not None:
        print(error_line(program, message), file=sys.stderr)
