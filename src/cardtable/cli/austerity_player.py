"""Console scripts ``shenzi``, ``banzai`` and ``ed``: the Austerity player programs.

Kept tiny because players must start fast: nothing is imported until a player is chosen.
A player leaves with ``os._exit``: everything it says goes out with ``os.write`` as it is said,
so nothing is left to flush, and the interpreter's teardown would only make the hub (which
waits for its players to exit) wait longer.
"""

import os
import sys


def _leave(status: int) -> int:
    os._exit(status)


def shenzi() -> int:
    from cardtable.games.austerity.player import main

    return _leave(main("shenzi", sys.argv[1:]))


def banzai() -> int:
    from cardtable.games.austerity.player import main

    return _leave(main("banzai", sys.argv[1:]))


def ed() -> int:
    from cardtable.games.austerity.player import main

    return _leave(main("ed", sys.argv[1:]))
