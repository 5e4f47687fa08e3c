"""``cardtable bench GAME [OPTIONS]``: runs ``cardtable.games.GAME.bench``."""

from __future__ import annotations

import importlib

from cardtable.cli.error_line import print_error

GAMES = ("caravan", "obsession", "austerity")
SEARCH = "ismcts"
"""``cardtable bench ismcts``: the search bots' decision time (``agents/bench_search.py``)."""


PROG = "cardtable bench"
HINT = f"see '{PROG} --help'"


def main(argv: list[str]) -> int:
    if not argv:
        print_error(PROG, f"a game is needed: {', '.join(GAMES)} ({HINT})")
        return 1
    if argv[0] in ("-h", "--help"):
        print(f"usage: cardtable bench GAME [OPTIONS]   (GAME: {', '.join(GAMES)}, or "
              f"{SEARCH} for the search bots)")
        print("Run 'cardtable bench GAME --help' for the options of one benchmark.")
        return 0
    game = argv[0]
    if game == SEARCH:
        from cardtable.agents.bench_search import main as search_main

        return search_main(argv[1:])
    if game not in GAMES:
        print_error(PROG, f"unknown game '{game}' (allowed: {', '.join(GAMES)}; {HINT})")
        return 1
    module = importlib.import_module(f"cardtable.games.{game}.bench")
    result: int = module.main(argv[1:])
    return result
