"""Obsession bots. They see only their observation and draw only from their own generator.

``random`` plays a uniformly chosen (face, count) option; ``obsessed`` re-implements the
computer player of the original program (weights, kill-seeking, attack, a skewed draw).
The compiled core plays the same ``obsessed`` policy for playouts (``fast.FastGame.
playout_obsessed``), reading ``WEIGHTS`` from here; the equivalence tests play the same games
move for move through both.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress

from cardtable.engine.description import Bot as Described
from cardtable.engine.description import BotSpec, no_options
from cardtable.engine.errors import IllegalAction
from cardtable.games.obsession.actions import Action, Blind, Play, Swap
from cardtable.games.obsession.cards import FACE, JOKER, PLAIN_FACES, SPECIAL_FACES
from cardtable.games.obsession.legality import LEGAL
from cardtable.games.obsession.observation import Observation

BOT_NAMES = ("obsessed", "random")

WEIGHTS = {4: 1, 5: 2, 6: 3, 9: 3, 11: 4, 12: 5, 13: 6, 14: 7, 2: 8, 7: 9, 8: 10, 10: 11,
           3: 12, JOKER: 12}
"""The original computer player's base weights: lower is played sooner."""


def bot_random(seed: int | str, seat: int) -> random.Random:
    """The generator of the bot in 0-based ``seat``, independent of every other draw."""
    return random.Random(f"{seed}/seat{seat + 1}")


class Bot:
    """Common part of the bots: a generator, and no patience for refused actions."""

    name = "bot"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> Action:
        raise NotImplementedError

    def rejected(self, error: IllegalAction) -> None:
        # A bot only proposes actions derived from the rules; a refusal is a bug to surface.
        raise error


class RandomBot(Bot):
    name = "random"

    def choose(self, observation: Observation) -> Action:
        seat = observation.seat
        if observation.phase == "swap":
            # The deal is already uniformly random, so keeping it spends no randomness.
            return Swap(observation.visible[seat])
        if observation.source == "hidden":
            return Blind(self.rng.randrange(observation.hidden_counts[seat]) + 1)
        return Play(random_play(observation.pool, observation.active_face, self.rng))


def random_play(cards: tuple[int, ...] | list[int], active: int,
                rng: random.Random) -> tuple[int, ...]:
    """The ``random`` policy on a pile in display order.

    The options (face f, count k) sorted by (rank, k) are, in display order, exactly one per
    legal card: the i-th card of a face stands for "the first i copies". So drawing an index
    among the legal cards is the same draw as listing the options.
    """
    # compress/map keep this hot loop in C: the legal cards, in display order.
    legal = list(compress(cards, map(LEGAL[active].__getitem__, map(FACE.__getitem__, cards))))
    last = rng.randrange(len(legal))
    face = FACE[legal[last]]
    # Every copy of a legal face is legal, so a face's cards sit together in ``legal`` too.
    first = last
    while first and FACE[legal[first - 1]] == face:
        first -= 1
    return tuple(legal[first:last + 1])


class ObsessedBot(Bot):
    name = "obsessed"

    def choose(self, observation: Observation) -> Action:
        if observation.phase == "swap":
            return Swap(obsessed_swap(observation.pool))
        source = observation.source
        if source == "hidden":
            return Blind(1)
        cards = observation.pool
        face = self.pick_face(observation, cards)
        copies = [card for card in cards if FACE[card] == face]
        late = observation.draw_count == 0
        if source == "hand" and face in SPECIAL_FACES and not late:
            copies = copies[:1]
        return Play(tuple(copies))

    def pick_face(self, observation: Observation, cards: tuple[int, ...]) -> int:
        active = observation.active_face
        row = LEGAL[active]
        valid = sorted({FACE[card] for card in cards if row[FACE[card]]})
        weights = WEIGHTS  # copied before any change
        late = observation.draw_count == 0
        behind = observation.hand_counts[observation.seat] > observation.draw_count
        if (late or behind) and active in valid and active in PLAIN_FACES:
            held = sum(1 for card in cards if FACE[card] == active)
            # The original counts the run of the literal top face, jokers included, even
            # though the active face lies beneath them; kept on purpose.
            if held + observation.run >= observation.rules.run_kill:
                weights = {**weights, active: 0}
        if late and observation.hand_counts[observation.next_seat(observation.seat)] == 0:
            weights = {**weights, 3: 0, JOKER: 0, 7: 0}
        if len(valid) > 1:
            valid.sort(key=lambda face: (weights[face], face))
        draw = self.rng.random()
        return valid[int((len(valid) - 1) * draw**10)]


def obsessed_swap(pool: Sequence[int]) -> tuple[int, ...]:
    """The ``obsessed`` swap: the three dearest cards of the pool go face-up (display order).

    Expensive faces go face-up; the cheap plain cards stay in the hand. No randomness.
    """
    ranked = sorted(pool, key=lambda card: (-WEIGHTS[FACE[card]], -FACE[card], card))
    return tuple(sorted(ranked[:3]))


BOTS: dict[str, type[Bot]] = {"obsessed": ObsessedBot, "random": RandomBot}


def make_bot(name: str, seat: int, seed: int | str) -> Bot:
    """The bot called ``name`` for 0-based ``seat`` of a game seeded with ``seed``."""
    return BOTS[name](bot_random(seed, seat))


def described_bots() -> list[Described]:
    """The Obsession bots as its description offers them (web seats, tournaments ...)."""
    def bot(name: str) -> Described:
        def factory(game: object, spec: BotSpec, seat: str, seed: int | str) -> Bot:
            no_options(spec)
            return make_bot(name, int(seat.upper().removeprefix("P")) - 1, seed)

        return Described(name, factory)

    return [bot(name) for name in BOTS]
