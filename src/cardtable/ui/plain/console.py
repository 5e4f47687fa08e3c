"""Line input and output shared by every game's plain line mode."""

from __future__ import annotations

import io
import sys
from typing import TextIO


class EndOfInput(Exception):
    """Standard input ended while a line was awaited."""


class Console:
    """Prints lines and reads answers. Output is flushed at once so that pipes see it.

    Standard input is read as bytes and each line decoded on its own, bad bytes replaced:
    a line that is not valid text is an answer like any other (and gets refused), where a
    text stream would raise and lose the lines it had buffered. A closed standard input
    (``<&-``) reads as an immediate end of input.
    """

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin: TextIO = stdin if stdin is not None else _standard_input()
        self.stdout = stdout if stdout is not None else sys.stdout
        binary = getattr(self.stdin, "buffer", None)
        self._bytes = binary if isinstance(binary, io.BufferedIOBase) else None
        self._encoding = getattr(self.stdin, "encoding", None) or "utf-8"

    def say(self, text: str = "") -> None:
        self._write(text + "\n")
        self.stdout.flush()

    def _write(self, text: str) -> None:
        try:
            self.stdout.write(text)
        except UnicodeEncodeError:
            # An echoed answer the output's encoding cannot show (a replaced byte on an
            # ASCII terminal, say) is written with that encoding's replacement character.
            encoding = getattr(self.stdout, "encoding", None) or "ascii"
            self.stdout.write(text.encode(encoding, "replace").decode(encoding))

    def _readline(self) -> str:
        if self._bytes is not None:
            return self._bytes.readline().decode(self._encoding, "replace")
        try:
            return self.stdin.readline()
        except (UnicodeDecodeError, ValueError):
            return ""

    def ask(self, prompt: str) -> str:
        """Print ``prompt`` without a newline and return the next line without its line end.

        Raises :class:`EndOfInput` at end of input. A prompt that got no line is
        closed with a newline, so that what follows starts on a line of its own.
        """
        self._write(prompt)
        self.stdout.flush()
        try:
            line = self._readline()
        except (OSError, ValueError):
            # A standard input that cannot be read (a closed descriptor) has ended.
            line = ""
        if not line:
            self.stdout.write("\n")
            self.stdout.flush()
            raise EndOfInput
        return line.rstrip("\r\n")


def _standard_input() -> TextIO:
    """``sys.stdin``, or an empty stream when the program started with it closed."""
    return sys.stdin if sys.stdin is not None else io.StringIO()
