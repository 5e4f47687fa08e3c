"""``cardtable austerity player --strategy NAME pcount myid``: a player program by strategy name.

``NAME`` is shenzi, banzai, ed (the programs of the same names) or a search, ``mcts`` or
``mcts:iters=1000,time=0.5,points=15,seed=1`` (see ``games/austerity/mcts.py``). The program
speaks the hub protocol on stdin/stdout exactly as the ``shenzi`` program does, with the same
exit statuses (1 usage, 2 player count, 3 player id, 6 communication error).
"""

from __future__ import annotations

import os

USAGE = "Usage: cardtable austerity player --strategy NAME pcount myid\n"


def player(args: list[str]) -> int:
    """Check ``--strategy NAME``, then run the player loop; never returns normally (the
    process leaves with ``os._exit``, as the player programs do)."""
    name = ""
    rest = list(args)
    if len(rest) >= 2 and rest[0] == "--strategy":
        name = rest[1]
        rest = rest[2:]
    elif rest and rest[0].startswith("--strategy="):
        name = rest[0].partition("=")[2]
        rest = rest[1:]
    if not name:
        os.write(2, USAGE.encode())
        return 1
    strategy = None
    base = name.partition(":")[0].strip().lower()
    if base not in ("shenzi", "banzai", "ed"):
        from cardtable.games.austerity.mcts import parse_spec

        try:
            strategy = parse_spec(name)
        except ValueError as error:
            os.write(2, f"cardtable austerity player: {error}\n".encode())
            return 1
    elif base != name:
        os.write(2, f"cardtable austerity player: the strategy '{base}' takes no options\n"
                 .encode())
        return 1
    from cardtable.games.austerity.player import main

    os._exit(main(base, rest, strategy=strategy))
