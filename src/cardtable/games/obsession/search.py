"""Obsession's part of the search bots (``ismcts``, ``omniscient``): worlds in the compiled core.

The description hands these to the search (:meth:`ObsessionDescription.search`, a
:class:`~cardtable.engine.search.SearchParts`) with Obsession's own options of the search:
``reward=`` (:data:`PLACE_REWARDS`), ``swap=`` (:data:`OBSESSION_SWAPS`), ``infer=``
(:data:`OBSESSION_INFERENCES`) and ``omniscient``'s ``sight=`` (:data:`OBSESSION_SIGHTS`).
Each decision builds one world consistent with what the seat sees (for ``omniscient``, the
true state) with the game's Python sampler and loads it into the compiled core once; each
iteration's world is then drawn by the core's sampler from that state. Without the core the
description offers none of this and the search plays Obsession through the state protocol.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from cardtable.engine.search import SearchOptions, SearchParts, World, Worlds, WorldsFactory
from cardtable.games.obsession.cards import FACE as _FACE

PLACE_REWARDS = ("linear", "square", "ends", "win")
"""How a placing is scored (``reward=``), from 1 for first to 0 for last: ``linear`` in even
steps (four seats: 1, 2/3, 1/3, 0), ``square`` the square of that (1, 4/9, 1/9, 0: a first
place counts more against the middle places), ``ends`` one half for every place between the
first and the last (1, 1/2, 1/2, 0: only going out first and being left last count),
``win`` only a first place."""


@functools.lru_cache(maxsize=4096)
def placing_rewards(placings: tuple[int, ...], count: int,
                    scale: str = "linear") -> tuple[float, ...]:
    """Rewards in 0..1 for each of ``count`` seats from the placings (0-based seats, first
    place first), by ``scale`` (:data:`PLACE_REWARDS`); the seats not placed (at a stalemate)
    share the places left. With two seats: 1 for the winner, 0 for the other, 0.5 each when
    nobody went out, whatever the scale."""
    def value(place: int) -> float:
        linear = 1.0 - place / (count - 1)
        if scale == "square":
            return linear * linear
        if scale == "win":
            return 1.0 if place == 0 else 0.0
        if scale == "ends" and 0 < place < count - 1:
            return 0.5
        return linear

    rewards = [0.0] * count
    for place, seat in enumerate(placings):
        rewards[seat] = value(place)
    left = [seat for seat in range(count) if seat not in placings]
    if left:
        share = sum(value(place) for place in range(len(placings), count)) / len(left)
        for seat in left:
            rewards[seat] = share
    return tuple(rewards)


OBSESSION_ROLLOUTS = ("obsessed", "random")
OBSESSION_INFERENCES = ("policy", "rules", "none")
"""``infer=``: what the worlds take from the other seats' choices (``inference``)."""
OBSESSION_SWAPS = ("obsessed", "search")
"""``swap=``: take the ``obsessed`` swap (the default), or search it."""
OBSESSION_SIGHTS = ("all", "hands")
"""``omniscient``'s ``sight=``: every card (the default: the true state, the draw pile's order
and the hidden rows included), or only the other seats' hands, the draw pile and the hidden
rows dealt again in every world as ``ismcts`` deals them."""


class ObsessionWorld:
    """A compiled Obsession game; its keys are the core's (``FastGame.legal_keys``: the face
    and number of copies of a play, whatever their suits and decks; 0 for a blind attempt)."""

    __slots__ = ("draw", "game", "policy", "scale", "seats")

    def __init__(self, game: Any, policy: str, seats: Sequence[str],
                 draw: Callable[[], float], scale: str) -> None:
        self.game = game
        self.policy = policy
        self.seats = seats
        self.draw = draw
        self.scale = scale

    def mover(self) -> int:
        game = self.game
        return -1 if game.over else int(game.current)

    def keys(self) -> Sequence[Hashable]:
        keys: list[int] = self.game.legal_keys()
        return keys

    def play(self, key: Hashable) -> None:
        self.game.apply_key(key)

    def rollout(self, seed: int) -> None:
        if self.game.over:
            return
        if self.policy == "random":
            self.game.playout(seed)
        else:
            draw = random.Random(seed).random
            self.game.playout_obsessed([draw] * len(self.seats))

    def advance(self, seat: int, seed: int) -> None:
        if self.policy == "random":
            self.game.playout(seed, seat)
        else:
            self.game.playout_obsessed([self.draw] * len(self.seats), seat)

    def rewards(self) -> Sequence[float]:
        return placing_rewards(self.game.placings, len(self.seats), self.scale)


def swap_keys(pool: Sequence[int]) -> dict[tuple[int, ...], tuple[int, ...]]:
    """The swaps of a pool as tree keys: the faces put face up (suits and decks play alike),
    each mapped to the first choice of cards with those faces (display order)."""
    from itertools import combinations

    keys: dict[tuple[int, ...], tuple[int, ...]] = {}
    for visible in combinations(pool, 3):
        keys.setdefault(tuple(_FACE[card] for card in visible), visible)
    return keys


class ObsessionSwapWorld:
    """A world at the seat's swap, in Python: its keys are :func:`swap_keys`; once the seat
    has swapped, the seats after it swap as ``obsessed`` does and the game goes on in the
    compiled core (an :class:`ObsessionWorld`)."""

    __slots__ = ("inner", "make", "seat", "state", "swaps")

    def __init__(self, state: Any, seat: int, swaps: dict[tuple[int, ...], tuple[int, ...]],
                 make: Callable[[Any], ObsessionWorld]) -> None:
        self.state = state
        self.seat = seat
        self.swaps = swaps
        self.make = make
        self.inner: ObsessionWorld | None = None

    def mover(self) -> int:
        return self.seat if self.inner is None else self.inner.mover()

    def keys(self) -> Sequence[Hashable]:
        return list(self.swaps) if self.inner is None else self.inner.keys()

    def play(self, key: Hashable) -> None:
        if self.inner is not None:
            self.inner.play(key)
            return
        from cardtable.games.obsession.actions import Swap
        from cardtable.games.obsession.bots import obsessed_swap
        from cardtable.games.obsession.fast import FastGame

        state = self.state
        state.apply(Swap(self.swaps[key]))  # type: ignore[index]
        while not state.over and state.observation(state.current).phase == "swap":
            state.apply(Swap(obsessed_swap(state.observation(state.current).pool)))
        self.inner = self.make(FastGame.from_game(state))

    def _played(self) -> ObsessionWorld:
        if self.inner is None:
            raise RuntimeError("the seat's swap comes first")
        return self.inner

    def rollout(self, seed: int) -> None:
        self._played().rollout(seed)

    def advance(self, seat: int, seed: int) -> None:
        self._played().advance(seat, seed)

    def rewards(self) -> Sequence[float]:
        return self._played().rewards()


def true_hands(state: dict[str, Any], seat: int) -> tuple[tuple[int, ...], ...]:
    """Masks in the shape of ``Observation.lacks`` that deal every other seat's hand its true
    faces (each card of the part of the hand nobody saw go in rules out every other face)
    from ``state`` (``FastGame.export``): ``omniscient:sight=hands``."""
    from cardtable.games.obsession.cards import FACE
    from cardtable.games.obsession.inference import ALL_FACES, mask_of

    every = mask_of(ALL_FACES)
    return tuple(() if other == seat else
                 tuple(every & ~(1 << FACE[card]) for card in hand
                       if card not in state["known"][other])
                 for other, hand in enumerate(state["hands"]))


def inferred(observation: Any, infer: str) -> Any:
    """``observation`` with the facts of ``Observation.lacks`` that ``infer`` takes."""
    from dataclasses import replace

    from cardtable.games.obsession.inference import RULES_MASK

    if infer == "policy" or not observation.lacks:
        return observation
    if infer == "none":
        return replace(observation, lacks=())
    return replace(observation, lacks=tuple(tuple(slot & RULES_MASK for slot in slots)
                                            for slots in observation.lacks))


class ObsessionWorlds:
    """The worlds of one Obsession decision. A blind attempt takes the first hidden card (the
    hidden cards are alike to the seat); the swap is the ``obsessed`` swap, or searched with
    ``swap=search`` (each world dealt in Python: a swap is one decision a game). The
    ``obsessed`` rollouts of a decision draw their numbers from one generator seeded with the
    decision's seed."""

    def __init__(self, view: Any, seed: int, options: SearchOptions, game: Any,
                 omniscient: bool = False) -> None:
        from cardtable.games.obsession.actions import Blind, Swap
        from cardtable.games.obsession.bots import obsessed_swap
        from cardtable.games.obsession.fast import FastGame
        from cardtable.games.obsession.inference import combined

        self.policy = options.rollout or "obsessed"
        self.scale = options.choice("reward") or "linear"
        self.seats = tuple(game.seats)
        self.forced: Any = None
        self.core: Any = None
        self.draw = random.Random(seed).random
        if omniscient:
            self.seat = int(view.current)
            observation = view.observation(self.seat)
        else:
            self.seat = int(view.seat)
            observation = view
        self.omniscient = omniscient
        self.swaps: dict[tuple[int, ...], tuple[int, ...]] = {}
        if observation.phase == "swap":
            if options.choice("swap") != "search":
                self.forced = Swap(obsessed_swap(observation.pool))
                return
            self.swaps = swap_keys(observation.pool)
            self.view = view
            self.game = game
            if len(self.swaps) == 1:
                self.forced = Swap(next(iter(self.swaps.values())))
            return
        if observation.source == "hidden":
            self.forced = Blind(1)
            return
        if not omniscient:
            view = inferred(view, options.choice("infer") or OBSESSION_INFERENCES[0])
        start = view.clone() if omniscient else game.sample_world(view, seed)
        self.core = FastGame.from_game(start)
        # Every world a copy of the true state, or dealt with the faces ``lacks`` rules out
        # kept out of the hands: what the other seats' choices showed (``inference``), or
        # for ``sight=hands`` every face but the true one.
        self.clones = omniscient and options.choice("sight") != "hands"
        self.lacks: tuple[tuple[int, ...], ...] = ()
        if not omniscient:
            self.lacks = tuple(map(combined, view.lacks))
        elif not self.clones:
            self.lacks = true_hands(self.core.export(), self.seat)
        keys = self.core.legal_keys()
        if len(keys) == 1:
            self.forced = self.core.action_of_key(keys[0])

    def sample(self, seed: int) -> World:
        if self.swaps:
            state = self.view.clone() if self.omniscient else \
                self.game.sample_world(self.view, seed)
            return ObsessionSwapWorld(state, self.seat, self.swaps, self._world)
        core = self.core.clone() if self.clones else \
            self.core.sample_world(self.seat, seed, self.lacks)
        return self._world(core)

    def _world(self, core: Any) -> ObsessionWorld:
        return ObsessionWorld(core, self.policy, self.seats, self.draw, self.scale)

    def action(self, key: Hashable) -> Any:
        if self.swaps:
            from cardtable.games.obsession.actions import Swap

            return Swap(self.swaps[key])  # type: ignore[index]
        return self.core.action_of_key(key)

    def shortcut(self) -> Any | None:
        return self.forced


def obsession_worlds(game: Any, omniscient: bool = False) -> WorldsFactory:
    """The worlds factory of the loaded Obsession ``game`` (``omniscient``: from the true
    state)."""
    def factory(view: Any, seed: int, options: SearchOptions) -> Worlds:
        return ObsessionWorlds(view, seed, options, game, omniscient)
    return factory


DEFAULT_C = 0.7
"""UCB exploration."""
DEFAULT_OPPONENTS = "policy"
"""How the search models the other seats (``opponents=``): the worlds deal the other seats
hands consistent with the ``obsessed`` policy (``infer=policy``), so they are played by it
too."""


def search_parts() -> SearchParts | None:
    """Obsession's search, or None without the compiled core (the search then plays
    Obsession through the state protocol)."""
    from cardtable.games.obsession import fast

    if not fast.available():
        return None
    return SearchParts(obsession_worlds, OBSESSION_ROLLOUTS, DEFAULT_C, DEFAULT_OPPONENTS,
                       {"reward": PLACE_REWARDS, "swap": OBSESSION_SWAPS,
                        "infer": OBSESSION_INFERENCES},
                       {"sight": OBSESSION_SIGHTS})
