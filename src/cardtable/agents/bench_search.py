"""``cardtable bench ismcts``: the time of one search decision, on one core.

For every game whose description gives its own search (a compiled core: Caravan and Obsession),
in the order of the list of games. Positions come from seeded random games (under the game's
default rules, at its smallest table: two-player Obsession), a few moves in; each decision is
timed in CPU time (``time.process_time``) so that other work on a shared machine counts less.
Prints the median and the quartiles per game.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any, NoReturn

from cardtable.agents.registry import make_seat
from cardtable.engine.description import GameDescription
from cardtable.engine.game_registry import description, descriptions
from cardtable.engine.one_line import print_error
from cardtable.engine.search_limits import MAX_ITERATIONS

PROG = "cardtable bench ismcts"


class _Parser(argparse.ArgumentParser):
    """Syntax errors as one error line and status 1, as every command line says them."""

    def error(self, message: str) -> NoReturn:
        print_error(self.prog, message)
        self.exit(1)


def smallest_table(described: GameDescription) -> Any:
    """The game under its default rules, with the fewest seats it takes."""
    if described.players_param is None:
        return described.load()
    return described.load(**{described.players_param: described.seat_counts[0]})


def searched_games() -> list[str]:
    """The games whose description gives its own search, in the order of the list of games."""
    return [described.name for described in descriptions() if described.search() is not None]


def _positions(name: str, count: int, seed: int) -> list[tuple[Any, Any]]:
    game = smallest_table(description(name))
    found: list[tuple[Any, Any]] = []
    attempt = 0
    while len(found) < count:
        rng = random.Random(f"{seed}:{attempt}")
        state: Any = game.new_state(seed=seed + attempt)
        attempt += 1
        for _ in range(rng.randrange(4, 40)):
            if state.result is not None:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.result is None and len(state.legal_actions()) > 1:
            found.append((game, state))
    return found


def measure(name: str, spec: str, count: int, seed: int) -> dict[str, Any]:
    """Times ``spec``'s decisions at ``count`` positions of ``name``; milliseconds."""
    times: list[float] = []
    for index, (game, state) in enumerate(_positions(name, count, seed)):
        seat = state.to_move
        bot = make_seat(game, spec, seat, index)
        observation = state.observation(seat)
        start = time.process_time()
        bot.choose(observation)
        times.append((time.process_time() - start) * 1000)
    quartiles = statistics.quantiles(times, n=4) if len(times) > 1 else times * 3
    return {"game": name, "bot": spec, "decisions": len(times),
            "median_ms": round(statistics.median(times), 2),
            "q1_ms": round(quartiles[0], 2), "q3_ms": round(quartiles[2], 2)}


MAX_POSITIONS = 10_000


def main(argv: list[str]) -> int:
    parser = _Parser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("--iters", type=int, default=1000,
                        help=f"iterations (default 1000, at most {MAX_ITERATIONS})")
    parser.add_argument("--positions", type=int, default=30,
                        help=f"decisions timed per game (default 30, at most {MAX_POSITIONS})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    try:
        options = parser.parse_args(argv)
    except SystemExit as done:  # --help (0), or a syntax error already said in one line
        return 0 if done.code == 0 else 1
    if not 1 <= options.iters <= MAX_ITERATIONS:
        print_error(PROG, f"--iters must be from 1 to {MAX_ITERATIONS} (got {options.iters})")
        return 1
    if not 1 <= options.positions <= MAX_POSITIONS:
        print_error(PROG, f"--positions must be from 1 to {MAX_POSITIONS} "
                          f"(got {options.positions})")
        return 1
    if options.seed < 0:
        print_error(PROG, f"--seed must be 0 or more (got {options.seed})")
        return 1
    for name in searched_games():
        row = measure(name, f"ismcts:iters={options.iters}", options.positions, options.seed)
        if options.json:
            print(json.dumps(row))
        else:
            print(f"{name:<10} {row['bot']}: median {row['median_ms']:.1f} ms per decision "
                  f"(quartiles {row['q1_ms']:.1f}-{row['q3_ms']:.1f}, {row['decisions']} "
                  "decisions, CPU time)")
    return 0
