"""Caravan's error types; each carries exactly the user-facing message."""

from cardtable.engine.errors import GameError, IllegalAction, NotationError


class IllegalMove(IllegalAction):
    """A move the rules refuse; the game is unchanged and the same seat is still to move."""


class MoveSyntaxError(NotationError):
    """Text that is not a move in the notation."""


class RulesError(GameError):
    """A rules preset, field, value or file that cannot be used."""


class DeckError(GameError):
    """A deck that cannot be built or a deck file that cannot be used."""
