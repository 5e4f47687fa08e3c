"""Console scripts ``shenzi``, ``banzai`` and ``ed``: the Austerity player programs.

Kept tiny because players must start fast: nothing is imported until a player is chosen.
A player leaves with ``_exit``: everything it says goes out with ``write`` as it is said, so
nothing is left to flush, and the interpreter's teardown would only make the hub (which waits for
its players to exit) wait longer. Both are taken from ``posix``, the C core of ``os`` built into
the interpreter: ``os`` itself costs most of a millisecond when the interpreter starts without
``site``, as the hub starts its players.
"""

import posix
import sys


def _leave(status: int) -> int:
    posix._exit(status)


def shenzi() -> int:
    from cardtable.games.austerity.player import main

    return _leave(main("shenzi", sys.argv[1:]))


def banzai() -> int:
    from cardtable.games.austerity.player import main

    return _leave(main("banzai", sys.argv[1:]))


def ed() -> int:
    from cardtable.games.austerity.player import main

    return _leave(main("ed", sys.argv[1:]))
