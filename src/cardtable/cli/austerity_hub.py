"""Console script ``austerity``: the Austerity hub (also ``cardtable austerity hub``).

Run as the console script, it leaves with ``os._exit`` once the hub is done (see
:func:`cardtable.games.austerity.hub.run_and_exit`); called with ``argv``, it returns the hub's
status.
"""

import sys


def main(argv: list[str] | None = None) -> int:
    from cardtable.games.austerity.hub import main as hub_main
    from cardtable.games.austerity.hub import run_and_exit

    if argv is not None:
        return hub_main(argv)
    run_and_exit(sys.argv[1:])
