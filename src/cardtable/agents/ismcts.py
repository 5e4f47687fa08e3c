"""Information-set Monte Carlo tree search (ISMCTS), one implementation for every game.

The seat sees only its observation. The search sees a game only through its *worlds*
(:class:`~cardtable.engine.search.Worlds`): each decision asks them for a world consistent
with the observation at every iteration, walks down the tree in it, adds one node, plays the
rest out with the rollout policy and backs the result up. A game's description may give its
own worlds (Caravan's and Obsession's, in their compiled cores: one world dealt by
``game.sample_world(observation, seed)`` and loaded into the core, every iteration's world
dealt again from it by the core's sampler); any other game's come from the state protocol
(:mod:`cardtable.agents.protocol_search`: every world dealt by
``game.sample_world(observation, seed)``, uniformly random rollouts).

The tree is keyed by the seat's information set: a node is the sequence of actions taken from
the root (as action keys: Caravan's packed move codes with the card in place of its hand
position; Obsession's faces and numbers of copies; any other game's actions), whatever world
they were taken in. An edge remembers its visits, the reward of the seat that took it and its
*availability*: how many times it was legal when its parent was visited. Selection is UCB1
over the edges legal in the current world, with availability in place of the parent's visits
(single-observer ISMCTS, Cowling, Powley and Whitehouse 2012):

    score = reward / visits + c * sqrt(log(availability) / visits)

An edge not yet tried in this world is tried first (the first in the world's legal order
among those untried, drawn by the search's own generator). The move played is the root edge
visited most (ties: the earlier in legal order). Everything random is drawn from seeds
derived from the bot's seed, the move number and the iteration, so the same seed and the same
iteration budget give the same moves; a time budget (``time=``) stops after a number of
iterations that depends on the machine.

``omniscient`` is the same search over the true state, for calibration only: it needs to be
shown the state with :meth:`Omniscient.watch` (benchmarks and tournaments do; the match loop
never does).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from cardtable.engine.description import UnknownBot
from cardtable.engine.errors import IllegalAction
from cardtable.engine.one_line import one_line
from cardtable.engine.search import SearchOptions, World, Worlds, WorldsFactory
from cardtable.engine.search_limits import MAX_ITERATIONS, MAX_SECONDS

__all__ = ["Edge", "Omniscient", "SearchOptions", "SearchSeat", "World", "Worlds",
           "WorldsFactory", "parse_options", "search"]

OPPONENT_MODELS = ("tree", "policy")
ROOT_SEARCHES = ("ucb", "halving")


class Edge:
    """An edge of the tree: the action's statistics and the node below it."""

    __slots__ = ("available", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.visits = 0
        self.reward = 0.0
        self.available = 1
        self.mover = mover
        self.children: dict[Hashable, Edge] = {}


def search(worlds: Worlds, options: SearchOptions,
           seed: int) -> tuple[Hashable, dict[Hashable, Edge]]:
    """Run the search; returns the chosen root key and the root's edges."""
    rng = random.Random(seed)
    root: dict[Hashable, Edge] = {}
    if options.root == "halving" and options.seconds is None:
        return _halving(worlds, options, rng, root), root
    deadline = None if options.seconds is None else time.perf_counter() + options.seconds
    limit = options.iterations if deadline is None else 1 << 62
    own = worlds.seat if options.opponents == "policy" else -1
    iteration = 0
    while iteration < limit:
        if deadline is not None and iteration & 15 == 0 and time.perf_counter() >= deadline \
                and root:
            break
        _iterate(worlds.sample(rng.getrandbits(62)), root, [], rng, options.exploration, own)
        iteration += 1
    chosen = max(root.items(), key=lambda item: item[1].visits)[0]
    return chosen, root


def _iterate(world: World, node: dict[Hashable, Edge], path: list[Edge], rng: random.Random,
             c: float, own: int, rollout_seed: int | None = None) -> None:
    """One iteration from ``node`` (reached by ``path``) in ``world``: select by UCB down the
    tree, add one edge, play out (seeded by ``rollout_seed`` if given) and back the rewards up
    along the path."""
    log = math.log
    sqrt = math.sqrt
    while True:
        mover = world.mover()
        if mover < 0:
            break
        if own >= 0 and mover != own:
            world.advance(own, rng.getrandbits(62))
            continue
        keys = world.keys()
        untried: list[Hashable] = []
        best: Edge | None = None
        best_key: Hashable = None
        best_score = -1.0
        for key in keys:
            edge = node.get(key)
            if edge is None:
                untried.append(key)
                continue
            edge.available += 1
            if untried:
                continue
            visits = edge.visits
            score = edge.reward / visits + c * sqrt(log(edge.available) / visits)
            if score > best_score:
                best_score = score
                best = edge
                best_key = key
        if untried:
            key = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            edge = Edge(mover)
            node[key] = edge
            world.play(key)
            path.append(edge)
            break
        assert best is not None
        world.play(best_key)
        path.append(best)
        node = best.children
    if mover >= 0:
        world.rollout(rng.getrandbits(62) if rollout_seed is None else rollout_seed)
    rewards = world.rewards()
    for edge in path:
        edge.visits += 1
        edge.reward += rewards[edge.mover]


def _halving(worlds: Worlds, options: SearchOptions, rng: random.Random,
             root: dict[Hashable, Edge]) -> Hashable:
    """Sequential halving at the root (Karnin, Koren and Somekh 2013) with common random
    numbers: in each round every move still in play is tried the same number of times, each
    time in the same sampled world and with the same rollout seed as the others, and the
    better half by mean reward goes on; below the root the tree is searched as usual. The
    moves are compared in the same worlds, so the luck of the deal, which moves every move's
    reward alike, does not decide between them."""
    own = worlds.seat if options.opponents == "policy" else -1
    c = options.exploration
    alive = list(worlds.sample(0).keys())
    for key in alive:
        root[key] = Edge(worlds.seat)
        root[key].available = 0
    rounds = max(1, math.ceil(math.log2(len(alive))))
    for _ in range(rounds):
        each = max(1, options.iterations // (rounds * len(alive)))
        for _ in range(each):
            world_seed = rng.getrandbits(62)
            rollout_seed = rng.getrandbits(62)
            for key in alive:
                world = worlds.sample(world_seed)
                edge = root[key]
                edge.available += 1
                world.play(key)
                _iterate(world, edge.children, [edge], rng, c, own, rollout_seed)
        ranked = sorted(range(len(alive)),
                        key=lambda index: (-root[alive[index]].reward / root[alive[index]].visits,
                                           index))
        alive = [alive[index] for index in sorted(ranked[:(len(alive) + 1) // 2])]
    return max(alive, key=lambda key: root[key].reward / root[key].visits)


def _plain(value: float) -> str:
    """``1``, ``0.001``, ``1000000`` (never ``1e+06``)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _number(spec_name: str, key: str, text: str, low: float, integer: bool,
            high: float = math.inf) -> float:
    """The option's value, refused in one line unless from ``low`` to ``high`` (and finite)."""
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        value = math.nan
    if not low <= value <= high or math.isinf(value):
        kind = "an integer" if integer else "a number"
        bounds = (f">= {_plain(low)}" if math.isinf(high)
                  else f"from {_plain(low)} to {_plain(high)}")
        raise UnknownBot(f"Invalid value '{one_line(text)}' for the option '{key}' of the bot "
                         f"'{spec_name}' (expected {kind} {bounds}).")
    return value


def parse_options(name: str, options: dict[str, str] | Any, default_c: float,
                  rollouts: Sequence[str], default_iterations: int = 1000,
                  default_opponents: str = "tree",
                  choices: Mapping[str, Sequence[str]] | None = None,
                  default_root: str = "ucb") -> SearchOptions:
    """``iters=``, ``time=``, ``c=``, ``rollout=``, ``root=``, ``opponents=`` and the game's
    own named options (``choices``: name → the values it takes, the first the default;
    Obsession's ``reward=``, ``swap=``, ``infer=`` and ``omniscient``'s ``sight=``) of a bot
    spec, each checked (one-line :class:`~cardtable.engine.description.UnknownBot` refusals)."""
    choices = choices or {}
    iterations = default_iterations
    seconds: float | None = None
    c = default_c
    rollout = ""
    opponents = default_opponents
    root = default_root
    chosen = {key: values[0] for key, values in choices.items()}
    for key, value in options.items():
        if key in ("iters", "iterations"):
            iterations = int(_number(name, key, value, 1, True, MAX_ITERATIONS))
        elif key == "time":
            seconds = _number(name, key, value, 0.001, False, MAX_SECONDS)
        elif key == "c":
            c = _number(name, key, value, 0, False)
        elif key == "rollout":
            if value.lower() not in rollouts:
                raise UnknownBot(f"Unknown rollout '{value}' for the bot '{name}' "
                                 f"(rollouts: {', '.join(rollouts)}).")
            rollout = value.lower()
        elif key == "root":
            if value.lower() not in ROOT_SEARCHES:
                raise UnknownBot(f"Unknown root search '{value}' for the bot '{name}' "
                                 f"(roots: {', '.join(ROOT_SEARCHES)}).")
            root = value.lower()
        elif key == "opponents":
            if value.lower() not in OPPONENT_MODELS:
                raise UnknownBot(f"Unknown opponent model '{value}' for the bot '{name}' "
                                 f"(opponents: {', '.join(OPPONENT_MODELS)}).")
            opponents = value.lower()
        elif key in choices:
            if value.lower() not in choices[key]:
                raise UnknownBot(f"Unknown {key} '{value}' for the bot '{name}' "
                                 f"({key}s: {', '.join(choices[key])}).")
            chosen[key] = value.lower()
        else:
            known = ", ".join(["iters", "time", "c", "rollout", "root", "opponents", *choices])
            raise UnknownBot(f"The bot '{name}' takes no option '{key}' (options: {known}).")
    return SearchOptions(iterations, seconds, c, rollout, root, opponents, chosen)


class SearchSeat:
    """A seat that searches at every decision: ``ismcts`` from its observation."""

    name = "ismcts"

    def __init__(self, factory: WorldsFactory, options: SearchOptions, seed: int | str) -> None:
        self.factory = factory
        self.options = options
        self.seed = seed
        self.decisions = 0
        self.last_root: dict[Hashable, Edge] = {}
        """The root's edges of the last search (for tests and tools)."""
        self.last_worlds: Worlds | None = None

    def _seed(self) -> int:
        self.decisions += 1
        return random.Random(f"{self.seed}:{self.name}:{self.decisions}").getrandbits(62)

    def decide(self, view: Any) -> Any:
        seed = self._seed()
        worlds = self.factory(view, seed, self.options)
        forced = worlds.shortcut()
        if forced is not None:
            return forced
        key, self.last_root = search(worlds, self.options, seed)
        self.last_worlds = worlds
        return worlds.action(key)

    def choose(self, observation: Any) -> Any:
        return self.decide(observation)

    def rejected(self, error: IllegalAction) -> None:
        # The search only proposes legal actions; a refusal is a bug to surface.
        raise RuntimeError(f"bot {self.name} proposed an illegal action: {error}")


class Omniscient(SearchSeat):
    """The same search over the true state (every card seen): calibration only.

    ``watch(state)`` must be called with the game's state before play (``registry.show_state``;
    the seat then reads it at each decision instead of its observation).
    """

    name = "omniscient"

    def __init__(self, factory: WorldsFactory, options: SearchOptions, seed: int | str) -> None:
        super().__init__(factory, options, seed)
        self.state: Any = None

    def watch(self, state: Any) -> None:
        self.state = state

    def choose(self, observation: Any) -> Any:
        if self.state is None:
            raise RuntimeError("the omniscient bot must be shown the game's state (watch)")
        return self.decide(self.state)
