"""One package per game. The package itself is callable: ``cardtable.games()`` lists the names
that :func:`cardtable.load_game` knows (the attribute ``games`` of ``cardtable`` is this package
once any game is imported, so the package answers the call as the function does).

Nothing is imported here but ``sys`` (always loaded): the Austerity programs start through it.
"""

import sys

GAME_NAMES = ("caravan", "obsession", "austerity")


class _CallablePackage(type(sys)):  # type: ignore[misc]
    def __call__(self) -> tuple[str, ...]:
        return GAME_NAMES


sys.modules[__name__].__class__ = _CallablePackage
