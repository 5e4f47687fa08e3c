"""The ``expert`` Caravan bot and the lane evaluation it shares with the search bots.

**Lane evaluation.** Each lane (A/D, B/E, C/F) scores +1 for the seat that takes it now, -1
for the other, and otherwise half the difference of the two caravans' progress: a caravan
below the sold range counts by how far it got (up to 0.8), a caravan in the sold range 0.8,
a caravan over the range (bust: it must be cleared or cut back) -0.2. The three lane scores
add up to ``S`` and the chance that ``seat`` wins is ``1 / (1 + exp(-1.6 * S))``; a finished
game counts 1, 0, or 0.5 for a draw. ISMCTS uses this as its Caravan leaf evaluation.

**The bot.** It sees only its observation. It deals one world consistent with it (the other
seat's hand is a guess drawn from what that seat could hold) and, for each of its legal
moves, plays the move there and then looks at the other seat's replies in that world (2 ply):
a move is worth the lowest evaluation any reply leaves (a reply that outbids a lane, pushes a
caravan over the range with a King, cuts it with a Jack or a Joker counts at once). The
world's hand is only a guess, so the reply's value is blended with the move's own
(``0.6 * after_reply + 0.4 * after_move``). A move that ends the game lost — selling a lane
that hands the other seat the game, for instance — is never chosen while another move
exists. Ties go to the earlier move in canonical order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from cardtable.engine.randomness import derived_random
from cardtable.games.caravan.board import lane_taker
from cardtable.games.caravan.bot_base import Bot
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.observation import Observation
from cardtable.games.caravan.rules import Rules, SeatRules
from cardtable.games.caravan.worlds import first_seat

STEEPNESS = 1.6
REPLY_WEIGHT = 0.6


def _progress(value: int, rules: Rules) -> float:
    if value > rules.sold_max:
        return -0.2
    if value >= rules.sold_min:
        return 0.8
    return 0.8 * value / rules.sold_min


def lane_score(values: Sequence[int], abc: Rules, def_: Rules) -> float:
    """``S`` of the module text from ABC's side, given the six caravans' values (A..F)."""
    total = 0.0
    for lane in range(3):
        mine, theirs = values[lane], values[lane + 3]
        taker = lane_taker(mine, theirs, abc, def_)
        if taker == 0:
            total += 1.0
        elif taker == 1:
            total -= 1.0
        else:
            total += 0.5 * (_progress(mine, abc) - _progress(theirs, def_))
    return total


def win_chance(values: Sequence[int], result: tuple[tuple[str, ...], str] | None,
               seat: int, abc: Rules, def_: Rules) -> float:
    """The evaluation of the module text: the chance that ``seat`` (0 = ABC) wins."""
    if result is not None:
        winners = result[0]
        if not winners:
            return 0.5
        return 1.0 if SEATS[seat] in winners else 0.0
    score = lane_score(values, abc, def_)
    chance = 1.0 / (1.0 + math.exp(-STEEPNESS * score))
    return chance if seat == 0 else 1.0 - chance


def _values(exported: Any) -> list[int]:
    return [summary[0] for summary in exported[1]]


class _Sim:
    """A world the expert plays moves in: the compiled core when built, else the Python game."""

    def __init__(self, world: Any) -> None:
        from cardtable.games.caravan import fast

        self.core = fast.from_game(world, 0) if fast.available() else None
        self.world = world

    def root(self) -> Any:
        return self.core if self.core is not None else self.world

    @staticmethod
    def after(state: Any, code: int) -> Any:
        other = state.clone()
        if hasattr(other, "apply_code"):
            other.apply_code(code)
        else:
            other.apply(code)
        return other

    @staticmethod
    def legal(state: Any) -> list[int]:
        codes: list[int] = state.legal_codes()
        return codes

    @staticmethod
    def view(state: Any) -> tuple[list[int], tuple[tuple[str, ...], str] | None, int]:
        from cardtable.games.caravan import fast

        if hasattr(state, "export"):
            exported = state.export()
            return _values(exported), exported[12], exported[9]
        exported = fast.export_game(state)
        return _values(exported), exported[12], exported[9]


def expert_code(observation: Observation, rng: random.Random) -> int:
    """The expert's move for ``observation`` (a packed move code)."""
    from cardtable.games.caravan.state import CaravanState
    from cardtable.games.caravan.worlds import sample_world_from_observation

    seat = observation.seat
    rules = SeatRules(observation.rules[0], observation.rules[1])
    abc, def_ = observation.rules
    world = sample_world_from_observation(observation, rules, first_seat(observation),
                                          rng.getrandbits(62), state_class=CaravanState)
    sim = _Sim(world)
    root = sim.root()
    codes = sim.legal(root)
    if len(codes) == 1:
        return codes[0]
    best_code = codes[0]
    best = -1.0
    for code in codes:
        after = sim.after(root, code)
        values, result, turn = sim.view(after)
        own = win_chance(values, result, seat, abc, def_)
        if result is not None or turn == seat:
            worth = own if result is None or own > 0.0 else -1.0
        else:
            worst = own
            for reply in sim.legal(after):
                values, result, _ = sim.view(sim.after(after, reply))
                worst = min(worst, win_chance(values, result, seat, abc, def_))
            worth = REPLY_WEIGHT * worst + (1.0 - REPLY_WEIGHT) * own
        if worth > best:
            best, best_code = worth, code
    return best_code


class ExpertBot(Bot):
    """The lane-aware 2-ply heuristic of the module text."""

    name = "expert"

    def choose_code(self, observation: Observation) -> int:
        return expert_code(observation, self.rng)


def make_expert(seat: int, rng: random.Random) -> Bot:
    return ExpertBot(seat, rng)


def expert_bot(seat: int, seed: int | str) -> Bot:
    """The expert for ``seat`` with its generator seeded like every Caravan bot's."""
    return ExpertBot(seat, derived_random(seed, "bot", SEATS[seat]))
