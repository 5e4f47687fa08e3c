"""``cardtable bench caravan``: seeded random-vs-random games per second, moves per second and
the time to clone a state, as medians over repeats.

Every move goes the way it goes in a real match: the bot gets its seat's observation, picks
a move, and the game validates and applies it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace

from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.state import Game


def play_random_game(rules: SeatRules, seed: int) -> Game:
    """One complete game between two ``random`` bots."""
    game = Game.new(rules, seed=seed)
    bots = (make_bot("random", 0, seed), make_bot("random", 1, seed))
    while game.result is None:
        seat = game.turn
        game.apply_code(bots[seat].choose_code(game.observation(seat)))
    return game


def measure_games(rules: SeatRules, games: int, seed: int) -> tuple[float, int]:
    """(seconds, moves) for ``games`` games with seeds ``seed``, ``seed + 1``, ..."""
    moves = 0
    start = time.perf_counter()
    for offset in range(games):
        moves += play_random_game(rules, seed + offset).plies
    return time.perf_counter() - start, moves


def measure_clone(rules: SeatRules, seed: int, clones: int) -> float:
    """Seconds per clone of a state in the middle of a game (40 moves in)."""
    game = Game.new(rules, seed=seed)
    bots = (make_bot("random", 0, seed), make_bot("random", 1, seed))
    while game.result is None and game.plies < 40:
        game.apply_code(bots[game.turn].choose_code(game.observation(game.turn)))
    clone = game.clone
    start = time.perf_counter()
    for _ in range(clones):
        clone()
    return (time.perf_counter() - start) / clones


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="cardtable bench caravan",
        description="Seeded random-vs-random Caravan games on one core; medians over repeats.",
    )
    parser.add_argument("--games", default="500", help="games per repeat (default 500)")
    parser.add_argument("--repeats", default="5", help="repeats; medians are shown (default 5)")
    parser.add_argument("--rules", default="power", help="rules preset (default power)")
    parser.add_argument("--cards", default="54", help="deck size of both seats (default 54)")
    parser.add_argument("--seed", default="1", help="first seed (default 1)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:
        return 0 if done.code == 0 else 1
    try:
        games, repeats, cards = (_positive(args.games), _positive(args.repeats),
                                 _positive(args.cards))
        seed = int(args.seed)
        if seed < 0:
            raise ValueError(args.seed)
    except ValueError:
        print("cardtable bench caravan: --games, --repeats and --cards must be integers >= 1, "
              "--seed an integer >= 0", file=sys.stderr)
        return 1
    preset = PRESETS.get(args.rules)
    if preset is None:
        print(f"Unknown rules preset '{args.rules}' (allowed: {', '.join(PRESETS)}).",
              file=sys.stderr)
        return 1
    rules = SeatRules.both(replace(preset, deck_size=cards, deck_min=min(preset.deck_min, cards),
                                   deck_max=max(preset.deck_max, cards)))
    print(f"caravan bench: random vs random, {args.rules} rules, {cards}-card decks, "
          f"{games} games x {repeats} repeats, seeds {seed}..{seed + games - 1}, one core")
    game_rates, move_rates, clone_times = [], [], []
    moves = 0
    for _ in range(repeats):
        seconds, moves = measure_games(rules, games, seed)
        game_rates.append(games / seconds)
        move_rates.append(moves / seconds)
        clone_times.append(measure_clone(rules, seed, 20_000))

    def spread(values: list[float], scale: float = 1.0, digits: int = 0) -> str:
        low, mid, high = min(values) * scale, statistics.median(values) * scale, \
            max(values) * scale
        return f"{mid:>10.{digits}f}  (min {low:.{digits}f}, max {high:.{digits}f})"

    print(f"games/s     {spread(game_rates)}")
    print(f"moves/s     {spread(move_rates)}")
    print(f"clone (us)  {spread(clone_times, 1e6, 2)}")
    print(f"moves/game  {moves / games:>10.1f}")
    return 0
