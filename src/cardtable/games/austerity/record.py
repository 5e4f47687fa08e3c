"""``austerity --record FILE``: the hub's conversation as JSON Lines, flushed line by line.

Each line is one compact object whose ``ev`` key says what happened (``start``, ``send``,
``recv``, ``out``, ``timeout``, ``end``). Messages are stored without their ``\\n``; bytes
received from players are decoded as Latin-1 so that any garbage survives the round trip.
"""

import io

RECORD_VERSION = 1


class Recorder:
    """Writes one record file. Opening a path that cannot be created raises ``OSError``."""

    def __init__(self, path: str) -> None:
        # json (with re and enum behind it) is loaded only when a record is asked for: the
        # hub without --record starts faster.
        import json

        self._dumps = json.dumps
        self._stream: io.TextIOWrapper | None = open(path, "w", encoding="utf-8")  # noqa: SIM115

    def write(self, ev: str, **fields: object) -> None:
        if self._stream is None:
            return
        try:
            self._stream.write(self._dumps({"ev": ev, **fields}, separators=(",", ":")) + "\n")
            self._stream.flush()
        except (OSError, ValueError):
            # A full disk must not change how the game ends: stop recording instead.
            self._stream = None

    def close(self) -> None:
        if self._stream is not None:
            try:  # noqa: SIM105 (contextlib would slow the start)
                self._stream.close()
            except OSError:
                pass
            self._stream = None


def message_text(data: bytes) -> str:
    """A protocol line for the record: without its ``\\n``, any byte kept (Latin-1)."""
    return data.rstrip(b"\n").decode("latin-1")
