"""Obsession for :func:`cardtable.load_game`: the rules and which seats are human.

Parameters take the command line's option names (``players``, ``run_kill``, ...) and are
checked as ``obsession`` checks them, by the game's parameters (:mod:`params`), with the same
messages::

    load_game("obsession", players=6, run_kill=3, kill_order="kill-first")
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from cardtable.games.obsession.params import PARAMS, checked
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import ObsessionState, seat_name

if TYPE_CHECKING:
    from cardtable.games.obsession.observation import Observation

NAME = "obsession"
PARAM_NAMES = tuple(param.name for param in PARAMS)


@dataclass(frozen=True, slots=True)
class ObsessionGame:
    """Obsession with fixed rules; ``humans`` counts the human seats (``P1``..), which the
    repetition guard leaves alone. ``new_state(seed)`` deals as ``obsession --seed SEED``."""

    rules: Rules
    humans: int = 0
    name: ClassVar[str] = NAME

    @classmethod
    def load(cls, **params: Any) -> ObsessionGame:
        """The game for ``params`` (:data:`~params.PARAMS`, each at its default when not
        given); raises :class:`~cardtable.engine.errors.GameParamsError` with the parameter's
        message."""
        values = checked(params)
        humans = values.pop("humans")
        return cls(Rules(**values), humans)

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
        return sample_world_from_observation(observation, humans, seed,
                                             state_class=ObsessionState)


if TYPE_CHECKING:
    from cardtable.engine.protocol import NotatedState
    from cardtable.games.obsession.actions import Action
    from cardtable.games.obsession.observation import Observation

    def _is_a_notated_state(state: ObsessionState) -> NotatedState[Action, Observation]:
        return state  # checked by mypy: the state implements the protocol
