"""``cardtable bench NAME [OPTIONS]``: a game's benchmark (the one its description names) or one
of the benchmarks of the shells (:data:`TOOLS`)."""

from __future__ import annotations

from cardtable.engine.error_line import print_error
from cardtable.engine.game_registry import descriptions
from cardtable.engine.import_path import imported

TOOLS = {"ismcts": "cardtable.agents.bench_search:main", "env": "cardtable.envs.bench:main",
         "web": "cardtable.web.bench:main"}
"""``ismcts``: the search bots' decision time; ``env``: the reinforcement-learning environments
of every game; ``web``: tables played through the web server."""

PROG = "cardtable bench"
HINT = f"see '{PROG} --help'"


def benches() -> dict[str, str | None]:
    """Every name ``cardtable bench`` takes: each game's (None for a game without a benchmark),
    then the tools'."""
    games: dict[str, str | None] = {described.name: described.bench
                                    for described in descriptions()}
    return {**games, **TOOLS}


def main(argv: list[str]) -> int:
    known = benches()
    allowed = ", ".join(name for name, path in known.items() if path is not None)
    if not argv:
        print_error(PROG, f"a game is needed: {allowed} ({HINT})")
        return 1
    if argv[0] in ("-h", "--help"):
        print(f"usage: cardtable bench GAME [OPTIONS]   (GAME: {allowed})")
        print("Run 'cardtable bench GAME --help' for the options of one benchmark.")
        return 0
    name = argv[0]
    if name not in known:
        print_error(PROG, f"unknown game '{name}' (allowed: {allowed}; {HINT})")
        return 1
    path = known[name]
    if path is None:
        print_error(PROG, f"the game '{name}' has no benchmark (benchmarks: {allowed}).")
        return 1
    result: int = imported(path)(argv[1:])
    return result
