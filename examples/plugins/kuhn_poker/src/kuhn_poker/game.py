"""Kuhn poker for :func:`cardtable.load_game`: ``load_game("kuhn_poker")``.

The game has no parameters (OpenSpiel's ``kuhn_poker`` with its default two players); the
object holds no state, and ``new_state(seed)`` deals a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from cardtable.engine.errors import GameParamsError
from cardtable.engine.one_line import one_line, shortened
from cardtable.engine.randomness import fresh_seed

from kuhn_poker.rules import SEATS
from kuhn_poker.state import NUM_ACTIONS, KuhnState, Observation, deal

NAME = "kuhn_poker"


@dataclass(frozen=True, slots=True)
class KuhnGame:
    """Kuhn poker: three cards, two seats, one ante and one bet."""

    name: ClassVar[str] = NAME

    @classmethod
    def load(cls, **params: Any) -> KuhnGame:
        """The game; any parameter is refused (``Unknown parameter 'x' for kuhn_poker (it takes
        none).``), as :class:`GameParamsError`."""
        for name in params:
            shown = shortened(one_line(str(name)), 20)
            raise GameParamsError(f"Unknown parameter '{shown}' for {NAME} (it takes none).")
        return cls()

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    def new_state(self, seed: int | str | None = None) -> KuhnState:
        """A game dealt from ``seed`` (a fresh random seed when None): the same seed deals the
        same cards."""
        return KuhnState(deal(fresh_seed() if seed is None else seed))

    def num_actions(self) -> int:
        """Action indices are OpenSpiel's action ids: 0 pass, 1 bet."""
        return NUM_ACTIONS

    def state_from_position(self, text: str) -> KuhnState:
        """The state written as ``text`` by ``state.to_position()``."""
        from kuhn_poker.position import from_position

        return from_position(text)

    def sample_world(self, observation: Observation, seed: int | str) -> KuhnState:
        """A state agreeing with ``observation`` (which names its seat), the card the seat
        cannot see dealt from ``seed``."""
        from kuhn_poker.worlds import world_of

        return world_of(observation, seed)


if TYPE_CHECKING:
    from cardtable.engine.description import Game
    from cardtable.engine.protocol import NotatedState

    from kuhn_poker.rules import Action

    def _is_a_notated_state(state: KuhnState) -> NotatedState[Action, Observation]:
        return state  # checked by mypy: the state implements the protocol

    def _is_a_game(game: KuhnGame) -> Game:
        return game
