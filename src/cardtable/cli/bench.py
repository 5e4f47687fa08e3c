"""``cardtable bench GAME [OPTIONS]``: runs ``cardtable.games.GAME.bench``."""

from __future__ import annotations

import importlib
import sys

GAMES = ("caravan", "obsession", "austerity")


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(f"usage: cardtable bench GAME [OPTIONS]   (GAME: {', '.join(GAMES)})")
        print("Run 'cardtable bench GAME --help' for the options of one benchmark.")
        return 0 if argv else 1
    game = argv[0]
    if game not in GAMES:
        print(f"cardtable bench: unknown game '{game}' (allowed: {', '.join(GAMES)}).",
              file=sys.stderr)
        return 1
    module = importlib.import_module(f"cardtable.games.{game}.bench")
    result: int = module.main(argv[1:])
    return result
