"""Caravan for :func:`cardtable.load_game`: the rules of both seats and who moves first.

Parameters are assembled by :mod:`rules_assembly`, the code behind the command line's
``--rules``, ``--rules-file`` and ``--rule``, so a mistake gets the message ``caravan`` prints
(the ``caravan`` command line loads its games here)::

    load_game("caravan", rules="foxon", max_faces=3, **{"abc.hand_size": 6})
    load_game("caravan", abc={"max_faces": 2}, first="DEF")
    load_game("caravan", rule=["max_faces=3", "def.hand_size=6"])
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from cardtable.engine.errors import GameParamsError, UnknownSeat
from cardtable.engine.seats import seat_number
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.errors import RulesError
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.rules_assembly import (
    SEAT_NAMES,
    assemble_rules,
    check_random_decks,
    parse_field_value,
    value_text,
)

if TYPE_CHECKING:
    from cardtable.games.caravan.observation import Observation
    from cardtable.games.caravan.state import CaravanState

NAME = "caravan"


def _override(target: str, value: object) -> str:
    """``target=value`` as ``--rule`` takes it. A name holding ``=`` would be split there, so
    it is refused first as the unknown field it is."""
    text = value_text(value)
    if "=" in target:
        parse_field_value(target.partition(".")[2] or target, text)
    return f"{target}={text}"


def _stuck_plies(value: object) -> int | None:
    """The ``stuck_plies`` parameter: a number of moves (at least 1), or None (``none``)."""
    if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
        return None
    try:
        number = int(str(value).strip()) if not isinstance(value, bool) else 0
    except ValueError:
        number = 0
    if number < 1:
        raise GameParamsError(f"Invalid value '{value_text(value)}' for parameter 'stuck_plies' "
                              "(allowed: integer >= 1 or none).")
    return number


def _seats(value: object) -> tuple[int, ...]:
    """The ``random_decks`` parameter: seat names or indices, as seat indices."""
    if isinstance(value, str) or not isinstance(value, Collection):
        value = (value,)
    try:
        return tuple(sorted({seat_number(seat, SEATS) for seat in value}))
    except UnknownSeat:
        raise GameParamsError("Parameter 'random_decks' must name seats ABC and DEF "
                              "(or the indices 0 and 1).") from None


@dataclass(frozen=True, slots=True)
class CaravanGame:
    """Caravan with fixed rules: ``new_state(seed)`` deals the same game as
    ``caravan --seed SEED`` with the same rules and first seat."""

    rules: SeatRules
    first: int = 0
    name: ClassVar[str] = NAME

    @classmethod
    def load(cls, **params: Any) -> CaravanGame:
        """The game for ``params``: ``rules`` (a preset), ``rules_file``, any rule field for both
        seats, ``abc.FIELD``/``def.FIELD`` (or ``abc={...}``/``def={...}``) for one seat,
        ``rule`` (``[abc.|def.]FIELD=VALUE`` texts as ``caravan --rule`` takes them, applied
        after the fields given by name), ``first`` (``ABC``/``DEF`` or 0/1) and
        ``stuck_plies`` (stop the game, abandoned as a ``stalemate``, once no caravan has
        changed for that many moves; None, the default, never). ``random_decks`` names the
        seats dealt random decks (default both), whose deck size, sample decks and supply are
        checked; a seat given a deck file is not (``caravan`` checks those itself, in the order
        of its other checks). Raises :class:`GameParamsError`."""
        preset = params.pop("rules", None)
        rules_file = params.pop("rules_file", None)
        first = params.pop("first", 0)
        stuck_plies = _stuck_plies(params.pop("stuck_plies", None))
        random_decks = _seats(params.pop("random_decks", SEATS))
        texts = params.pop("rule", ())
        if not isinstance(texts, list | tuple) or not all(isinstance(text, str)
                                                           for text in texts):
            raise GameParamsError("Parameter 'rule' must be a list of FIELD=VALUE texts.")
        overrides: list[str] = []
        try:
            for seat in SEAT_NAMES:
                own = params.pop(seat, None)
                if own is None:
                    continue
                if not isinstance(own, Mapping):
                    raise GameParamsError(
                        f"Parameter '{seat}' must map rule fields to values for seat "
                        f"{seat.upper()}."
                    )
                overrides.extend(_override(f"{seat}.{name}", value) for name, value in own.items())
            # assemble_rules applies shared fields before seat-prefixed ones, in any order.
            overrides.extend(_override(target, value) for target, value in params.items())
            overrides.extend(texts)
            if preset is not None and not isinstance(preset, str):
                preset = str(preset)
            rules = assemble_rules(preset, rules_file, overrides)
        except RulesError as error:
            raise GameParamsError(error.message) from None
        message = check_random_decks(rules, random_decks)
        if message is not None:
            raise GameParamsError(message)
        try:
            first_seat = seat_number(first, SEATS)
        except UnknownSeat:
            raise GameParamsError(
                "First player must be either ABC or DEF (or the index 0 or 1)."
            ) from None
        return cls(replace(rules, stuck_plies=stuck_plies), first_seat)

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    def new_state(self, seed: int | None = None) -> CaravanState:
        """A new game dealt from ``seed`` (a fresh random seed when None)."""
        from cardtable.games.caravan.state import CaravanState

        return CaravanState.new(self.rules, seed, self.first)

    def num_actions(self) -> int:
        """How many action indices the game has (fixed by its rules)."""
        from cardtable.games.caravan.action_index import num_actions

        return num_actions(self.rules)

    def state_from_position(self, text: str) -> CaravanState:
        """The state written as ``text`` by ``state.to_position()``."""
        from cardtable.games.caravan.position import from_position

        return from_position(self.rules, text)


    def sample_world(self, observation: Observation, seed: int) -> CaravanState:
        """A full state agreeing with ``observation`` (which names its seat), the cards it
        does not show drawn from the seats' sample decks (see
        ``cardtable.games.caravan.worlds``)."""
        from cardtable.games.caravan.state import CaravanState
        from cardtable.games.caravan.worlds import sample_world_from_observation

        return sample_world_from_observation(observation, self.rules, self.first, seed,
                                             state_class=CaravanState)


if TYPE_CHECKING:
    from cardtable.engine.protocol import NotatedState
    from cardtable.games.caravan.notation import Move
    from cardtable.games.caravan.observation import Observation

    def _is_a_notated_state(state: CaravanState) -> NotatedState[Move, Observation]:
        return state  # checked by mypy: the state implements the protocol
