"""Line input and output shared by every game's plain line mode."""

from __future__ import annotations

import sys
from typing import TextIO


class EndOfInput(Exception):
    """Standard input ended while a line was awaited."""


class Console:
    """Prints lines and reads answers. Output is flushed at once so that pipes see it."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """Print ``prompt`` without a newline and return the next line without its line end.

        Raises :class:`EndOfInput` at end of input. A prompt that got no line is
        closed with a newline, so that what follows starts on a line of its own.
        """
        self.stdout.write(prompt)
        self.stdout.flush()
        try:
            line = self.stdin.readline()
        except (UnicodeDecodeError, ValueError):
            line = ""
        if not line:
            self.stdout.write("\n")
            self.stdout.flush()
            raise EndOfInput
        return line.rstrip("\r\n")
