"""Console script ``austerity``: the Austerity hub (also ``cardtable austerity hub``)."""

import sys


def main(argv: list[str] | None = None) -> int:
    from cardtable.games.austerity.hub import main as hub_main

    return hub_main(sys.argv[1:] if argv is None else argv)
