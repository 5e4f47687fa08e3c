"""``cardtable bench env``: environment steps per second of each game's AEC environment.

The loop is PettingZoo's ``performance_benchmark``: ``env.last()`` for the agent to move, a
uniformly random legal action from its mask, ``env.step``; finished agents step with None and
a new game is dealt when every agent is done. The environment is the wrapped one
(``cardtable.envs.env(GAME)``) unless ``--raw``; every game that has an environment is timed
unless ``--game`` names one. Times are the CPU time of this process, medians over
``--repeats``; ``--pettingzoo`` also runs PettingZoo's own ``performance_benchmark`` (5 s of
wall-clock time per game) and prints its lines.
"""

from __future__ import annotations

import contextlib
import io
import random
import statistics
import sys
import time
from typing import Any

import numpy as np

from cardtable.engine.description import GameDescription
from cardtable.engine.error_line import OneLineArgumentParser, print_error
from cardtable.engine.errors import GameError
from cardtable.engine.game_registry import description, descriptions
from cardtable.envs import env as wrapped_env
from cardtable.envs import environments, raw_env

PROG = "cardtable bench env"
PRESET = "rules"
"""The parameter of a game's named rule sets (``load(rules=NAME)``)."""


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


def _owners(has: Any) -> list[GameDescription]:
    """The games with an environment for which ``has(description)`` is true."""
    return [one for one in descriptions() if one.name in environments() and has(one)]


def _not_for(option: str, owners: list[GameDescription]) -> str:
    """``--rules is a Caravan option (time Caravan alone: --game caravan)``."""
    if len(owners) == 1:
        title = owners[0].title
        article = "an" if title[:1].lower() in "aeiou" else "a"
        return (f"{option} is {article} {title} option (time {title} alone: --game "
                f"{owners[0].name})")
    titles = [one.title for one in owners] or ["no game"]
    named = ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else titles[0]
    return f"{option} is an option of {named} (choose one with --game)"


def _has_presets(one: GameDescription) -> bool:
    return bool(one.presets) and any(param.name == PRESET for param in one.params)



def _params(described: GameDescription, rules: str | None, players: int | None
            ) -> dict[str, Any]:
    params: dict[str, Any] = {}
    if rules is not None:
        if not _has_presets(described):
            raise GameError(_not_for("--rules", _owners(_has_presets)))
        params[PRESET] = rules
    if players is not None:
        if described.players_param is None:
            raise GameError(_not_for("--players",
                                     _owners(lambda one: one.players_param is not None)))
        params[described.players_param] = players
    return params


def _label(described: GameDescription, env: Any) -> str:
    """``caravan_v0 (power)``: the environment and its preset, or its number of players."""
    raw = env.unwrapped
    name = raw.metadata["name"]
    if _has_presets(described):
        return f"{name} ({_preset_of(described, raw) or 'custom rules'})"
    return f"{name} ({len(raw.possible_agents)} players)"


def _preset_of(described: GameDescription, raw: Any) -> str | None:
    """The preset whose game the environment plays (its length caps, which are no part of a
    preset's rules, as the environment has them)."""
    caps = {**described.bot_params, **described.table_params}
    for preset in described.presets:
        if described.load(**{**caps, PRESET: preset}) == raw.game:
            return preset
    return None


def main(argv: list[str]) -> int:
    parser = OneLineArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0] if __doc__
                                   else None)
    parser.add_argument("--game", choices=(*environments(), "all"), default="all",
                        help="the game whose environment is timed (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="CPU seconds per repeat (default 3)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats; medians are shown")
    parser.add_argument("--rules", help="rules preset of " + " or ".join(
        f"{one.title} (default {one.presets[0]})" for one in _owners(_has_presets)))
    parser.add_argument("--players", type=int, help="players of " + " or ".join(
        one.title for one in _owners(lambda one: one.players_param is not None)))
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
    games = list(environments()) if args.game == "all" else [args.game]
    made = []
    try:
        for game in games:
            described = description(game)
            params = _params(described, args.rules, args.players)
            make = raw_env if args.raw else wrapped_env
            made.append((described, make, params))
            make(game, **params)
    except GameError as error:
        print_error(PROG, error.message)
        return 1
    kind = "raw_env()" if args.raw else "env() (wrapped)"
    print(f"env bench: masked random actions through last() and step() of {kind}, "
          f"{args.repeats} x {args.seconds:g} s CPU time of this process, medians")
    for described, make, params in made:
        made_env = make(described.name, **params)
        results = [run(made_env, args.seconds, seed) for seed in range(1, args.repeats + 1)]
        rate = statistics.median(result[0] for result in results)
        steps = sum(result[1] for result in results)
        finished = sum(result[2] for result in results)
        low = min(result[0] for result in results)
        high = max(result[0] for result in results)
        print(f"  {_label(described, made_env):<26} steps/s {rate:>9,.0f}  (min {low:,.0f}, max "
              f"{high:,.0f}; {steps / max(finished, 1):,.0f} steps/game)")
        if args.pettingzoo:
            from pettingzoo.test import performance_benchmark

            captured = io.StringIO()
            with contextlib.redirect_stdout(captured):
                performance_benchmark(make(described.name, **params))
            for line in captured.getvalue().splitlines():
                if "per second" in line:
                    print(f"    pettingzoo performance_benchmark: {line.strip()}")
        sys.stdout.flush()
    return 0
