"""The protocol every game state implements, and the result of a finished game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, TypeVar

ActionT = TypeVar("ActionT")
ObservationT = TypeVar("ObservationT", covariant=True)


@dataclass(frozen=True)
class Result:
    """How a game ended.

    ``winners`` is empty for a draw or an abandoned game; ``reason`` is a short
    game-specific word (``lanes``, ``out_of_cards``, ``quit`` ...); ``details``
    holds anything else a game wants to report (JSON-serialisable).
    """

    winners: tuple[str, ...]
    reason: str
    details: Mapping[str, Any] = field(default_factory=dict)


class GameState(Protocol[ActionT, ObservationT]):
    """A game as a state machine.

    ``apply`` mutates the state in place (clone first to keep the old one) and
    raises :class:`~cardtable.engine.errors.IllegalAction` without changing
    anything when the action is refused.
    """

    @property
    def seats(self) -> Sequence[str]: ...

    @property
    def to_move(self) -> str | None:
        """The seat whose action is awaited, or None once the game is over."""
        ...

    @property
    def result(self) -> Result | None: ...

    def legal_actions(self) -> list[ActionT]: ...

    def apply(self, action: ActionT) -> Any:
        """Apply ``action``; returns a game-specific event describing what happened."""
        ...

    def observation(self, seat: str) -> ObservationT: ...

    def clone(self) -> Self: ...


class NotatedState(GameState[ActionT, ObservationT], Protocol[ActionT, ObservationT]):
    """A game state with the game's one notation and seat names, as ``load_game`` gives them.

    ``parse_action`` raises :class:`~cardtable.engine.errors.NotationError` for text that is
    not an action (whether it is legal is for ``apply`` to say); ``seat_number`` takes a seat
    name or a 0-based index and raises :class:`~cardtable.engine.errors.UnknownSeat` for
    anything else.
    """

    def parse_action(self, text: str) -> ActionT: ...

    def action_text(self, action: ActionT) -> str: ...

    def seat_number(self, seat: str | int) -> int: ...
