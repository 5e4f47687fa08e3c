"""cardtable: Caravan, Obsession and Austerity at one table.

``load_game(name, **params)`` is the front door to every game; ``games()`` lists the names.
Both import the game only when called, so ``import cardtable`` stays cheap (the Austerity
player programs start with it).
"""

# Not ``typing.TYPE_CHECKING`` nor ``from __future__ import annotations``: this package is
# imported by every console script, which must start fast (mypy reads any constant of this
# name as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from cardtable.games.austerity.game import AusterityGame
    from cardtable.games.caravan.game import CaravanGame
    from cardtable.games.obsession.game import ObsessionGame

__version__ = "0.1.0"
__all__ = ["__version__", "games", "load_game"]



def games() -> tuple[str, ...]:
    """The names :func:`load_game` knows: ``("caravan", "obsession", "austerity")``.

    Importing any game replaces this function by the package ``cardtable.games``, which
    answers the same call (see its docstring).
    """
    from cardtable.games import GAME_NAMES

    return GAME_NAMES


def load_game(name: str, **params: "Any") -> "CaravanGame | ObsessionGame | AusterityGame":
    """The game ``name`` with rules ``params``: an immutable object whose ``new_state(seed)``
    starts a game. Raises :class:`~cardtable.engine.errors.GameParamsError` for an unknown
    name or parameter, with the message the game's command line prints for the same mistake.
    """
    if name == "caravan":
        from cardtable.games.caravan.game import CaravanGame

        return CaravanGame.load(**params)
    if name == "obsession":
        from cardtable.games.obsession.game import ObsessionGame

        return ObsessionGame.load(**params)
    if name == "austerity":
        from cardtable.games.austerity.game import AusterityGame

        return AusterityGame.load(**params)
    from cardtable.engine.errors import GameParamsError
    from cardtable.games import GAME_NAMES

    raise GameParamsError(f"Unknown game '{name}' (allowed: {', '.join(GAME_NAMES)}).")
