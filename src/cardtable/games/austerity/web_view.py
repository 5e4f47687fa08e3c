"""Austerity as a web page draws it: the views, a table's record and a record's replay steps.

Austerity hides nothing but the deck's order: a seat's view is the public one (the game's own
observation JSON, :mod:`observation_json`) with the seat's letter; the game's name and seats
are added for the page.
"""

from __future__ import annotations

from typing import Any

from cardtable.engine.match import MatchAbandoned, MatchListener
from cardtable.engine.protocol import GameState, Result

Json = dict[str, Any]


def austerity_view(obs: Any, public: bool = False) -> Json:
    from cardtable.games.austerity.observation_json import observation_json, public_json

    view = (public_json if public else observation_json)(obs)
    view.update(game="austerity", seats=[player["seat"] for player in view["players"]])
    return view


def seat_view(state: Any, seat: str) -> Json:
    return austerity_view(state.observation(seat))


def public_view(state: Any) -> Json:
    return austerity_view(state.observation(state.seats[0]), public=True)


def replay_views(record: str) -> tuple[list[Json], list[Json], Result | None]:
    """The record checked by the Austerity replay's own reader (``replay_hub_record``), then
    replayed; each step the public view (nothing else is hidden)."""
    from cardtable.games.austerity.record import read_hub_record, replay_hub_record
    from cardtable.games.austerity.state import AusterityState

    read = read_hub_record("record", record.splitlines())
    replay_hub_record(read)  # every line checked, as for the other games
    state = AusterityState(list(read.deck), read.tokens, read.points, len(read.players))
    frames, moves = [public_view(state)], []
    for _line, seat, action in read.actions:
        moves.append({"seat": seat, "move": action})
        state.apply(state.parse_action(action))
        frames.append(public_view(state))
    return frames, moves, state.result


class TableRecorder(MatchListener):
    """Writes a web table's game as ``austerity --record`` does (header, deck, actions,
    result), which ``read_hub_record`` and ``replay_hub_record`` read back."""

    def __init__(self, state: Any, writer: Any, players: list[str]) -> None:
        from cardtable.games.austerity.record import start_lines

        self.write = writer.write
        deck, tokens, points, _count = state.setup
        for line in start_lines({"tokens": tokens, "points": points, "players": players,
                                 "deck": [card.text() for card in deck]}):
            self.write(line)

    def on_action(self, state: Any, seat: str, action: Any, event: Any) -> None:
        from cardtable.engine.record import action_line

        # An action's text does not depend on the state: after the move it is the same.
        self.write(action_line(seat, state.action_text(action)))

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        from cardtable.engine.record import result_line

        self.write(result_line(result.winners, result.reason, result.reason, result.details))

    def on_abandon(self, state: GameState[Any, Any], abandoned: MatchAbandoned) -> None:
        from cardtable.engine.record import ABANDONED, result_line

        self.write(result_line((), ABANDONED, abandoned.cause, {}))

