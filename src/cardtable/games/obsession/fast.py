"""The compiled core of Obsession behind a Python face; nothing else imports ``_core``.

``FastGame.from_game(game)`` copies an ``ObsessionState`` whose swaps are done (the deal and the
swaps
stay in Python) through the game's one export, ``ObsessionState.export_core()`` (layout in
``core_export``; the core reads nothing else), and plays on in C with the same rules, the
same legal actions in the same order, the same refusals and the same result.
``playout(seed)`` plays the ``random`` policy for every seat to the end with the core's own
generator: the choices are drawn like ``RandomBot``'s (a uniform legal card, the first copies
of its face up to it; a uniform hidden position) but from a different generator, so the games
are not ``RandomBot``'s games. ``playout_obsessed(draws)`` plays the ``obsessed`` policy with
the bots' own generators, so those games are exactly ``ObsessedBot``'s games.

``available()`` tells whether the core is built and allowed (``CARDTABLE_PURE=1`` turns it
off); without it ``FastGame`` cannot be made and callers use ``ObsessionState``.
``sample_world(seat,
seed)`` samples a world of the game as one seat sees it, in C.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from cardtable.engine.compiled import load_core
from cardtable.engine.errors import IllegalAction
from cardtable.engine.protocol import Result
from cardtable.engine.seats import seat_number
from cardtable.games.obsession.actions import Action, Blind, Play, Swap
from cardtable.games.obsession.core_export import CORE_FIELDS
from cardtable.games.obsession.selection import GAME_OVER, INVALID_SELECTION
from cardtable.games.obsession.state import ObsessionState, seat_name

_core: ModuleType | None = load_core("obsession")


def available() -> bool:
    """Whether the compiled core is built and allowed."""
    return _core is not None


def _to_action(choice: tuple[int, ...] | int) -> Action:
    return Blind(choice) if isinstance(choice, int) else Play(choice)


class FastGame:
    """An Obsession game in its play phase, played by the compiled core."""

    __slots__ = ("_state", "rules")

    def __init__(self, state: Any, game: ObsessionState) -> None:
        self._state = state
        self.rules = game.rules

    @classmethod
    def from_game(cls, game: ObsessionState) -> FastGame:
        """A copy of ``game`` after its swaps; raises ValueError in the swap phase or when the
        game does not hold a consistent state, RuntimeError when the core is not available."""
        if _core is None:
            raise RuntimeError("the compiled Obsession core is not built or is switched off")
        return cls(_core.State.from_export(game.export_core()), game)

    def clone(self) -> FastGame:
        other = FastGame.__new__(FastGame)
        other._state = self._state.clone()
        other.rules = self.rules
        return other

    def sample_world(self, seat: str | int, seed: int,
                     lacks: Sequence[Sequence[int]] = ()) -> FastGame:
        """A new game agreeing with everything ``seat`` (``P1``.. or 0..) sees, the cards it
        cannot see dealt again uniformly, under the constraints of ``ObsessionState.sample_world``
        (see
        ``worlds.py``: the cards known to be in a hand stay there, and the faces ``lacks``
        (``Observation.lacks`` of that seat) rules out are kept out of the dealt cards where
        it can be; the C is in ``_worlds.h``):
        the same seed (an int) gives the same world, and the repetition guard's record of
        positions starts afresh. Raises ``UnknownSeat`` for anything else than a seat of the
        game."""
        players = self.rules.players
        if not (type(seat) is int and 0 <= seat < players):  # indices go straight through
            seat = seat_number(seat, [seat_name(index) for index in range(players)])
        other = FastGame.__new__(FastGame)
        other._state = self._state.sample_world(seat, seed, lacks or None)
        other.rules = self.rules
        return other

    # --- play ----------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """As ``Game.legal_actions`` in the play phase: plays, or blind attempts."""
        return [_to_action(choice) for choice in self._state.legal()]

    def legal_keys(self) -> list[int]:
        """The legal decisions as a search's keys, in legal order: ``face * 16 + copies`` for
        a play of that many copies of a face (each number of copies of each legal face: suits
        and decks play alike), 0 for a blind attempt (the hidden cards are alike to everyone).
        A key means the same decision in every world, whatever the copies' decks."""
        keys: list[int] = self._state.legal_keys()
        return keys

    def apply_key(self, key: int) -> None:
        """Apply the decision of a legal key (:meth:`action_of_key`); ValueError for any other
        key."""
        self._state.apply_key(key)

    def action_of_key(self, key: int) -> Action:
        """The action a legal key stands for: the first copies of its face in display order
        (as ``obsessed`` takes them), or the blind attempt at hidden position 1."""
        return _to_action(self._state.choice_of_key(key))

    def legal_plays(self) -> list[tuple[int, ...]]:
        """As ``Game.legal_plays``: every legal set of cards, one per multiset of texts."""
        return [choice for choice in self._state.legal() if not isinstance(choice, int)]

    def is_legal(self, action: Action) -> bool:
        if isinstance(action, Play):
            return bool(self._state.is_legal(action.cards))
        if isinstance(action, Blind):
            return bool(self._state.is_legal(action.index))
        return False

    def apply(self, action: Action) -> None:
        """Apply a decision and every automatic step after it, like ``ObsessionState.apply``.

        An illegal action raises ``IllegalAction`` with the engine's message and changes
        nothing.
        """
        if isinstance(action, Play):
            self._state.apply(action.cards)
        elif isinstance(action, Blind):
            self._state.apply(action.index)
        elif isinstance(action, Swap):
            raise IllegalAction(GAME_OVER if self.over else INVALID_SELECTION)
        else:
            raise TypeError(f"not an Obsession action: {action!r}")

    def playout(self, seed: int, until: int = -1) -> None:
        """Play the ``random`` policy for every seat until the game is over (by placings, or
        as a stalemate at the play cap or by repetition), or until the 0-based seat ``until``
        is to move."""
        self._state.playout(seed, until=until)

    def playout_obsessed(self, draws: Sequence[Callable[[], float]], until: int = -1) -> None:
        """Play the ``obsessed`` policy (``bots.ObsessedBot``) for every seat until the game is
        over, or until the 0-based seat ``until`` is to move. ``draws[seat]()`` gives that
        seat's uniform numbers in [0, 1), one per choice of a face, as the bot's
        ``rng.random`` does: with ``bot_random(seed, seat).random`` these are exactly the games
        of ``ObsessedBot`` seats."""
        self._state.playout_obsessed(draws, until=until)

    def playout_obsessed_actions(self, draws: Sequence[Callable[[], float]]) -> list[Action]:
        """``playout_obsessed``, returning the actions it took."""
        taken = self._state.playout_obsessed(draws, True)
        return [_to_action(choice) for choice in taken or ()]

    def playout_actions(self, seed: int) -> list[Action]:
        """``playout``, returning the actions it took (to replay them elsewhere)."""
        taken = self._state.playout(seed, True)
        return [_to_action(choice) for choice in taken or ()]

    # --- queries -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return bool(self._state.over)

    @property
    def current(self) -> int:
        return int(self._state.current)

    @property
    def plays(self) -> int:
        return int(self._state.plays)

    @property
    def turns(self) -> int:
        return int(self._state.turns)

    @property
    def stalemate(self) -> str | None:
        reason: str | None = self._state.stalemate
        return reason

    @property
    def placings(self) -> tuple[int, ...]:
        return tuple(self._state.placings)

    @property
    def cards_left(self) -> tuple[int, ...]:
        return tuple(self._state.cards_left)

    @property
    def result(self) -> Result | None:
        """As ``Game.result``."""
        state = self._state
        if not state.over:
            return None
        placings = state.placings
        went_out = len(placings) > 0 and state.out[placings[0]]
        winners = (seat_name(placings[0]),) if went_out else ()
        return Result(winners, state.stalemate or "out", {
            "placings": [seat + 1 for seat in placings],
            "stalemate": state.stalemate is not None,
            "plays": state.plays,
            "turns": state.turns,
        })

    def export(self) -> dict[str, Any]:
        """The whole state as plain values, in the shape of ``export_game``."""
        exported: dict[str, Any] = self._state.export()
        return exported


def export_game(game: ObsessionState) -> dict[str, Any]:
    """The state of a Python ``ObsessionState`` in the shape of ``FastGame.export`` (to compare
    them),
    made from ``ObsessionState.export_core()`` like the core's own copy."""
    fields = dict(zip(CORE_FIELDS, game.export_core(), strict=True))
    humans, out = fields["humans"], fields["out"]
    return {
        **{name: fields[name] for name in (
            "players", "phase", "current", "direction", "active", "top_face", "run",
            "remaining")},
        "humans_left": sum(1 for seat, human in enumerate(humans) if human and not out[seat]),
        "plays": fields["plays"], "turns": fields["turns"], "stalemate": fields["stalemate"],
        **{name: tuple(tuple(row) for row in fields[name])
           for name in ("hands", "visible", "hidden", "known")},
        **{name: tuple(fields[name]) for name in ("draw", "pile", "removed", "killed", "out",
                                                  "placings")},
        "seen": dict(fields["seen"]),
    }
