"""Caravan's bots (specification §10). A bot sees only its seat's observation."""

from __future__ import annotations

import random
from collections.abc import Callable

from cardtable.engine.errors import IllegalAction
from cardtable.engine.match import Seat
from cardtable.engine.randomness import derived_random
from cardtable.games.caravan.board import ASC, DESC
from cardtable.games.caravan.cards import RANK_MASK, SEATS
from cardtable.games.caravan.legality import legal_codes
from cardtable.games.caravan.notation import CLEAR, DISCARD, Move, pack
from cardtable.games.caravan.observation import Observation

_PLAIN_RANDOM = random.Random
"""Generators of exactly this class draw as ``random.Random`` does (a subclass may not)."""


class Bot:
    """Base of Caravan bots: ``choose_code`` picks a packed move, ``choose`` wraps it."""

    name = "bot"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose_code(self, observation: Observation) -> int:
        raise NotImplementedError

    def choose(self, observation: Observation) -> Move:
        return Move.from_code(self.seat, self.choose_code(observation))

    def rejected(self, error: IllegalAction) -> None:
        # A bot only proposes moves it checked; a refusal is a bug, not something to retry.
        raise RuntimeError(f"bot {self.name} proposed an illegal move: {error}")


class RandomBot(Bot):
    """Picks uniformly among all legal moves listed in canonical order."""

    name = "random"

    def choose_code(self, observation: Observation) -> int:
        # Same choice as ``moves[rng.randrange(len(moves))]`` over the canonical list, but
        # counted and picked without listing the moves (by the core's state of the table,
        # asked directly when there is one: this runs at every move of a match).
        table = observation.compiled_table()
        if table is not None:
            rng = self.rng
            if rng.__class__ is _PLAIN_RANDOM:
                # randrange's very draws, made by the core through the generator's own
                # getrandbits (no Python frame for randrange and _randbelow).
                code: int = table.pick_legal(rng.getrandbits)
            else:
                code = table.nth_legal(rng.randrange(table.count_legal()))
            return code
        return observation.legal_at(self.rng.randrange(observation.legal_count()))


class NormalBot(Bot):
    """The deterministic heuristic player: start caravans, clear bad ones, extend good ones,
    attack the opponent's longest caravan with faces, else discard the first card."""

    name = "normal"
    uses_faces = True

    def choose_code(self, observation: Observation) -> int:
        seat = self.seat
        hand = observation.hand
        legal = observation.is_legal
        if observation.opening[seat]:
            placement = observation.placed[seat]
            for position, card in enumerate(hand, 1):
                if card & RANK_MASK <= 10:
                    if placement < 3:
                        code = pack(0, 3 * seat + placement, position)
                        if legal(code):
                            return code
                    break
        else:
            chosen = self._clear(observation, legal)
            if chosen is None:
                chosen = self._play(observation, legal)
            if chosen is not None:
                return chosen
        discard = pack(DISCARD, 0, 1)
        if legal(discard):
            return discard
        moves = legal_codes(observation.table())
        if not moves:
            raise RuntimeError("no legal move for the seat to move")
        return moves[0]

    def _clear(self, observation: Observation, legal: Callable[[int], bool]) -> int | None:
        seat = self.seat
        rules = observation.rules[seat]
        if rules.clear_policy == "disabled":
            return None
        for caravan in range(3 * seat, 3 * seat + 3):
            value, size = observation.summaries[caravan][:2]
            if value > rules.sold_max or size == rules.max_numerals:
                if rules.clear_policy == "destroy_restart":
                    restart = next((position for position, card in enumerate(observation.hand, 1)
                                    if card & RANK_MASK <= 10), None)
                    if restart is None:
                        return None
                    code = pack(CLEAR, caravan, restart)
                else:
                    code = pack(CLEAR, caravan)
                return code if legal(code) else None
        return None

    def _play(self, observation: Observation, legal: Callable[[int], bool]) -> int | None:
        seat = self.seat
        rules = observation.rules[seat]
        summaries = observation.summaries
        for position, card in enumerate(observation.hand, 1):
            rank = card & RANK_MASK
            if rank <= 10:
                for caravan in range(3 * seat, 3 * seat + 3):
                    value, size, last_rank, suit, direction = summaries[caravan]
                    other = summaries[caravan + 3 if seat == 0 else caravan - 3][0]
                    if rules.sold_min <= value <= rules.sold_max and (
                        value > other or other > rules.sold_max
                    ):
                        continue
                    if size == rules.max_numerals:
                        continue
                    code = pack(0, caravan, position)
                    if not size:
                        if legal(code):
                            return code
                        continue
                    if rank == last_rank:
                        continue
                    fits = value + rank <= rules.sold_max
                    follows = (
                        (card >> 4) & 7 == suit
                        or (direction == ASC and rank > last_rank)
                        or (direction == DESC and rank < last_rank)
                    )
                    if fits and follows and legal(code):
                        return code
            elif self.uses_faces:
                opponents = range(3, 6) if seat == 0 else range(0, 3)
                target = max(opponents, key=lambda index: (summaries[index][1], -index))
                size = summaries[target][1]
                if size and (rules.max_faces is None
                             or len(observation.caravans[target][size - 1][1]) < rules.max_faces):
                    code = pack(0, target, position, size)
                    if legal(code):
                        return code
        return None


class FriendlyBot(NormalBot):
    """The normal bot that never plays face cards (it only ever discards them)."""

    name = "friendly"
    uses_faces = False


BotFactory = Callable[[int, random.Random], Bot]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "normal": NormalBot,
    "friendly": FriendlyBot,
}


def _expert(seat: int, rng: random.Random) -> Bot:
    from cardtable.games.caravan.expert import ExpertBot  # it builds on this module

    return ExpertBot(seat, rng)


BOTS["expert"] = _expert


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a bot available to ``--bot NAME`` (names are lower-case)."""
    BOTS[name.lower()] = factory


def make_bot(name: str, seat: int, seed: int | str, game: object = None) -> Bot:
    """The bot ``name`` for ``seat``, with its own generator seeded ``"SEED:bot:SEAT"``.

    A name that is not one of ``BOTS`` is a spec of the bot registry (``ismcts:iters=200``),
    made for ``game`` (a loaded ``CaravanGame``: the search bots need its rules)."""
    factory = BOTS.get(name.lower())
    if factory is not None:
        return factory(seat, derived_random(seed, "bot", SEATS[seat]))
    from cardtable.agents.registry import make_seat

    return RegistryBot(seat, make_seat(game, name, SEATS[seat], seed), name)


def known_bot(name: str) -> str | None:
    """None when ``name`` is a Caravan bot or a valid registry spec, else the refusal."""
    if name.lower() in BOTS:
        return None
    from cardtable.agents.registry import UnknownBot, bot_names, make_seat, parse_spec
    from cardtable.games.caravan.game import CaravanGame

    try:
        # Making the seat checks its options too (it is cheap: nothing is searched yet).
        make_seat(CaravanGame.load(), parse_spec("caravan", name), "ABC", 0)
    except UnknownBot as error:
        if name.partition(":")[0].strip().lower() in bot_names("caravan", calibration=True):
            return error.message
        return f"Unknown bot name '{name.lower()}'."
    return None


class RegistryBot(Bot):
    """A bot of the registry (the search bots ...) with the face the shells expect."""

    def __init__(self, seat: int, inner: Seat, name: str) -> None:
        super().__init__(seat, random.Random(0))
        self.inner = inner
        self.name = name

    def choose(self, observation: Observation) -> Move:
        move: Move = self.inner.choose(observation)
        return move

    def rejected(self, error: IllegalAction) -> None:
        self.inner.rejected(error)


def register_everywhere() -> None:
    """Offer the Caravan bots wherever a bot is chosen by name (web seats, tournaments ...)."""
    from cardtable.agents.registry import BotSpec, no_options, register

    for name in BOTS:
        def factory(spec: BotSpec, seat: str, seed: int | str, game: object,
                    name: str = name) -> Bot:
            no_options(spec)
            return make_bot(name, SEATS.index(seat.upper()), seed)

        register("caravan", name, factory)
