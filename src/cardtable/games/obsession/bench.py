"""``cardtable bench obsession``: complete seeded bot games per second, medians over repeats.

The headline, with ``random`` bots and the compiled core built, is complete games through the
engine: ``ObsessionState.new`` and the swaps in Python (each seat keeps its dealt split, as
``random``
does), then the core plays every seat's ``random`` policy to the end (``fast.FastGame``). The
core draws from its own generator, so these are not ``RandomBot``'s games, but they are games
of the same policy under the same rules.

With ``--bot obsessed`` the headline is the same with the core's ``obsessed`` policy drawing
from the bots' own generators: exactly the games ``ObsessedBot`` seats play through their
observations, which the second section plays that way (pure Python).

For ``random`` the second section is the pure Python fast path: ``random`` bots read the active
pile straight from the state (with the event log off) instead of receiving an observation.
Their choices are the same draws as ``RandomBot`` makes from an observation (the tests check
it), so the games are identical. Without the core (not built, or ``CARDTABLE_PURE=1``) it is
the headline.

With the core built, a last table times sampled worlds (``sample_world``) of a game in play,
as a search bot draws them: in Python, in the compiled core, and in the core followed by a
playout of the ``random`` policy to the end.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from itertools import compress

from cardtable.engine.error_line import OneLineArgumentParser
from cardtable.games.obsession import fast
from cardtable.games.obsession.actions import Blind, Play, Swap
from cardtable.games.obsession.bots import BOT_NAMES, bot_random, make_bot, obsessed_swap
from cardtable.games.obsession.cards import FACE
from cardtable.games.obsession.legality import ALL_LEGAL, LEGAL_CARD
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import OVER, ObsessionState


def random_game(rules: Rules, seed: int) -> ObsessionState:
    """A whole game of ``random`` bots seeded with ``seed``, on the fast path.

    The ``random`` policy (``random_play``) is inlined here, and so is ``randrange``: for
    ``n > 0``, ``Random.randrange(n)`` draws ``getrandbits(n.bit_length())`` until the value is
    below ``n``. Drawing the bits directly makes the very same draws without two Python-level
    calls per decision (the bot tests compare these games with the observation path).
    """
    players = rules.players
    game = ObsessionState.new(rules, (False,) * players, seed, log=False)
    bits = [bot_random(seed, seat).getrandbits for seat in range(players)]
    apply = game.apply
    for seat in range(players):
        apply(Swap(tuple(game.visible[seat])))
    hands, visible, hidden = game.hands, game.visible, game.hidden
    face_of = FACE.__getitem__
    while game.phase != OVER:
        seat = game.current
        getrandbits = bits[seat]
        cards = hands[seat] or visible[seat]
        if cards:
            active = game.active
            # On an empty pile, a 2, a 4 or an 8 every card is legal: no filtering needed.
            legal = cards if ALL_LEGAL[active] else list(
                compress(cards, map(LEGAL_CARD[active].__getitem__, cards)))
            count = len(legal)
            width = count.bit_length()
            last = getrandbits(width)
            while last >= count:
                last = getrandbits(width)
            # The first copies of the chosen face up to the drawn one (see ``random_play``).
            face = face_of(legal[last])
            first = last
            while first and face_of(legal[first - 1]) == face:
                first -= 1
            apply(Play((legal[last],) if first == last else tuple(legal[first:last + 1])))
        else:
            count = len(hidden[seat])
            width = count.bit_length()
            index = getrandbits(width)
            while index >= count:
                index = getrandbits(width)
            apply(Blind(index + 1))
    return game


def core_game(rules: Rules, seed: int) -> fast.FastGame:
    """A whole game of ``random`` bots seeded with ``seed``: the deal and the swaps in Python,
    every play in the compiled core (which must be available)."""
    players = rules.players
    game = ObsessionState.new(rules, (False,) * players, seed, log=False)
    for seat in range(players):
        game.apply(Swap(tuple(game.visible[seat])))
    core = fast.FastGame.from_game(game)
    core.playout(seed)
    return core


def obsessed_core_game(rules: Rules, seed: int) -> fast.FastGame:
    """A whole game of ``obsessed`` bots seeded with ``seed``: the deal and the swaps in Python,
    every play by the compiled core's ``obsessed`` policy drawing from the bots' own generators.
    The very game ``bot_game(rules, seed, "obsessed")`` plays (the equivalence tests check it)."""
    players = rules.players
    game = ObsessionState.new(rules, (False,) * players, seed, log=False)
    hands, visible = game.hands, game.visible
    for seat in range(players):
        game.apply(Swap(obsessed_swap(sorted(hands[seat] + visible[seat]))))
    core = fast.FastGame.from_game(game)
    core.playout_obsessed([bot_random(seed, seat).random for seat in range(players)])
    return core


def bot_game(rules: Rules, seed: int, bot: str) -> ObsessionState:
    """A whole game of ``bot`` seats going through observations, as in a real match."""
    players = rules.players
    game = ObsessionState.new(rules, (False,) * players, seed, log=False)
    bots = [make_bot(bot, seat, seed) for seat in range(players)]
    while not game.over:
        game.apply(bots[game.current].choose(game.observe(game.current)))
    return game


CORE, CORE_OBSESSED, FAST_PATH, OBSERVED = "core", "core obsessed", "fast path", "observed"
"""The ways to play a benchmark game: compiled core (``random`` or ``obsessed`` policy), Python
fast path, bots' observations."""


def measure(players: int, way: str, games: int, seed: int) -> tuple[float, float, float]:
    """(seconds, plays, stalemates) for ``games`` games with seeds ``seed``, ``seed + 1``, ...

    ``way`` is ``CORE`` or ``FAST_PATH`` (``random`` bots), ``CORE_OBSESSED`` (``obsessed``
    bots) or ``OBSERVED`` with the bot's name after a colon (``"observed:obsessed"``).
    """
    rules = Rules(players=players)
    plays = stalemates = 0
    bot = way.partition(":")[2]
    start = time.perf_counter()
    for offset in range(games):
        game: ObsessionState | fast.FastGame
        if way == CORE:
            game = core_game(rules, seed + offset)
        elif way == CORE_OBSESSED:
            game = obsessed_core_game(rules, seed + offset)
        elif way == FAST_PATH:
            game = random_game(rules, seed + offset)
        else:
            game = bot_game(rules, seed + offset, bot)
        plays += game.plays
        stalemates += game.stalemate is not None
    return time.perf_counter() - start, plays, stalemates


def sections(bot: str) -> list[tuple[str, str]]:
    """(title, way) of each table to print, the headline first."""
    if bot != "random":
        observed = (f"{bot} bots through their observations (pure Python)", f"{OBSERVED}:{bot}")
        if not fast.available():
            return [observed]
        return [("complete games: Game.new and swaps in Python, the obsessed policy in the "
                 "compiled core (the exact ObsessedBot games)", CORE_OBSESSED), observed]
    python = ("pure Python fast path (the exact RandomBot games)", FAST_PATH)
    if not fast.available():
        return [python]
    return [("complete games: Game.new and swaps in Python, play in the compiled core", CORE),
            python]


def table(counts: list[int], way: str, games: int, repeats: int, seed: int) -> None:
    print("players    games/s     plays/s  plays/game  stalemates")
    for players in counts:
        rates, play_rates = [], []
        plays = stalemates = 0.0
        for _ in range(repeats):
            seconds, plays, stalemates = measure(players, way, games, seed)
            rates.append(games / seconds)
            play_rates.append(plays / seconds)
        print(f"{players:>7}  {statistics.median(rates):>9.0f}  "
              f"{statistics.median(play_rates):>10.0f}  {plays / games:>10.1f}  "
              f"{int(stalemates):>10}")


def clone_size(players: int) -> int:
    """Bytes of one clone of the compiled core's state just after the swaps (``sys.getsizeof``:
    the object and the tables it owns)."""
    rules = Rules(players=players)
    game = ObsessionState.new(rules, (False,) * players, 0, log=False)
    for seat in range(players):
        game.apply(Swap(tuple(game.visible[seat])))
    return sys.getsizeof(fast.FastGame.from_game(game).clone()._state)


WORLD_AT = 30
"""Sampled worlds are timed on a game this many random actions after the swaps."""


def per_world(call: Callable[[int], object], calls: int, repeats: int) -> float:
    """Median microseconds of ``call(world_seed)`` over ``repeats`` runs of ``calls`` calls, in
    CPU time of this process (time other processes take on a shared core does not count)."""
    times = []
    for repeat in range(repeats):
        start = time.process_time()
        for world in range(repeat * calls, (repeat + 1) * calls):
            call(world)
        times.append((time.process_time() - start) / calls * 1e6)
    return statistics.median(times)


def world_times(players: int, repeats: int, seed: int) -> tuple[float, float, float]:
    """Microseconds per sampled world of a game ``WORLD_AT`` actions in, as P1 sees it: in
    Python (``ObsessionState.sample_world``), in the compiled core (``FastGame.sample_world``) and
    in
    the core followed by a playout of the ``random`` policy to the end."""
    game = ObsessionState.new(Rules(players=players), (False,) * players, seed, log=False)
    for seat in range(players):
        game.apply(Swap(tuple(game.visible[seat])))
    choices = random.Random(seed)
    for _ in range(WORLD_AT):
        if not game.over:
            game.apply(choices.choice(game.legal_actions()))
    core = fast.FastGame.from_game(game)
    return (per_world(lambda world: game.sample_world(0, world), 1000, repeats),
            per_world(lambda world: core.sample_world(0, world), 10_000, repeats),
            per_world(lambda world: core.sample_world(0, world).playout(world), 300, repeats))


def worlds_table(counts: list[int], repeats: int, seed: int) -> None:
    # Rows name their seat count in words: the rate tables' rows start with the bare number.
    print("              Python   core sample  core sample+play")
    for players in counts:
        python, sample, played = world_times(players, repeats, seed)
        print(f"{players:>2} players  {python:>9.2f}  {sample:>12.2f}  {played:>16.2f}")


def versus(games: int, seed: int) -> tuple[int, int, int]:
    """Two-player games of ``obsessed`` against ``random``, seats alternating by seed.

    Returns (obsessed wins, random wins, stalemates that ranked nobody as out).
    """
    wins = [0, 0]
    undecided = 0
    for offset in range(games):
        game_seed = seed + offset
        obsessed_seat = offset % 2
        kinds = ["random", "random"]
        kinds[obsessed_seat] = "obsessed"
        game = ObsessionState.new(Rules(players=2), (False, False), game_seed, log=False)
        bots = [make_bot(kinds[seat], seat, game_seed) for seat in range(2)]
        while not game.over:
            game.apply(bots[game.current].choose(game.observe(game.current)))
        if not game.out[game.placings[0]]:
            undecided += 1
        else:
            wins[0 if game.placings[0] == obsessed_seat else 1] += 1
    return wins[0], wins[1], undecided


def main(argv: list[str]) -> int:
    parser = OneLineArgumentParser(prog="cardtable bench obsession",
                                     description="Seeded all-bot Obsession games per second.")
    parser.add_argument("--games", type=int, default=300, help="games per repeat (default 300)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; medians are shown")
    parser.add_argument("--bot", choices=BOT_NAMES, default="random", help="bot of every seat")
    parser.add_argument("--players", default="2,4", help="comma list of seat counts (2,4)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--versus", type=int, metavar="GAMES", default=0,
                        help="instead: win rate of obsessed against random in GAMES 2-player "
                             "games, seats alternating")
    try:
        args = parser.parse_args(argv)
        counts = [int(part) for part in args.players.split(",")]
    except SystemExit as done:
        return 0 if done.code == 0 else 1
    except ValueError:
        print("cardtable bench obsession: --players must be a comma list of 2..10",
              file=sys.stderr)
        return 1
    if (args.games < 1 or args.repeats < 1 or args.seed < 0 or args.versus < 0
            or any(not 2 <= n <= 10 for n in counts)):
        print("cardtable bench obsession: --games and --repeats must be >= 1, --seed and "
              "--versus >= 0, --players from 2 to 10", file=sys.stderr)
        return 1
    if args.versus > 0:
        won, lost, undecided = versus(args.versus, args.seed)
        decided = won + lost
        rate = won / decided if decided else 0.0
        print(f"obsessed vs random, 2 players, {args.versus} games from seed {args.seed}: "
              f"obsessed won {won}, random won {lost}, stalemates {undecided}; "
              f"obsessed win rate {rate:.3f}")
        return 0
    print(f"obsession bench: {args.bot} bots, {args.games} games x {args.repeats} repeats, "
          f"seeds {args.seed}..{args.seed + args.games - 1}, one core")
    if not fast.available():
        engine = "pure Python — core not built or CARDTABLE_PURE=1"
    else:
        engine = "compiled core"
    print(f"engine: {engine}")
    if fast.available():
        sizes = ", ".join(f"{players} players {clone_size(players)} B" for players in counts)
        print(f"core state (one clone): {sizes}")
    for title, way in sections(args.bot):
        print()
        print(title)
        table(counts, way, args.games, args.repeats, args.seed)
    if fast.available():
        print()
        print(f"sampled worlds of a game {WORLD_AT} actions after the swaps, as P1 sees it "
              "(us of CPU time per world, medians)")
        worlds_table(counts, args.repeats, args.seed)
    return 0
