"""Records games played on the full screen with the same writer as the line mode (§7.3)."""

from __future__ import annotations

import contextlib

from cardtable.engine.record import RecordWriter
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.record import GameRecorder
from cardtable.games.caravan.state import CaravanState


class CaravanRecord:
    """One record file of a full-screen game: its ``recorder`` listens to the match loop
    (header and chance lines at the start, a line per action); :meth:`finish` writes the
    result line, or the ``abandoned`` one for a game left unfinished, and closes the file."""

    def __init__(self, path: str, game: CaravanState, players: tuple[str, str],
                 sources: tuple[str, str] = ("random", "random")) -> None:
        self.writer = RecordWriter(path)
        self.recorder = GameRecorder(self.writer, path,
                                     {SEATS[seat]: players[seat] for seat in (0, 1)}, sources)
        self.recorder.start(game)
        self.closed = False

    def finish(self, game: CaravanState) -> None:
        result = game.result
        if self.closed or result is None:
            return
        if result.reason == "quit":
            self.recorder.abandon(game, str(result.details.get("cause", "quit")))
        else:
            self.recorder.on_end(game, result)
        with contextlib.suppress(OSError):
            self.writer.close()
        self.closed = True
