"""``cardtable bench GAME [OPTIONS]``: runs ``cardtable.games.GAME.bench``."""

from __future__ import annotations

import importlib

from cardtable.cli.error_line import print_error

GAMES = ("caravan", "obsession", "austerity")
BENCHES = (*GAMES, "ismcts", "env", "web")
"""``ismcts``: the search bots' decision time (``cardtable.agents.bench_search``); ``env``: the
reinforcement-learning environments of every game (``cardtable.envs.bench``); ``web``: tables
played through the web server (``cardtable.web.bench``)."""


PROG = "cardtable bench"
HINT = f"see '{PROG} --help'"


def main(argv: list[str]) -> int:
    if not argv:
        print_error(PROG, f"a game is needed: {', '.join(BENCHES)} ({HINT})")
        return 1
    if argv[0] in ("-h", "--help"):
        print(f"usage: cardtable bench GAME [OPTIONS]   (GAME: {', '.join(BENCHES)})")
        print("Run 'cardtable bench GAME --help' for the options of one benchmark.")
        return 0
    game = argv[0]
    if game not in BENCHES:
        print_error(PROG, f"unknown game '{game}' (allowed: {', '.join(BENCHES)}; {HINT})")
        return 1
    name = {"ismcts": "cardtable.agents.bench_search", "env": "cardtable.envs.bench",
            "web": "cardtable.web.bench"}.get(
        game, f"cardtable.games.{game}.bench")
    module = importlib.import_module(name)
    result: int = module.main(argv[1:])
    return result
