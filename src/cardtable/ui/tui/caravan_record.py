"""Writes a Caravan game record (specification §7.3) for games played on the full screen."""

from __future__ import annotations

from cardtable import __version__
from cardtable.engine.record import RecordWriter
from cardtable.games.caravan.cards import SEATS, identity
from cardtable.games.caravan.events import MoveEvent
from cardtable.games.caravan.rules_assembly import rules_to_json
from cardtable.games.caravan.state import Game


class CaravanRecord:
    """One record file: header, decks and mulligans at once, then a line per move, the result."""

    def __init__(self, path: str, game: Game, players: tuple[str, str]) -> None:
        self.writer = RecordWriter(path)
        self.writer.write({
            "type": "header", "game": "caravan", "format": 1, "version": __version__,
            "seed": game.seed, "first": SEATS[game.first],
            "rules": {SEATS[i]: rules_to_json(game.rules[i]) for i in (0, 1)},
            "players": {SEATS[i]: players[i] for i in (0, 1)},
        })
        for seat in (0, 1):
            self.writer.write({"type": "deck", "seat": SEATS[seat],
                               "cards": [identity(card) for card in game.initial_decks[seat]]})
        for seat, shown, deck in game.mulligans:
            self.writer.write({"type": "mulligan", "seat": SEATS[seat],
                               "hand": [identity(card) for card in shown],
                               "deck": [identity(card) for card in deck]})
        self.closed = False

    def move(self, game: Game, event: MoveEvent) -> None:
        self.writer.write({
            "type": "move", "ply": game.plies, "move": str(event.move),
            "card": None if event.card is None else identity(event.card),
            "target": None if event.target is None else identity(event.target),
        })
        for seat, deck in event.shuffles:
            self.writer.write({"type": "shuffle", "seat": SEATS[seat],
                               "deck": [identity(card) for card in deck]})

    def finish(self, game: Game) -> None:
        if self.closed or game.result is None:
            return
        result = game.result
        self.writer.write({
            "type": "result", "winner": result.winners[0] if result.winners else None,
            "reason": result.reason, "lanes": list(result.details.get("lanes", [])),
            "plies": game.plies,
        })
        self.writer.close()
        self.closed = True
