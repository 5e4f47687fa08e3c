"""``cardtable bench env``: environment steps per second of each game's AEC environment.

The loop is PettingZoo's ``performance_benchmark``: ``env.last()`` for the agent to move, a
uniformly random legal action from its mask, ``env.step``; finished agents step with None and
a new game is dealt when every agent is done. The environment is the wrapped one
(``GAME_v0.env()``) unless ``--raw``. Times are the CPU time of this process, medians over
``--repeats``; ``--pettingzoo`` also runs PettingZoo's own ``performance_benchmark`` (5 s of
wall-clock time per game) and prints its lines.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import random
import statistics
import sys
import time
from typing import Any

import numpy as np

from cardtable.cli.error_line import OneLineArgumentParser, print_error
from cardtable.engine.errors import GameError
from cardtable.envs import ENVIRONMENTS

PROG = "cardtable bench env"


def run(env: Any, seconds: float, seed: int) -> tuple[float, int, int]:
    """Steps for ``seconds`` of CPU time: (steps per second, steps, games finished)."""
    choose = random.Random(seed).choice
    flatnonzero = np.flatnonzero
    env.reset(seed=seed)
    steps = games = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while True:
        for _agent in env.agent_iter(env.num_agents):
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                action = None
            else:
                action = choose(flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
            steps += 1
            if not env.agents:
                games += 1
                env.reset()
        now = clock()
        if now >= deadline:
            return steps / (now - start), steps, games


def _params(game: str, rules: str | None, players: int | None) -> dict[str, Any]:
    params: dict[str, Any] = {}
    if rules is not None:
        if game != "caravan":
            raise GameError("--rules is a Caravan option (time Caravan alone: --game caravan)")
        params["rules"] = rules
    if players is not None:
        if game == "caravan":
            raise GameError("--players is an option of Obsession and Austerity (choose one with "
                            "--game)")
        params["players"] = players
    return params


def _label(game: str, env: Any) -> str:
    raw = env.unwrapped
    if game == "caravan":
        rules = raw.game.rules
        name = next((preset for preset in ("power", "nv", "foxon", "karavane")
                     if _is_preset(rules, preset)), "custom rules")
        return f"{ENVIRONMENTS[game]} ({name})"
    return f"{ENVIRONMENTS[game]} ({len(raw.possible_agents)} players)"


def _is_preset(rules: Any, name: str) -> bool:
    from dataclasses import replace

    from cardtable.games.caravan.rules import SeatRules

    preset = SeatRules.preset(name)
    # The environments add the stuck_plies length cap; it is not part of a preset's rules.
    return bool(replace(rules, stuck_plies=preset.stuck_plies) == preset)


def main(argv: list[str]) -> int:
    parser = OneLineArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0] if __doc__
                                   else None)
    parser.add_argument("--game", choices=(*ENVIRONMENTS, "all"), default="all",
                        help="the game whose environment is timed (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="CPU seconds per repeat (default 3)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats; medians are shown")
    parser.add_argument("--rules", help="Caravan preset (default power)")
    parser.add_argument("--players", type=int, help="players of Obsession or Austerity")
    parser.add_argument("--raw", action="store_true", help="time raw_env() without wrappers")
    parser.add_argument("--pettingzoo", action="store_true",
                        help="also run PettingZoo's performance_benchmark")
    args = parser.parse_args(argv)
    if not 0 < args.seconds <= 3600:
        print_error(PROG, f"--seconds must be from 0 to 3600 (got {args.seconds})")
        return 1
    if not 1 <= args.repeats <= 100:
        print_error(PROG, f"--repeats must be from 1 to 100 (got {args.repeats})")
        return 1
    games = list(ENVIRONMENTS) if args.game == "all" else [args.game]
    made = []
    try:
        for game in games:
            module = importlib.import_module(f"cardtable.envs.{ENVIRONMENTS[game]}")
            params = _params(game, args.rules, args.players)
            make = module.raw_env if args.raw else module.env
            made.append((game, make, params))
            make(**params)
    except GameError as error:
        print_error(PROG, error.message)
        return 1
    kind = "raw_env()" if args.raw else "env() (wrapped)"
    print(f"env bench: masked random actions through last() and step() of {kind}, "
          f"{args.repeats} x {args.seconds:g} s CPU time of this process, medians")
    for game, make, params in made:
        env = make(**params)
        results = [run(env, args.seconds, seed) for seed in range(1, args.repeats + 1)]
        rate = statistics.median(result[0] for result in results)
        steps = sum(result[1] for result in results)
        finished = sum(result[2] for result in results)
        low = min(result[0] for result in results)
        high = max(result[0] for result in results)
        print(f"  {_label(game, env):<26} steps/s {rate:>9,.0f}  (min {low:,.0f}, max "
              f"{high:,.0f}; {steps / max(finished, 1):,.0f} steps/game)")
        if args.pettingzoo:
            from pettingzoo.test import performance_benchmark

            captured = io.StringIO()
            with contextlib.redirect_stdout(captured):
                performance_benchmark(make(**params))
            for line in captured.getvalue().splitlines():
                if "per second" in line:
                    print(f"    pettingzoo performance_benchmark: {line.strip()}")
        sys.stdout.flush()
    return 0
