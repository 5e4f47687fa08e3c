"""cardtable: Caravan, Obsession and Austerity at one table, and any game that plugs in.

``load_game(name, **params)`` is the front door to every game; ``games()`` lists the names.
Both ask the games' registry (:mod:`cardtable.engine.game_registry`: the entry-point group
``cardtable.games``), which imports a game only when it is asked for, so ``import cardtable``
stays cheap (the Austerity player programs start with it).
"""

import sys

from cardtable.version import __version__

# Not ``typing.TYPE_CHECKING`` nor ``from __future__ import annotations``: this package is
# imported by every console script, which must start fast (mypy reads any constant of this
# name as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["__version__", "games", "load_game"]


def games() -> tuple[str, ...]:
    """The names :func:`load_game` knows, the built-in games first:
    ``("caravan", "obsession", "austerity", ...)``."""
    from cardtable.engine.game_registry import names

    return names()


def load_game(name: str, **params: "Any") -> "Any":
    """The game ``name`` with rules ``params``: an immutable object whose ``new_state(seed)``
    starts a game. Raises :class:`~cardtable.engine.errors.GameParamsError` for an unknown
    name or parameter, with the message the game's command line prints for the same mistake.
    """
    from cardtable.engine.game_registry import description

    return description(name).load(**params)


class _Package(type(sys)):  # type: ignore[misc]
    """This package's module type: importing the subpackage ``cardtable.games`` (the built-in
    games' code) leaves the function :func:`games` in place of the attribute the import system
    would set (the subpackage is reached by importing it: ``import cardtable.games.caravan``)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "games" and isinstance(value, type(sys)):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
# ``import cardtable.games.caravan.state as state`` reads the attribute ``games`` of this package
# and then ``caravan`` of what it found; when the function has no such attribute, Python looks
# the submodule up in ``sys.modules`` under the found object's ``__name__`` + ``.caravan``.
games.__name__ = "cardtable.games"
