"""The search's worlds for any game, through the state protocol alone.

A game whose description gives no search parts of its own
(:meth:`~cardtable.engine.description.GameDescription.search` returns None) is searched here:

- ``ismcts`` deals one world from the seat's observation with the game's sampler,
  ``game.sample_world(observation, seed)``, and every iteration's world from that one with the
  state's sampler, ``world.sample_world(seat, seed)``, which deals again everything the seat
  cannot see (a state without one: every world from the observation); ``omniscient`` plays
  every iteration in a copy of the true state (``state.clone()``);
- a world's moves are ``state.legal_actions()`` in the game's order, played with
  ``state.apply``; the tree's keys are the actions themselves, or their notation
  (``state.action_text``) for a game whose actions cannot be dict keys;
- below the tree every seat plays uniformly random legal actions (``rollout=random``, the one
  rollout) to the end of the game, or for at most :data:`MAX_ROLLOUT_MOVES` moves (the
  description's ``max_moves`` when it sets a smaller cap);
- a finished world scores each seat by its place (``description.places(result, seats)``): 1
  for the first, 0 for the last, in even steps, tied seats sharing the places they fill
  (:func:`cardtable.engine.search.shared_rewards`); a world stopped by the cap scores every
  seat alike.

Everything random is drawn from the seeds the search hands down, so the same seed and budget
give the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from cardtable.engine.protocol import Result
from cardtable.engine.search import (
    SearchOptions,
    SearchParts,
    World,
    Worlds,
    WorldsFactory,
    shared_rewards,
)

ROLLOUTS = ("random",)
DEFAULT_C = 0.7
"""UCB exploration for rewards in 0..1 (as Obsession's and Austerity's ``mcts``)."""
MAX_ROLLOUT_MOVES = 10_000
"""The longest random playout: a game whose random play may never end is scored as a tie of
every seat after this many moves."""

Places = Callable[[Result, Sequence[str]], list[int]]


class ProtocolWorld:
    """A game state as the search plays it."""

    __slots__ = ("cap", "index", "named", "places", "seats", "state")

    def __init__(self, state: Any, seats: tuple[str, ...], index: dict[str, int],
                 places: Places, named: bool, cap: int) -> None:
        self.state = state
        self.seats = seats
        self.index = index
        self.places = places
        self.named = named
        """Whether the keys are the actions' notation rather than the actions."""
        self.cap = cap

    def mover(self) -> int:
        seat = self.state.to_move
        return -1 if seat is None else self.index[seat]

    def keys(self) -> Sequence[Hashable]:
        actions: list[Any] = self.state.legal_actions()
        if self.named:
            return [self.state.action_text(action) for action in actions]
        return actions

    def play(self, key: Hashable) -> None:
        state = self.state
        state.apply(state.parse_action(key) if self.named else key)

    def _random_moves(self, rng: random.Random, until: int) -> None:
        """Random legal moves until the seat ``until`` is to move (-1: the end), the game is
        over or the cap is reached."""
        state = self.state
        index = self.index
        moves = 0
        while moves < self.cap:
            seat = state.to_move
            if seat is None or index[seat] == until:
                return
            legal = state.legal_actions()
            if not legal:  # a seat to move without a move: nothing more to play
                return
            state.apply(legal[rng.randrange(len(legal))])
            moves += 1

    def rollout(self, seed: int) -> None:
        self._random_moves(random.Random(seed), -1)

    def advance(self, seat: int, seed: int) -> None:
        self._random_moves(random.Random(seed), seat)

    def rewards(self) -> Sequence[float]:
        result = self.state.result
        if result is None:
            return [0.5] * len(self.seats)  # stopped short of an end: a tie of every seat
        return shared_rewards(self.places(result, self.seats))


def _hashable(actions: Sequence[Any]) -> bool:
    try:
        for action in actions:
            hash(action)
    except TypeError:
        return False
    return True


class ProtocolWorlds:
    """The worlds of one decision: dealt from one world the game's sampler deals from the
    observation, or copies of the true state for ``omniscient``."""

    def __init__(self, game: Any, view: Any, seed: int, omniscient: bool, places: Places,
                 cap: int) -> None:
        self.game = game
        self.view = view
        self.omniscient = omniscient
        self.places = places
        self.cap = cap
        start = view if omniscient else game.sample_world(view, seed)
        self.start = start
        seats = tuple(start.seats)
        self.seats = seats
        self.index = {seat: number for number, seat in enumerate(seats)}
        mover = start.to_move
        if mover is None:
            raise RuntimeError("the search was asked to move in a finished game")
        self.mover: str = mover
        self.seat = self.index[mover]
        # The state's own sampler deals again only what the seat cannot see, and costs less
        # than the game's, which rebuilds a whole state from the observation.
        self.resample = callable(getattr(start, "sample_world", None))
        self.legal: list[Any] = start.legal_actions()
        self.named = not _hashable(self.legal)
        self.root = {start.action_text(action) if self.named else action: action
                     for action in self.legal}

    def _deal(self, seed: int) -> Any:
        if self.omniscient:
            return self.view.clone()
        if self.resample:
            return self.start.sample_world(self.mover, seed)
        return self.game.sample_world(self.view, seed)

    def sample(self, seed: int) -> World:
        return ProtocolWorld(self._deal(seed), self.seats, self.index, self.places, self.named,
                             self.cap)

    def action(self, key: Hashable) -> Any:
        return self.root[key]

    def shortcut(self) -> Any | None:
        return self.legal[0] if len(self.legal) == 1 else None


def protocol_worlds(game: Any, omniscient: bool = False) -> WorldsFactory:
    """The worlds factory of the loaded ``game`` through the state protocol (``omniscient``:
    from the true state). Refuses, as :class:`~cardtable.engine.description.UnknownBot`, a
    game that cannot be searched so: ``ismcts`` needs ``game.sample_world``."""
    from cardtable.engine.description import UnknownBot
    from cardtable.engine.game_registry import description

    if not omniscient and not callable(getattr(game, "sample_world", None)):
        raise UnknownBot(f"The bot 'ismcts' cannot play {game.name}: the game deals no world "
                         "from a seat's observation (game.sample_world).")
    described = description(game.name)
    cap = min(MAX_ROLLOUT_MOVES, described.max_moves or MAX_ROLLOUT_MOVES)

    def factory(view: Any, seed: int, options: SearchOptions) -> Worlds:
        return ProtocolWorlds(game, view, seed, omniscient, described.places, cap)
    return factory


PARTS = SearchParts(protocol_worlds, ROLLOUTS, DEFAULT_C, "tree")
"""The search of a game that gives none of its own."""
