"""Console scripts ``shenzi``, ``banzai`` and ``ed``: the Austerity player programs.

Kept tiny because players must start fast: nothing is imported until a player is chosen.
"""

import sys


def shenzi() -> int:
    from cardtable.games.austerity.player import main

    return main("shenzi", sys.argv[1:])


def banzai() -> int:
    from cardtable.games.austerity.player import main

    return main("banzai", sys.argv[1:])


def ed() -> int:
    from cardtable.games.austerity.player import main

    return main("ed", sys.argv[1:])
