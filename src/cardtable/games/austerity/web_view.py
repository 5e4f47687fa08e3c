"""Austerity as a web page draws it: the views, a table's record and a record's replay steps.

Austerity hides nothing but the deck's order: a seat's view is the public one (the game's own
observation JSON, :mod:`observation_json`) with the seat's letter; the game's name and seats
are added for the page.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple

from cardtable.engine.match import MatchAbandoned, MatchListener
from cardtable.engine.protocol import GameState, Result

Json = dict[str, Any]


HISTORY_SHOWN = 12
"""How many of the latest moves a view puts in words."""


def austerity_view(obs: Any, public: bool = False, moves: Sequence[Move] = ()) -> Json:
    """``moves``: the game's moves so far (:class:`FollowedState` keeps them), of which the
    view puts the latest in words."""
    from cardtable.games.austerity.observation_json import observation_json, public_json

    view = (public_json if public else observation_json)(obs)
    view.update(game="austerity", seats=[player["seat"] for player in view["players"]])
    viewer = None if public else view["seat"]
    latest = moves[-HISTORY_SHOWN:]
    view["history_text"] = [move_words(move, viewer) for move in latest]
    view["last_move"] = None if not latest else {
        "seat": _letter(latest[-1].seat), "text": view["history_text"][-1], "cards": [],
        "market": latest[-1].turned_up}
    return view


def seat_view(state: Any, seat: str) -> Json:
    return austerity_view(state.observation(seat), moves=getattr(state, "moves", ()))


def public_view(state: Any) -> Json:
    return austerity_view(state.observation(state.seats[0]), public=True,
                          moves=getattr(state, "moves", ()))


class Move(NamedTuple):
    """A move as the table saw it: the seat (0-based), the action, the card bought (None for a
    take) and the market position of the card turned up in its place (None when none was)."""

    seat: int
    action: tuple[int, int, tuple[int, ...]]
    bought: Any
    turned_up: int | None


def _letter(seat: int) -> str:
    from cardtable.games.austerity.rules import letter

    return letter(seat)


def _colour_list(names: list[str]) -> str:
    """"a, b and c"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def move_words(move: Move, viewer: str | None) -> str:
    """A move in words, as ``viewer`` (a seat letter, or None for anyone) reads it: "A took
    Purple, Brown and Yellow", "You took a wild", "B bought a 3-point Red card for 2 Purple
    and 1 wild"."""
    from cardtable.games.austerity.rules import PURCHASE, TAKE
    from cardtable.games.austerity.state import COLOUR_NAMES

    seat = _letter(move.seat)
    who = "You" if seat == viewer else seat
    kind, _index, values = move.action
    if kind == TAKE:
        taken = [COLOUR_NAMES[colour] for colour, count in enumerate(values) if count]
        return f"{who} took {_colour_list(taken)}"
    if kind == PURCHASE and move.bought is not None:
        card = move.bought
        names = [*COLOUR_NAMES, "wild"]
        paid = [f"{count} {names[colour]}" for colour, count in enumerate(values) if count]
        price = _colour_list(paid) if paid else "nothing"
        points = f"{card.value}-point" if card.value != 1 else "1-point"
        return f"{who} bought a {points} {COLOUR_NAMES[card.colour]} card for {price}"
    return f"{who} took a wild"


def followed_state(state: Any) -> Any:
    """``state`` (an :class:`AusterityState` at the deal) as a :class:`FollowedState`, which
    keeps its moves for the views' words."""
    from cardtable.games.austerity.state import AusterityState

    cls: Any = _followed_class()
    followed = cls.__new__(cls)
    for name in AusterityState.__slots__:
        object.__setattr__(followed, name, getattr(state, name))
    followed.moves = []
    return followed


@functools.cache
def _followed_class() -> type[Any]:
    """:class:`AusterityState` that keeps its moves (made on first use: the state's module is
    imported only when a table needs it)."""
    from cardtable.games.austerity.rules import PURCHASE
    from cardtable.games.austerity.state import AusterityState

    class FollowedState(AusterityState):
        """An Austerity state that remembers each move (:class:`Move`) it applied, so a table
        can say what happened; everything else is the state's own (a clone is a plain
        state, as the bots need nothing more)."""

        __slots__ = ("moves",)
        moves: list[Move]

        def apply(self, action: Any) -> Any:
            seat = self.game.current
            kind, index, _values = action
            market = self.game.table.market
            bought = market[index] if kind == PURCHASE and 0 <= index < len(market) else None
            drawn = super().apply(action)
            turned_up = len(self.game.table.market) - 1 if drawn is not None else None
            self.moves.append(Move(seat, action, bought, turned_up))
            return drawn

    return FollowedState


def replay_views(record: str) -> tuple[list[Json], list[Json], Result | None]:
    """The record checked by the Austerity replay's own reader (``replay_hub_record``), then
    replayed; each step the public view (nothing else is hidden)."""
    from cardtable.games.austerity.record import read_hub_record, replay_hub_record
    from cardtable.games.austerity.state import AusterityState

    read = read_hub_record("record", record.splitlines())
    replay_hub_record(read)  # every line checked, as for the other games
    state = followed_state(AusterityState(list(read.deck), read.tokens, read.points,
                                          len(read.players)))
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

