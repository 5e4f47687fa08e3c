"""``mcts``: Monte Carlo tree search for Austerity, as a strategy ``choose(table, me)``.

Austerity hides nothing but the deck, so the search is plain UCT over the table with the
card draws *sampled, not expanded*: every iteration deals a fresh deck and walks the tree by
actions alone (an open-loop tree: a node is the sequence of actions from the root, whichever
cards were drawn on the way). The deck is dealt from what the player knows of it
(:class:`SeenCards`): cards drawn with replacement from every card it has seen turned up, the
bought ones included, and no card at all once the deck has run out (a market of fewer than
eight cards says so). Neither the deck's size nor its cards are told to a player program, and
the search at an ``AusterityState`` uses no more.

The player is not told who it plays, but it watches: from one of its turns to the next it
reads what each opponent did and keeps the strategies (shenzi, banzai, ed) that would have done
the same (:mod:`cardtable.games.austerity.opponents`). In each iteration an opponent with such
candidates follows one of them, drawn at random, in the tree and below it, so the tree branches
only on the player's own moves; an opponent that no strategy explains (a person, another
search) is searched like the player, each seat choosing by its own score. Below the tree every
seat without a candidate follows one of the three strategies drawn at random for that playout.
A playout ends when a round ends with someone at the target, when a purchase empties the market,
or after ``MAX_PLAYOUT_TURNS``; each seat scores 1 for the most points (shared evenly on a tie)
and the search backs up every seat's own score.

The player programs are not told the points target, so they assume the hub's default (15)
unless the spec says otherwise (``mcts:points=20``). Options: ``iters`` (default 1000),
``time`` (seconds per decision, instead of iterations), ``c`` (exploration, default 0.7),
``points``, ``seed``. The same seed and iteration budget give the same actions.

On the player's start-up path: imports only ``math``, ``random``, ``time``, the rules and the
strategies.
"""

import math
import random
import time

from cardtable.engine.search_limits import MAX_ITERATIONS, MAX_SECONDS
from cardtable.games.austerity.opponents import POLICIES, OpponentModel, game_on
from cardtable.games.austerity.rules import MARKET_LIMIT, Action, Card, Table
from cardtable.games.austerity.state import legal_actions_on

# Not ``typing.TYPE_CHECKING``: importing typing costs every player start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from cardtable.games.austerity.state import AusterityState

DEFAULT_ITERATIONS = 1000
DEFAULT_POINTS = 15
MAX_PLAYOUT_TURNS = 400
DECK_SAMPLE = 48


def _scores(points: list[int]) -> list[float]:
    best = max(points)
    top = [player for player, value in enumerate(points) if value == best]
    share = 1.0 / len(top)
    return [share if player in top else 0.0 for player in range(len(points))]


class SeenCards:
    """What a player knows of the deck from the tables it is shown: the cards it has seen
    turned up, each as many times as it was seen at once in the market (a card bought later
    stays counted: it is still a sample of what the deck holds), and whether the deck has run
    out. The hub turns up a card after every purchase while the deck lasts, so a market of
    fewer than eight cards means the deck is spent."""

    def __init__(self) -> None:
        self.counts: dict[Card, int] = {}

    def see(self, table: Table) -> None:
        """Count the cards of ``table``'s market."""
        counts: dict[Card, int] = {}
        for card in table.market:
            counts[card] = counts.get(card, 0) + 1
        for card, count in counts.items():
            if self.counts.get(card, 0) < count:
                self.counts[card] = count

    def draws(self, table: Table) -> list[Card]:
        """The cards a draw from the deck is sampled from on ``table`` (each card as many times
        as it was seen, in the order first seen); empty when the deck has run out."""
        if len(table.market) < MARKET_LIMIT:
            return []
        return [card for card, count in self.counts.items() for _ in range(count)]


class _Edge:
    __slots__ = ("children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.visits = 0
        self.reward = 0.0
        self.player = player
        self.children: dict[Action, _Edge] = {}


class MctsStrategy:
    """The search as a stateful strategy: ``strategy(table, me) -> action``, called at each of
    one game's turns in order (it learns the opponents' strategies from one turn to the
    next)."""

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, seconds: float | None = None,
                 c: float = 0.7, points: int = DEFAULT_POINTS, seed: int | str = 0) -> None:
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.points = points
        self.seed = seed
        self.decisions = 0
        self.opponents: OpponentModel | None = None
        self._last: tuple[Table, int, Action] | None = None
        self.seen = SeenCards()

    def __call__(self, table: Table, me: int) -> Action:
        self.decisions += 1
        if self.opponents is None or len(self.opponents.candidates) != table.count:
            self.opponents = OpponentModel(table.count)
            self.seen = SeenCards()
        elif self._last is not None and self._last[1] == me:
            self.opponents.learn(self._last[0], me, self._last[2], table)
        self.seen.see(table)
        actions = legal_actions_on(table, me)
        action = actions[0] if len(actions) == 1 else self._search(table, me, actions)
        self._last = (table.copy(), me, action)
        return action

    def _deck(self, rng: random.Random, draws: list[Card]) -> list[Card]:
        """The deck of one iteration: ``DECK_SAMPLE`` cards drawn from ``draws``."""
        return [draws[rng.randrange(len(draws))] for _ in range(DECK_SAMPLE)] if draws else []

    def _search(self, table: Table, me: int, actions: list[Action]) -> Action:
        rng = random.Random(f"{self.seed}:mcts:{me}:{self.decisions}")
        draws = self.seen.draws(table)
        root: dict[Action, _Edge] = {}
        c = self.c
        log, sqrt = math.log, math.sqrt
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations if deadline is None else 1 << 62
        count = table.count
        assert self.opponents is not None
        # Each opponent's candidate strategies; () where none fits (it is searched instead).
        known = [() if player == me else self.opponents.policies(player)
                 for player in range(count)]
        done = 0
        while done < limit:
            if deadline is not None and done & 7 == 0 and root and \
                    time.perf_counter() >= deadline:
                break
            done += 1
            deck = self._deck(rng, draws)
            # Who plays what in this iteration: an opponent known to play one of the
            # strategies follows one of its candidates throughout (its moves are not searched);
            # the others are searched in the tree and follow a random strategy below it.
            fixed = [POLICIES[options[rng.randrange(len(options))]] if options else None
                     for options in known]
            policies = [policy or POLICIES[rng.randrange(len(POLICIES))] for policy in fixed]
            game = game_on(table, me, deck, self.points)
            game.table.track_affordability()
            node = root
            parent_visits = done
            path: list[_Edge] = []
            expanded = False
            while not game.finished and not expanded:
                player = game.current
                policy = fixed[player]
                if policy is not None:
                    game.play(policy(game.table, player))
                    continue
                options = legal_actions_on(game.table, player)
                best: _Edge | None = None
                best_action = options[0]
                best_score = -1.0
                untried = [action for action in options if action not in node]
                if untried:
                    best_action = untried[rng.randrange(len(untried))]
                    best = _Edge(player)
                    node[best_action] = best
                    expanded = True
                else:
                    log_n = log(max(parent_visits, 1))
                    for action in options:
                        edge = node[action]
                        score = edge.reward / edge.visits + c * sqrt(log_n / edge.visits)
                        if score > best_score:
                            best_score, best, best_action = score, edge, action
                assert best is not None
                game.play(best_action)
                path.append(best)
                parent_visits = best.visits + 1
                node = best.children
            turns = 0
            while not game.finished and turns < MAX_PLAYOUT_TURNS:
                player = game.current
                game.play(policies[player](game.table, player))
                turns += 1
            scores = _scores(game.table.points)
            for edge in path:
                edge.visits += 1
                edge.reward += scores[edge.player]
        return max(actions, key=lambda action: root[action].visits if action in root else -1)


class OmniscientMcts(MctsStrategy):
    """The same search dealt the rest of the real deck in every iteration (calibration only:
    no player knows it). ``state`` must be the game's ``AusterityState``, read at each
    decision."""

    def __init__(self, *args: "Any", **options: "Any") -> None:
        super().__init__(*args, **options)
        self.state: AusterityState | None = None

    def _deck(self, rng: random.Random, draws: list[Card]) -> list[Card]:
        if self.state is None:
            raise RuntimeError("the omniscient bot must be shown the game's state (watch)")
        game = self.state.game
        return list(game.deck[game.next_card:])


def parse_spec(text: str, bot: str = "mcts") -> MctsStrategy:
    """``mcts`` or ``mcts:iters=1000,time=0.5,c=0.7,points=15,seed=1``; ValueError with a
    one-line message otherwise, which names the options of ``bot``."""
    name, _, rest = text.partition(":")
    if name.strip().lower() != "mcts":
        raise ValueError(f"unknown strategy '{name.strip()}' (allowed: shenzi, banzai, ed, mcts)")
    values: dict[str, str] = {}
    for item in rest.split(",") if rest.strip() else ():
        key, equals, value = item.partition("=")
        if not equals or key.strip() not in ("iters", "time", "c", "points", "seed"):
            raise ValueError(f"invalid {bot} option '{item.strip()}' "
                             "(options: iters, time, c, points, seed)")
        values[key.strip()] = value.strip()
    try:
        iterations = int(values.get("iters", DEFAULT_ITERATIONS))
        seconds = float(values["time"]) if "time" in values else None
        c = float(values.get("c", 0.7))
        points = int(values.get("points", DEFAULT_POINTS))
    except ValueError:
        raise ValueError(f"{bot} options iters and points take integers, time and c "
                         "numbers") from None
    if not 1 <= iterations <= MAX_ITERATIONS or points < 1 or not c >= 0 or (
            seconds is not None and not 0 < seconds <= MAX_SECONDS):
        raise ValueError(f"{bot} options must be positive, and a decision's budget bounded "
                         f"(iters from 1 to {MAX_ITERATIONS}, points >= 1, time > 0 and "
                         f"<= {MAX_SECONDS:g}, c >= 0)")
    return MctsStrategy(iterations, seconds, c, points, values.get("seed", 0))
