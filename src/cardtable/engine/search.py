"""What a tree search and a game share: the worlds it searches and the options it takes.

The search (``ismcts`` and ``omniscient``, :mod:`cardtable.agents.ismcts`) plays one decision
in many *worlds*, each a game consistent with what the seat may see. Any game whose states
follow the state protocol is searched through it (:mod:`cardtable.agents.protocol_search`);
a game with a faster way (a compiled core) hands the search its own worlds through its
description (:meth:`~cardtable.engine.description.GameDescription.search`, which returns
:class:`SearchParts`). The games implement the protocols of this module, so they never import
the search itself.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class World(Protocol):
    """One sampled world as the search plays it."""

    def mover(self) -> int:
        """The 0-based seat to move, -1 once the game is over."""
        ...

    def keys(self) -> Sequence[Hashable]:
        """The legal actions as tree keys, in the game's canonical order."""
        ...

    def play(self, key: Hashable) -> None: ...

    def rollout(self, seed: int) -> None:
        """Play on to the end with the rollout policy."""
        ...

    def advance(self, seat: int, seed: int) -> None:
        """Play the other seats' moves with the rollout policy until ``seat`` is to move or
        the game is over."""
        ...

    def rewards(self) -> Sequence[float]:
        """Per seat, in 0..1, once the game is over."""
        ...


class Worlds(Protocol):
    """A game's worlds for one decision: where each iteration's world comes from."""

    seat: int

    def sample(self, seed: int) -> World:
        """A world consistent with the seat's observation, dealt by ``seed``."""
        ...

    def action(self, key: Hashable) -> Any:
        """The action of the game for a root key."""
        ...

    def shortcut(self) -> Any | None:
        """An action to take without searching (a forced or out-of-search decision), or None."""
        ...


@dataclass(frozen=True)
class SearchOptions:
    """The options of a search bot (``ismcts:iters=1000,c=0.7,rollout=random,time=0.5``)."""

    iterations: int = 1000
    seconds: float | None = None
    exploration: float = 0.4
    rollout: str = ""
    """The rollout policy's name; empty for the game's default."""
    root: str = "ucb"
    """How the root's moves share the iterations: ``ucb`` like every other node, or
    ``halving``: sequential halving with every move tried in the same worlds (an iteration
    budget only; with ``time=`` the root is UCB)."""
    opponents: str = "tree"
    """``tree``: the other seats' moves are edges of the tree, each chosen by UCB for the seat
    that makes it; ``policy``: the other seats play the rollout policy, and the tree holds
    only the searching seat's own moves."""
    choices: Mapping[str, str] = field(default_factory=dict)
    """The game's own options (:attr:`SearchParts.options`), each given or its default:
    Obsession's ``reward``, ``swap`` and ``infer``, its ``omniscient``'s ``sight``."""

    def choice(self, name: str) -> str:
        """The value of the game's own option ``name``; empty when the game has none."""
        return self.choices.get(name, "")


WorldsFactory = Callable[[Any, int, SearchOptions], Worlds]
"""``factory(observation_or_state, seed, options)`` → the worlds of one decision: from the
seat's observation for ``ismcts``, from the true state for ``omniscient``."""


@dataclass(frozen=True)
class SearchParts:
    """A game's own parts of the search (``GameDescription.search``).

    ``worlds(game, omniscient)`` gives the worlds factory of a loaded game (``omniscient``:
    the search is handed the true state instead of an observation); ``rollouts`` names the
    rollout policies (``rollout=``, the first the default); ``exploration`` is the default
    ``c``; ``opponents`` the default opponent model (``tree`` or ``policy``); ``options`` the
    game's own options of both bots and ``omniscient_options`` those of ``omniscient`` only
    (each name with the values it takes, the first the default)."""

    worlds: Callable[[Any, bool], WorldsFactory]
    rollouts: tuple[str, ...] = ("random",)
    exploration: float = 0.7
    opponents: str = "tree"
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    omniscient_options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


def shared_rewards(places: Sequence[int]) -> list[float]:
    """Rewards in 0..1 from 0-based places (tied seats share the best place of their group, as
    ``GameDescription.places`` gives them): 1 for the first place, 0 for the last, in even
    steps, and tied seats share the places they fill (two seats tied first of two: 0.5
    each)."""
    count = len(places)
    if count < 2:
        return [1.0] * count
    step = 1.0 / (count - 1)
    rewards = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        # The places ``place`` .. ``place + tied - 1``, each worth 1 - place * step.
        rewards.append(1.0 - (place + (tied - 1) / 2) * step)
    return rewards
