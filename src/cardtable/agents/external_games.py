"""What the external-bot protocol needs of a game: its description's adapter.

For every game an external program can play (docs/bots.md): the observation as JSON, the rules
as JSON, the legal actions in notation, and the action a line of notation names
(:class:`~cardtable.engine.description.ExternalAdapter`). The game's description gives it
(:meth:`~cardtable.engine.description.GameDescription.external`: a game's own, or the default
one built from its ``observation_json``); each part is computed from the seat's observation
(and the loaded game object, which holds only rules), never from the state, so nothing the
seat may not see can reach the program.
"""

from __future__ import annotations

from cardtable.engine.description import ExternalAdapter
from cardtable.engine.game_registry import description


def adapter(game: str) -> ExternalAdapter | None:
    """The adapter of the game named ``game``, or None for a game external bots cannot play
    through this protocol."""
    return description(game).external()
