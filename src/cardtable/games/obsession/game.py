"""Obsession for :func:`cardtable.load_game`: the rules and which seats are human.

Parameters take the command line's option names (``players``, ``run_kill``, ...) and are
checked as ``obsession`` checks them, with the same messages::

    load_game("obsession", players=6, run_kill=3, kill_order="kill-first")
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from cardtable.engine.errors import GameParamsError
from cardtable.games.obsession.rules import KILL_ORDERS, MAX_PLAYERS, MIN_PLAYERS, Rules
from cardtable.games.obsession.state import ObsessionState, seat_name

if TYPE_CHECKING:
    from cardtable.games.obsession.observation import Observation

NAME = "obsession"
PARAMS = ("players", "humans", "run_kill", "kill_order", "max_plays", "repeat_limit")


def integer_option(option: str, value: object, low: int, high: int | None) -> int:
    """``value`` of the option ``option`` (``--players``) as the command line reads it: an
    integer from ``low`` to ``high`` (no bound when None), else :class:`GameParamsError` with
    the command line's message."""
    allowed = f"an integer from {low} to {high}" if high is not None else f"an integer >= {low}"
    text = str(value)
    try:
        number = int(text.strip()) if not isinstance(value, bool) else low - 1
    except ValueError:
        number = low - 1
    if number < low or (high is not None and number > high):
        raise GameParamsError(f"{option} must be {allowed} (got '{text}')")
    return number


def kill_order_option(value: object) -> str:
    """``value`` of ``--kill-order``, else :class:`GameParamsError` with the command line's
    message."""
    if value not in KILL_ORDERS:
        raise GameParamsError(f"--kill-order must be {' or '.join(KILL_ORDERS)} (got '{value}')")
    return str(value)


def _integer(name: str, value: object, low: int, high: int | None) -> int:
    return integer_option("--" + name.replace("_", "-"), value, low, high)


@dataclass(frozen=True, slots=True)
class ObsessionGame:
    """Obsession with fixed rules; ``humans`` counts the human seats (``P1``..), which the
    repetition guard leaves alone. ``new_state(seed)`` deals as ``obsession --seed SEED``."""

    rules: Rules
    humans: int = 0
    name: ClassVar[str] = NAME

    @classmethod
    def load(cls, **params: Any) -> ObsessionGame:
        for name in params:
            if name not in PARAMS:
                raise GameParamsError(
                    f"Unknown parameter '{name}' for obsession (allowed: {', '.join(PARAMS)})."
                )
        players = _integer("players", params.get("players", 4), MIN_PLAYERS, MAX_PLAYERS)
        humans = _integer("humans", params.get("humans", 0), 0, players)
        kill_order = kill_order_option(params.get("kill_order", "effect-first"))
        rules = Rules(
            players=players,
            run_kill=_integer("run_kill", params.get("run_kill", 4), 2, 8),
            kill_order=kill_order,
            max_plays=_integer("max_plays", params.get("max_plays", 5000), 1, None),
            repeat_limit=_integer("repeat_limit", params.get("repeat_limit", 3), 0, None),
        )
        problem = rules.problem()
        if problem is not None:  # not reached: the checks above are stricter
            raise GameParamsError(problem)
        return cls(rules, humans)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(seat_name(seat) for seat in range(self.rules.players))

    def new_state(self, seed: int | str | None = None) -> ObsessionState:
        """A new game dealt from ``seed`` (a fresh random seed when None)."""
        if seed is None:
            from cardtable.engine.randomness import fresh_seed

            seed = fresh_seed()
        humans = [seat < self.humans for seat in range(self.rules.players)]
        return ObsessionState.new(self.rules, humans, seed)

    def num_actions(self) -> int:
        """How many action indices the game has (fixed by its rules)."""
        from cardtable.games.obsession.action_index import num_actions

        return num_actions(self.rules)

    def state_from_position(self, text: str) -> ObsessionState:
        """The state written as ``text`` by ``state.to_position()``."""
        from cardtable.games.obsession.position import from_position

        return from_position(self.rules, text)


    def sample_world(self, observation: Observation, seed: int | str) -> ObsessionState:
        """A full state agreeing with ``observation`` (which names its seat), the cards it
        does not show dealt at random (see ``cardtable.games.obsession.worlds``)."""
        from cardtable.games.obsession.worlds import sample_world_from_observation

        humans = [seat < self.humans for seat in range(self.rules.players)]
        return sample_world_from_observation(observation, humans, seed)


if TYPE_CHECKING:
    from cardtable.engine.protocol import NotatedState
    from cardtable.games.obsession.actions import Action
    from cardtable.games.obsession.observation import Observation

    def _is_a_notated_state(state: ObsessionState) -> NotatedState[Action, Observation]:
        return state  # checked by mypy: the state implements the protocol
