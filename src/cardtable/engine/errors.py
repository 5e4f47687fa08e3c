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

    @classmethod
    def in_field(cls, field: str, problem: str) -> "PositionError":
        """The refusal of one field of a position: ``position field 'FIELD': PROBLEM``."""
        return cls(f"position field '{field}': {problem}")

    @staticmethod
    def quoted(text: str) -> str:
        """A piece of a refused position, quoted and cut short so that the message stays one
        short line."""
        # Imported here: the Austerity hub and players load this module at start-up, and
        # one_line brings the regular expressions they never need.
        from cardtable.engine.one_line import shortened

        return repr(shortened(text, 21))

class GameParamsError(GameError):
    """Parameters of :func:`cardtable.load_game` that do not make a game (an unknown name, an
    unknown or bad rule field); the message is the one the game's command line prints."""


class NotationError(GameError):
    """Text that is not an action in the game's notation (``state.parse_action``)."""


class UnknownSeat(GameError, ValueError):
    """A seat that is neither one of the game's seat names nor one of its indices."""
