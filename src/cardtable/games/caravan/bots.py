"""Caravan's bots (specification §10). A bot sees only its seat's observation."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from cardtable.engine.description import Bot as Described
from cardtable.engine.description import BotSpec, no_options
from cardtable.engine.errors import IllegalAction
from cardtable.engine.match import Seat
from cardtable.engine.randomness import derived_random
from cardtable.games.caravan.board import ASC, DESC
from cardtable.games.caravan.bot_base import Bot as Bot  # the bots' base, known here too
from cardtable.games.caravan.cards import JACK, JOKER, RANK_MASK, SEATS, SUIT_MASK, SUIT_SHIFT
from cardtable.games.caravan.expert import ExpertBot
from cardtable.games.caravan.legality import legal_codes
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, Move, pack, unpack
from cardtable.games.caravan.observation import Observation

if TYPE_CHECKING:
    from cardtable.games.caravan.state import CaravanState

_PLAIN_RANDOM = random.Random
"""Generators of exactly this class draw as ``random.Random`` does (a subclass may not)."""


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
    attack the opponent's longest caravan with faces, else discard the first card.

    It never hands the game away while it can help it: a move after which the other seat has
    won, or could win with its very next move, is passed over for the next move the heuristic
    likes that is safe (see :class:`Safety`); only when every legal move is unsafe does it
    play its first choice."""

    name = "normal"
    uses_faces = True

    def choose_code(self, observation: Observation) -> int:
        if any(observation.opening) or observation.result is not None:
            return self._choose(observation, observation.is_legal)
        safety = Safety(observation)
        is_legal = observation.is_legal

        def safe(code: int) -> bool:
            return is_legal(code) and safety.safe(code)

        chosen = self._choose(observation, safe)
        if safe(chosen):
            return chosen
        hand = observation.hand
        return next((code for code in legal_codes(observation.table())
                     if (self.uses_faces or not self._plays_face(code, hand))
                     and safety.safe(code)),
                    self._choose(observation, is_legal))

    @staticmethod
    def _plays_face(code: int, hand: tuple[int, ...]) -> bool:
        kind, _caravan, position, _slot = unpack(code)
        return kind == PLAY and hand[position - 1] & RANK_MASK > 10

    def _choose(self, observation: Observation, legal: Callable[[int], bool]) -> int:
        """The heuristic's move among the moves ``legal`` accepts (or any legal move)."""
        seat = self.seat
        hand = observation.hand
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


FACE_MASK = RANK_MASK | SUIT_MASK << SUIT_SHIFT
"""A card's rank and suit without its deck identity: cards alike in play."""


class Safety:
    """Whether a move of the seat to move hands the game to the other seat, judged from its
    observation alone (the other seat's hand is never looked at).

    A move is unsafe when, once it is made, the other seat has won, or has a reply that wins
    the game by the lanes at once with a card it could hold: one of each kind of card of its
    decks that the observation does not show (hand, caravans, discard piles). The board after
    the move is played out in one world dealt from the observation (the other seat's guessed
    cards do not change what the move does to the board); replies are then tried with a hand
    of every card kind the other seat could hold. While more than one lane is open only the
    replies with a Joker (or a Jack playing as one) are tried, and while one is open only
    those and the replies on that lane: any other move changes one caravan and settles one
    lane at most.
    """

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        self._world: CaravanState | None = None
        self._could_hold: list[int] | None = None

    def unseen(self, owner: int) -> list[int]:
        """The cards of ``owner``'s decks the observation does not show. A position set up
        by hand may show cards its rules' decks do not hold: those are passed over."""
        from cardtable.games.caravan import cards as cardlib
        from cardtable.games.caravan.deck import resolved_samples
        from cardtable.games.caravan.worlds import seen_cards

        obs = self.observation
        rules = obs.rules[owner]
        pool: list[int] = []
        for tag in range(1, resolved_samples(rules, rules.deck_size) + 1):
            pool += cardlib.sample_deck(owner, tag, rules.jokers_per_sample)
        counts = Counter(pool)
        counts.subtract(seen_cards(obs, owner))
        return [card for card in pool if counts[card] > 0 and not counts.subtract((card,))]

    def world(self) -> CaravanState:
        """The board after the observation, with guessed unseen cards (as many as there are;
        a card repeated stands in for a missing one)."""
        if self._world is None:
            from cardtable.games.caravan.rules import SeatRules
            from cardtable.games.caravan.state import CaravanState
            from cardtable.games.caravan.worlds import first_seat, unseen_count, world_from

            obs = self.observation
            unseen: list[list[int]] = []
            for owner in (0, 1):
                cards = self.unseen(owner) or list(obs.hand) or [1]
                count = unseen_count(obs, owner)
                unseen.append((cards * (count // len(cards) + 1))[:count])
            self._world = world_from(obs, SeatRules(obs.rules[0], obs.rules[1]),
                                     first_seat(obs), unseen, 0, state_class=CaravanState)
        return self._world

    def could_hold(self) -> list[int]:
        """One card of each kind the other seat may hold, as far as the observation shows."""
        if self._could_hold is None:
            kinds: dict[int, int] = {}
            for card in self.unseen(1 - self.observation.seat):
                kinds.setdefault(card & FACE_MASK, card)
            self._could_hold = list(kinds.values())
        return self._could_hold

    def safe(self, code: int) -> bool:
        other = 1 - self.observation.seat
        after = self.world().clone()
        after.apply_code(code)
        result = after.result
        if result is not None:
            return SEATS[other] not in result.winners
        if after.turn != other or not after.hands[other]:
            return True
        hand = self.could_hold()
        open_lanes = [lane for lane, taker in enumerate(after.lanes()) if taker is None]
        # Only a Joker (or a Jack that acts as one) changes more than one caravan: any other
        # reply that wins is played on the one open lane.
        wide = (JOKER, JACK) if after.jack_as_joker[other] else (JOKER,)
        if len(open_lanes) > 1:
            hand = [card for card in hand if card & RANK_MASK in wide]
            if not hand:
                return True
        lane = open_lanes[0] if open_lanes else None
        after.hands[other] = hand
        after._moves = None
        for reply in legal_codes(after.table()):
            kind, caravan, position, _slot = unpack(reply)
            if kind == DISCARD or (
                    open_lanes and caravan % 3 != lane
                    and not (position and hand[position - 1] & RANK_MASK in wide)):
                continue
            world = after.clone()
            world.apply_code(reply)
            if world.result is not None and SEATS[other] in world.result.winners:
                return False
        return True


class FriendlyBot(NormalBot):
    """The normal bot that never plays face cards (it only ever discards them)."""

    name = "friendly"
    uses_faces = False


BotFactory = Callable[[int, random.Random], Bot]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "normal": NormalBot,
    "friendly": FriendlyBot,
    "expert": ExpertBot,
}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a bot available to ``--bot NAME`` (names are lower-case)."""
    BOTS[name.lower()] = factory


def make_bot(name: str, seat: int, seed: int | str) -> Bot:
    """The bot ``name`` (one of ``BOTS``, any case) for the 0-based ``seat``, with its own
    generator seeded ``"SEED:bot:SEAT"``. Every other bot (``ismcts:iters=200``) comes from
    the bot registry (``cardtable.agents.registry.make_seat``); :func:`as_caravan_bot` gives
    it the face of these."""
    return BOTS[name.lower()](seat, derived_random(seed, "bot", SEATS[seat]))


def as_caravan_bot(seat: int, inner: Seat, name: str) -> Bot:
    """A seat of the bot registry as a Caravan bot of the 0-based ``seat`` (the face the
    Caravan shells expect): a bot of this module as it is, any other wrapped."""
    return inner if isinstance(inner, Bot) else RegistryBot(seat, inner, name)


class RegistryBot(Bot):
    """A bot of the registry (the search bots ...) with the face the Caravan shells expect."""

    def __init__(self, seat: int, inner: Seat, name: str) -> None:
        super().__init__(seat, random.Random(0))
        self.inner = inner
        self.name = name

    def choose(self, observation: Observation) -> Move:
        move: Move = self.inner.choose(observation)
        return move

    def rejected(self, error: IllegalAction) -> None:
        self.inner.rejected(error)


def described_bots() -> list[Described]:
    """The Caravan bots as its description offers them (web seats, tournaments ...)."""
    def bot(name: str) -> Described:
        def factory(game: object, spec: BotSpec, seat: str, seed: int | str) -> Bot:
            no_options(spec)
            return make_bot(name, SEATS.index(seat.upper()), seed)

        return Described(name, factory)

    return [bot(name) for name in BOTS]
