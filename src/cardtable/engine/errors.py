"""Exception types shared by every game.

Each carries exactly the user-facing message as ``str(error)`` and ``error.message``.
"""


class GameError(Exception):
    """Base of every error a game reports to a user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class IllegalAction(GameError):
    """An action that the rules refuse. The state it was tried on is unchanged."""


class RecordError(GameError):
    """A game record that cannot be read or does not replay."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(message)
        self.line = line


class PositionError(GameError):
    """A position (one line of text holding a whole game state) that cannot be restored."""
