"""``cardtable bench caravan``: how fast Caravan games run on one core, as medians over repeats.

Two measurements:

- **Complete games through the engine** (the headline): for each seed, the game is set up
  (decks, deal, mulligans) and then played to the end by uniformly random moves for both
  seats — both in the compiled core when it is built (``fast.new_state`` deals the very
  game ``CaravanState.new`` deals from the seed, then ``State.playout``), else in pure Python
  (``CaravanState.new``, then ``fast.python_playout``). This is what search bots do with their
  simulations. The time to clone a state in the middle of a game is shown for both engines,
  and the time to sample a world of it, alone and followed by a compiled playout as a search
  bot's iteration does: in Python (``CaravanState.sample_world``, then ``fast.from_game``) and in
  the
  compiled core (``State.sample_world`` on the compiled state: no Python in the loop).
- **Match loop**: every move goes the way it goes in a real match: the bot gets its seat's
  observation, picks a move, and the game validates and applies it.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from cardtable.engine.error_line import OneLineArgumentParser, print_error
from cardtable.games.caravan import fast
from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.deck import check_samples, check_supply
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.state import CaravanState

CLONE_AT = 40
"""Clones are timed on a state this many moves into a game."""

CLOCK = time.process_time
"""Every time is this process's CPU time: on a shared machine, the time other processes
spend on the same core does not count."""


BLOCK = 1024
"""Long games (foxon's run to thousands of moves) time each block of this many moves."""


@dataclass(frozen=True, slots=True)
class MatchRun:
    """One repeat of the match loop; ``blocks`` holds, per game long enough, the seconds
    per move of each full block of ``BLOCK`` moves, in order."""

    seconds: float
    moves: int
    blocks: list[list[float]]


def measure_games(rules: SeatRules, games: int, seed: int) -> MatchRun:
    """Match loop: ``games`` games between two ``random`` bots, seeds ``seed``, ``seed + 1``,
    ...; each bot gets its seat's observation and the game validates every move."""
    clock = CLOCK
    moves = 0
    blocks: list[list[float]] = []
    start = clock()
    for offset in range(games):
        game = CaravanState.new(rules, seed=seed + offset)
        bots = (make_bot("random", 0, seed + offset), make_bot("random", 1, seed + offset))
        times: list[float] = []
        mark = clock()
        while game.result is None:
            seat = game.turn
            game.apply_code(bots[seat].choose_code(game.observation(seat)))
            if not game.plies % BLOCK:
                now = clock()
                times.append((now - mark) / BLOCK)
                mark = now
        moves += game.plies
        if len(times) > 1:
            blocks.append(times)
    return MatchRun(clock() - start, moves, blocks)


@dataclass(frozen=True, slots=True)
class Run:
    """One repeat of the complete-games measurement."""

    seconds: float
    setup_seconds: float
    moves: int


def measure_complete_games(rules: SeatRules, games: int, seed: int, compiled: bool) -> Run:
    """``games`` complete games (seeds ``seed``, ``seed + 1``, ...): all dealt first, then all
    played to the end by random moves — in the compiled core, or ``CaravanState.new`` and a
    playout in Python."""
    seeds = range(seed, seed + games)
    start = CLOCK()
    if compiled:
        states = [fast.new_state(rules, game_seed) for game_seed in seeds]
        dealt = CLOCK()
        for game_seed, state in zip(seeds, states, strict=True):
            state.playout(game_seed)
        moves = sum(state.plies for state in states)
    else:
        python_games = [CaravanState.new(rules, seed=game_seed) for game_seed in seeds]
        dealt = CLOCK()
        for game_seed, game in zip(seeds, python_games, strict=True):
            fast.python_playout(game, random.Random(game_seed))
        moves = sum(game.plies for game in python_games)
    end = CLOCK()
    return Run(end - start, dealt - start, moves)


def mid_game(rules: SeatRules, seed: int) -> CaravanState:
    """A game ``CLONE_AT`` random moves in (or over, if it ended sooner)."""
    game = CaravanState.new(rules, seed=seed)
    fast.python_playout(game, random.Random(seed), limit=CLONE_AT)
    return game


def time_per_call(call: Callable[[], object], calls: int) -> float:
    start = CLOCK()
    for _ in range(calls):
        call()
    return (CLOCK() - start) / calls


def _count(text: str, least: int) -> int:
    value = int(text)
    if value < least:
        raise ValueError(text)
    return value


def spread(values: list[float], scale: float = 1.0, digits: int = 0) -> str:
    """``median  (min …, max …)`` of ``values`` times ``scale``."""
    low, mid, high = (min(values) * scale, statistics.median(values) * scale,
                      max(values) * scale)
    return f"{mid:>10.{digits}f}  (min {low:.{digits}f}, max {high:.{digits}f})"


def main(argv: list[str]) -> int:
    parser = OneLineArgumentParser(
        prog="cardtable bench caravan",
        description="Seeded random-vs-random Caravan games on one core; medians over repeats. "
                    "Complete games are dealt and played to the end by the compiled core "
                    "when it is built (CARDTABLE_PURE=1: pure Python).",
    )
    parser.add_argument("--games", default="500",
                        help="complete games per repeat (default 500)")
    parser.add_argument("--match-games", default="100",
                        help="games per repeat through the match loop; 0 skips it (default 100)")
    parser.add_argument("--repeats", default="5", help="repeats; medians are shown (default 5)")
    parser.add_argument("--rules", default="power", help="rules preset (default power)")
    parser.add_argument("--cards", default="54", help="deck size of both seats (default 54)")
    parser.add_argument("--seed", default="1", help="first seed (default 1)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:
        return 0 if done.code == 0 else 1
    try:
        games, repeats, cards = (_count(args.games, 1), _count(args.repeats, 1),
                                 _count(args.cards, 1))
        match_games = _count(args.match_games, 0)
        seed = _count(args.seed, 0)
    except ValueError:
        print("cardtable bench caravan: --games, --repeats and --cards must be integers >= 1, "
              "--match-games and --seed integers >= 0", file=sys.stderr)
        return 1
    preset = PRESETS.get(args.rules)
    if preset is None:
        print_error(parser.prog,
                    f"Unknown rules preset '{args.rules}' (allowed: {', '.join(PRESETS)}).")
        return 1
    rules = SeatRules.both(replace(preset, deck_size=cards, deck_min=min(preset.deck_min, cards),
                                   deck_max=max(preset.deck_max, cards)))
    problem = check_samples(rules) or check_supply(rules)
    if problem is not None:
        print_error(parser.prog, problem)
        return 1
    compiled = fast.available()
    print(f"caravan bench: random vs random, {args.rules} rules, {cards}-card decks, "
          f"{repeats} repeats, seeds from {seed}, one core")
    print(f"engine: {fast.engine_name()}")
    print("times: CPU time of this process")

    runs = [measure_complete_games(rules, games, seed, compiled) for _ in range(repeats)]
    how = ("compiled deal + compiled playout" if compiled
           else "Game.new in Python + Python playout")
    print(f"\ncomplete games ({games} per repeat): {how} to the end")
    print(f"  games/s          {spread([games / run.seconds for run in runs])}")
    print(f"  moves/s          {spread([run.moves / run.seconds for run in runs])}")
    print(f"  moves/game       {runs[-1].moves / games:>10.1f}")
    print(f"  setup (us/game)  {spread([run.setup_seconds / games for run in runs], 1e6, 1)}")
    print(f"  play  (us/game)  "
          f"{spread([(run.seconds - run.setup_seconds) / games for run in runs], 1e6, 1)}")

    game = mid_game(rules, seed)
    print(f"\nclone of a state {game.plies} moves into a game (us)")
    if compiled:
        state = fast.from_game(game, seed)
        times = [time_per_call(state.clone, 100_000) for _ in range(repeats)]
        print(f"  compiled state   {spread(times, 1e6, 2)}")
    times = [time_per_call(game.clone, 20_000) for _ in range(repeats)]
    print(f"  Python Game      {spread(times, 1e6, 2)}")

    also = ("; +playout: then fast.from_game and a compiled random playout to the end; "
            "core: sampled and played in the compiled core" if compiled else "")
    print(f"\nsampled world of that state, as ABC sees it (us per world{also})")
    worlds = iter(range(1 << 62))
    times = [time_per_call(lambda: game.sample_world(0, next(worlds)), 2_000)
             for _ in range(repeats)]
    print(f"  sample_world     {spread(times, 1e6, 2)}")
    if compiled:
        def sample_and_play() -> None:
            world_seed = next(worlds)
            fast.from_game(game.sample_world(0, world_seed), world_seed).playout(world_seed)

        times = [time_per_call(sample_and_play, 500) for _ in range(repeats)]
        print(f"  sample+playout   {spread(times, 1e6, 2)}")
        state = fast.from_game(game, seed)
        times = [time_per_call(lambda: state.sample_world(0, next(worlds)), 20_000)
                 for _ in range(repeats)]
        print(f"  core sample      {spread(times, 1e6, 2)}")
        # The world's generator, seeded by the sample, draws the playout's moves.
        times = [time_per_call(lambda: state.sample_world(0, next(worlds)).playout(), 500)
                 for _ in range(repeats)]
        print(f"  core sample+play {spread(times, 1e6, 2)}")

    if match_games:
        print(f"\nmatch loop ({match_games} games per repeat): each bot gets its observation, "
              "the game validates every move")
        match_runs = [measure_games(rules, match_games, seed) for _ in range(repeats)]
        print(f"  games/s          {spread([match_games / run.seconds for run in match_runs])}")
        print(f"  moves/s          {spread([run.moves / run.seconds for run in match_runs])}")
        print(f"  moves/game       {match_runs[-1].moves / match_games:>10.1f}")
        per_move = [run.seconds / run.moves for run in match_runs]
        print(f"  us/move          {spread(per_move, 1e6, 2)}")
        long_games = [times for run in match_runs for times in run.blocks]
        if long_games:
            # Per game, its first and its last full block; a move late in a long game
            # should cost what a move early on costs.
            first = statistics.median(times[0] for times in long_games) * 1e6
            last = statistics.median(times[-1] for times in long_games) * 1e6
            print(f"  us/move, first and last {BLOCK} moves of games over {2 * BLOCK - 1}: "
                  f"{first:.2f}, {last:.2f}")
    return 0
