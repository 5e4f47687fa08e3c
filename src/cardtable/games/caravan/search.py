"""Caravan's part of the search bots (``ismcts``, ``omniscient``): worlds in the compiled core.

The description hands these to the search (:meth:`CaravanDescription.search`, a
:class:`~cardtable.engine.search.SearchParts`). Each decision builds one world consistent with
what the seat sees (for ``omniscient``, the true state) with the game's Python sampler and
loads it into the compiled core once; each iteration's world is then drawn by the core's
sampler from that state. Without the core the description offers none of this and the search
plays Caravan through the state protocol.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from cardtable.engine.search import SearchOptions, SearchParts, World, Worlds, WorldsFactory


def outcome(winners: Sequence[str], seats: Sequence[str]) -> list[float]:
    """Rewards in 0..1 per seat: 1 for the winner and 0 for the others, or an even share when
    nobody won (a draw)."""
    if not winners:
        return [1.0 / len(seats)] * len(seats)
    return [1.0 if seat in winners else 0.0 for seat in seats]


CARAVAN_ROLLOUTS = ("greedy", "eval", "reply", "random")
"""How a Caravan leaf is scored, all in the compiled core: ``greedy`` (the default) after a
greedy playout of ``GREEDY_MOVES`` moves
(each the move the evaluation likes best for the mover, a random one with probability
``GREEDY_EPSILON``) then the evaluation; ``eval`` by the expert's lane evaluation alone
(``State.evaluate``); ``reply`` after the best move of the seat to move (one ply more); ``random``
by the result of uniformly random moves to the end."""

GREEDY_MOVES = 8
GREEDY_EPSILON = 0.1
_PLAYOUT = {"greedy": (GREEDY_MOVES, GREEDY_EPSILON), "reply": (1, 0.0)}

_HAND_FIELD = 0xFFFF << 5
"""The hand position's bits in a packed Caravan move (``notation.pack``)."""


def card_keys(codes: Sequence[int], hand: Sequence[int]) -> dict[int, int]:
    """Tree keys for packed moves: the hand position replaced by the card's kind (rank and
    suit), so that an edge means the same card in every world whatever its place in the hand
    (the other seat's hand and the cards drawn differ between worlds). Maps key → code; two
    copies of a card in one hand give one key (they play alike)."""
    keys: dict[int, int] = {}
    for code in codes:
        position = (code >> 5) & 0xFFFF
        key = (code & ~_HAND_FIELD) | ((hand[position - 1] & 0x7F) + 1) << 5 if position \
            else code
        keys.setdefault(key, code)
    return keys


class CaravanWorld:
    """A compiled Caravan state; its tree keys are moves with the card in place of the hand
    position (:func:`card_keys`, computed in the core: ``State.legal_keys``)."""

    __slots__ = ("chance", "mode", "state")

    SEATS = ("ABC", "DEF")

    def __init__(self, state: Any, mode: str) -> None:
        self.state = state
        self.mode = mode
        self.chance = -1.0

    def mover(self) -> int:
        state = self.state
        return -1 if state.over else int(state.turn)

    def keys(self) -> Sequence[Hashable]:
        keys: list[int] = self.state.legal_keys()  # card_keys, in C
        return keys

    def play(self, key: Hashable) -> None:
        self.state.apply_key(key)

    def rollout(self, seed: int) -> None:
        mode = self.mode
        if mode == "random":
            self.state.playout(seed)
        elif mode != "eval":
            moves, epsilon = _PLAYOUT[mode]
            self.chance = self.state.greedy_playout(seed, moves, epsilon)

    def advance(self, seat: int, seed: int) -> None:
        state = self.state
        mode = self.mode
        while not state.over and state.turn != seat:
            if mode == "random":
                state.playout(seed, 1)
            else:
                state.greedy_playout(seed, 1, _PLAYOUT.get(mode, (1, 0.0))[1])
            seed += 1

    def rewards(self) -> Sequence[float]:
        state = self.state
        if self.mode == "random":
            return outcome(state.result[0], self.SEATS)
        chance = self.chance if self.chance >= 0.0 else state.evaluate()
        return (chance, 1.0 - chance)


class CaravanWorlds:
    """The worlds of one Caravan decision, sampled in the compiled core."""

    def __init__(self, view: Any, seed: int, options: SearchOptions, game: Any,
                 omniscient: bool = False) -> None:
        from cardtable.games.caravan import fast

        self.options = options
        if omniscient:
            self.seat = int(view.turn)
            start = view
        else:
            self.seat = int(view.seat)
            start = game.sample_world(view, seed)
        self.omniscient = omniscient
        self.mode = options.rollout or "greedy"
        self.legal: list[int] = start.legal_codes()
        self.root_codes = card_keys(self.legal, start.hands[self.seat])
        self.core = fast.from_game(start, seed)

    def sample(self, seed: int) -> World:
        if self.omniscient:
            world = self.core.clone()
            world.seed_random(seed)
            return CaravanWorld(world, self.mode)
        return CaravanWorld(self.core.sample_world(self.seat, seed), self.mode)

    def action(self, key: Hashable) -> Any:
        from cardtable.games.caravan.notation import Move

        assert isinstance(key, int)
        return Move.from_code(self.seat, self.root_codes[key])

    def shortcut(self) -> Any | None:
        if len(self.root_codes) == 1:
            from cardtable.games.caravan.notation import Move

            return Move.from_code(self.seat, self.legal[0])
        return None


def caravan_worlds(game: Any, omniscient: bool = False) -> WorldsFactory:
    """The worlds factory of the loaded Caravan ``game`` (``omniscient``: from the true
    state)."""
    def factory(view: Any, seed: int, options: SearchOptions) -> Worlds:
        return CaravanWorlds(view, seed, options, game, omniscient)
    return factory


DEFAULT_C = 0.4
"""UCB exploration: Caravan's leaf evaluations differ little, so it explores less."""


def search_parts() -> SearchParts | None:
    """Caravan's search, or None without the compiled core (the search then plays Caravan
    through the state protocol)."""
    from cardtable.games.caravan import fast

    if not fast.available():
        return None
    return SearchParts(caravan_worlds, CARAVAN_ROLLOUTS, DEFAULT_C, "tree")
