"""Console script ``austerity``: the Austerity hub (also ``cardtable austerity hub``).

The console script leaves with ``os._exit`` once the hub is done: the hub writes everything with
``os.write`` as it goes and has closed its record file and reaped its players by then, so the
interpreter's teardown would only delay the exit that whoever runs the game waits for.
"""

import sys


def main(argv: list[str] | None = None) -> int:
    from cardtable.games.austerity.hub import main as hub_main

    if argv is not None:
        return hub_main(argv)
    status = hub_main(sys.argv[1:])
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
