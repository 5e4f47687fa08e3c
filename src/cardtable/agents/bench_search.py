"""``cardtable bench ismcts``: the time of one search decision, on one core.

Positions come from seeded random games (Caravan under its default rules, two-player Obsession),
a few moves in; each decision is timed in CPU time (``time.process_time``) so that other work
on a shared machine counts less. Prints the median and the quartiles per game.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import cardtable
from cardtable.agents.registry import make_seat

PROG = "cardtable bench ismcts"


def _positions(name: str, count: int, seed: int) -> list[tuple[Any, Any]]:
    game = (cardtable.load_game(name) if name == "caravan"
            else cardtable.load_game(name, players=2))
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


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("--iters", type=int, default=1000, help="iterations (default 1000)")
    parser.add_argument("--positions", type=int, default=30,
                        help="decisions timed per game (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    options = parser.parse_args(argv)
    if options.iters < 1 or options.positions < 1:
        parser.error("--iters and --positions must be at least 1")
    for name in ("caravan", "obsession"):
        row = measure(name, f"ismcts:iters={options.iters}", options.positions, options.seed)
        if options.json:
            print(json.dumps(row))
        else:
            print(f"{name:<10} {row['bot']}: median {row['median_ms']:.1f} ms per decision "
                  f"(quartiles {row['q1_ms']:.1f}-{row['q3_ms']:.1f}, {row['decisions']} "
                  "decisions, CPU time)")
    return 0
