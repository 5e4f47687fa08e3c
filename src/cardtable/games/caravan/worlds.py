"""Sampled worlds: full Caravan states that agree with what one seat sees.

A seat sees its own hand, the six caravans (except, during a simultaneous opening, the other
seat's opening numerals), both discard piles, deck and hand sizes and the public history. It
does not see the other seat's hand, the order of either deck (its own included) or hidden
opening numerals. A sampled world keeps everything seen and places the unseen cards of each
deck uniformly at random among the places they could be: hidden opening slots (numerals only),
the other seat's hand and the deck. While the other seat opens, its hand holds a numeral per
caravan it has still to start when its mulligan dealt three (deals without are dealt again).

Which cards are unseen depends on what the caller knows:

- ``state.sample_world(seat, seed)`` keeps each deck's list of cards (its composition): the
  unseen cards are exactly those of the real state, re-dealt, so no card is created or lost.
- ``CaravanGame.sample_world(observation, seed)`` has only the observation, which does not
  list the cards a deck was built from. It draws each seat's unseen cards uniformly from that
  seat's sample decks (§6.1) minus the cards of that seat already seen: exact for ``pooled``
  sampling, an approximation for the other sampling modes and the opening-numeral retry.

The world's random generator (reshuffles during play) is a fresh one seeded from ``seed``: it
first deals the unseen cards, then goes on to the world's reshuffles, so a playout's reshuffles
are not the real game's future. (One generator rather than two: seeding one costs about as
much as the rest of a sample.)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtable.engine.randomness import GameRandom
from cardtable.games.caravan import cards as cardlib
from cardtable.games.caravan.deck import jokerless_by_construction, resolved_samples
from cardtable.games.caravan.events import HistoryEntry
from cardtable.games.caravan.history import History
from cardtable.games.caravan.notation import unpack
from cardtable.games.caravan.observation import HIDDEN_CARD, Observation
from cardtable.games.caravan.rules import SeatRules

if TYPE_CHECKING:
    from cardtable.games.caravan.state import CaravanState

_RANK_MASK = cardlib.RANK_MASK


def _is_numeral(card: int) -> bool:
    return card & _RANK_MASK <= 10


def _hidden_slots(obs: Observation) -> list[tuple[int, int]]:
    """(caravan, slot index) of every card the seat sees as hidden, in caravan order."""
    return [
        (index, position)
        for index, caravan in enumerate(obs.caravans)
        for position, (numeral, _faces) in enumerate(caravan)
        if numeral == HIDDEN_CARD
    ]


def seen_cards(obs: Observation, owner: int) -> list[int]:
    """Every card of ``owner``'s deck that ``obs`` shows (hand, caravans, piles)."""
    shown = [card for card in obs.hand if cardlib.owner_of(card) == owner]
    for caravan in obs.caravans:
        for numeral, faces in caravan:
            shown.extend(card for card in (numeral, *faces)
                         if card != HIDDEN_CARD and cardlib.owner_of(card) == owner)
    for pile in obs.piles:
        shown.extend(card for card in pile if cardlib.owner_of(card) == owner)
    return shown


def unseen_count(obs: Observation, owner: int) -> int:
    """How many of ``owner``'s cards the seat of ``obs`` cannot see."""
    count = obs.deck_sizes[owner]
    if owner != obs.seat:
        count += obs.hand_sizes[owner] + len(_hidden_slots(obs))
    return count


def first_seat(observation: Observation) -> int:
    """The seat that opened the game, as far as the observation shows it."""
    if observation.history:
        return int(observation.history[0].seat)
    return observation.seat if observation.to_move is None else int(observation.to_move)


MAX_DEALS = 10_000
"""Deals tried for an opening hand that must hold enough numerals (most deals do)."""


def opening_numerals_needed(obs: Observation, owner: int) -> int:
    """Numerals ``owner``'s hand holds for sure while it opens: one per caravan still to start,
    when its mulligan (``reshuffle``, or ``rebuild``) deals every opening hand three."""
    rules = obs.rules[owner]
    # A discard mulligan becomes a reshuffle in a simultaneous opening.
    reshuffles = rules.mulligan == "discard" and rules.opening_mode == "simultaneous"
    if not obs.opening[owner] or not (reshuffles or rules.mulligan in ("reshuffle", "rebuild")):
        return 0
    return max(0, 3 - obs.placed[owner])


def unseen_of_state(game: CaravanState, seat: int) -> tuple[list[int], list[int]]:
    """The real cards of each deck that ``seat`` cannot see in ``game``."""
    other = 1 - seat
    unseen: list[list[int]] = [[], []]
    unseen[seat] = list(game.decks[seat])
    unseen[other] = list(game.decks[other]) + list(game.hands[other])
    if game.opening_hidden():
        for index in range(3 * other, 3 * other + 3):
            unseen[other].extend(numeral for numeral, _faces in game.caravans[index])
    return unseen[0], unseen[1]


def unseen_from_rules(
    obs: Observation, rng: random.Random
) -> tuple[list[int], list[int]]:
    """Each seat's unseen cards drawn from its sample decks minus what ``obs`` shows."""
    drawn: list[list[int]] = []
    for owner in (0, 1):
        rules = obs.rules[owner]
        pool: list[int] = []
        for tag in range(1, resolved_samples(rules, rules.deck_size) + 1):
            pool += cardlib.sample_deck(owner, tag, rules.jokers_per_sample)
        for card in seen_cards(obs, owner):
            pool.remove(card)
        count = unseen_count(obs, owner)
        if owner != obs.seat and _hidden_slots(obs):
            # Hidden opening cards are numerals: draw them first, then the rest.
            hidden = len(_hidden_slots(obs))
            numerals = [card for card in pool if _is_numeral(card)]
            chosen = rng.sample(numerals, hidden)
            for card in chosen:
                pool.remove(card)
            drawn.append(chosen + rng.sample(pool, count - hidden))
        else:
            drawn.append(rng.sample(pool, count))
    return drawn[0], drawn[1]


def world_from(
    obs: Observation,
    seat_rules: SeatRules,
    first: int,
    unseen: Sequence[Sequence[int]],
    seed: int,
    jack_as_joker: tuple[bool, bool] | None = None,
    rng: random.Random | None = None,
    opening_guaranteed: bool = True,
    *,
    state_class: type[CaravanState],
) -> CaravanState:
    """A full state agreeing with ``obs`` whose unseen cards are ``unseen`` (per deck owner),
    placed uniformly at random; see the module text. The world is a ``state_class`` (the
    caller's state class: this module builds states, the state samples its worlds here)."""
    deal = rng if rng is not None else random.Random(seed)
    seat, other = obs.seat, 1 - obs.seat
    game = state_class.__new__(state_class)
    game._moves = None
    game.seat_rules = seat_rules
    game.rules = obs.rules
    game.seed = seed
    game.first = first
    game.turn = obs.to_move if obs.to_move is not None else seat
    game.rng = GameRandom(_rng=deal)  # used on by the world once the cards are dealt
    caravans = list(obs.caravans)
    history: Sequence[HistoryEntry] = obs.history
    # The other seat's cards: hidden opening numerals first, then its hand, then its deck.
    slots = _hidden_slots(obs)
    hand_size = obs.hand_sizes[other]
    needed = opening_numerals_needed(obs, other) if opening_guaranteed else 0
    for _ in range(MAX_DEALS):
        theirs = list(unseen[other])
        chosen: list[int] = []
        if slots:
            chosen = deal.sample([card for card in theirs if _is_numeral(card)], len(slots))
            for card in chosen:
                theirs.remove(card)
        deal.shuffle(theirs)
        if sum(1 for card in theirs[:hand_size] if _is_numeral(card)) >= needed:
            break
    if slots:
        placed: dict[int, list[int]] = {}
        for (index, position), card in zip(slots, chosen, strict=True):
            slots_of = list(caravans[index])
            slots_of[position] = (card, ())
            caravans[index] = tuple(slots_of)
            placed.setdefault(index, []).append(card)
        filled: list[HistoryEntry] = []
        for entry in obs.history:
            if entry.opening and entry.seat != seat and entry.code is not None:
                index = unpack(entry.code)[1]
                entry = HistoryEntry(entry.seat, entry.code, (placed[index].pop(0),), True)
            filled.append(entry)
        history = filled
    hands: list[list[int]] = [[], []]
    decks: list[list[int]] = [[], []]
    hands[seat] = list(obs.hand)
    hands[other] = theirs[:hand_size]
    decks[other] = theirs[hand_size:]
    mine = list(unseen[seat])
    deal.shuffle(mine)
    decks[seat] = mine
    game.caravans = caravans
    game.crowding = list(obs.crowding)
    game.held = list(obs.held)
    game.summaries = list(obs.summaries)
    game.hands = hands
    game.decks = decks
    game.piles = [list(obs.piles[0]), list(obs.piles[1])]
    game.placed = list(obs.placed)
    game.moves_made = list(obs.moves_made)
    game.plies = obs.moves_made[0] + obs.moves_made[1]
    # A History is an immutable snapshot: the world may share the observed one.
    game._history = history if isinstance(history, History) else History(history)
    game.result = obs.result
    if jack_as_joker is None:
        flags = [obs.jack_as_joker, obs.jack_as_joker]
        flags[other] = (jokerless_by_construction(obs.rules[other])
                        and obs.rules[other].jack_is_joker_without_jokers)
        jack_as_joker = (flags[0], flags[1])
    game.jack_as_joker = jack_as_joker
    game.initial_decks = ((), ())
    game.mulligans = ()
    for index, _position in slots:
        game._refresh(index)
    return game


def sample_world(game: CaravanState, seat: int, seed: int) -> CaravanState:
    """``game`` as ``seat`` might believe it to be: its unseen cards re-dealt (deck lists kept)."""
    obs = game.observation(seat)
    other = 1 - seat
    # The rules deal every opening hand three numerals only when the deck has them: the world
    # asks for them when the real hand has them.
    held = sum(1 for card in game.hands[other] if _is_numeral(card))
    return world_from(obs, game.seat_rules, game.first, unseen_of_state(game, seat), seed,
                      game.jack_as_joker,
                      opening_guaranteed=held >= opening_numerals_needed(obs, other),
                      state_class=type(game))


def sample_world_from_observation(
    obs: Observation, seat_rules: SeatRules, first: int, seed: int, *,
    state_class: type[CaravanState],
) -> CaravanState:
    """A world (a ``state_class``) from ``obs`` alone: unseen cards drawn from the sample
    decks (see module)."""
    rng = random.Random(seed)
    return world_from(obs, seat_rules, first, unseen_from_rules(obs, rng), seed, rng=rng,
                      state_class=state_class)
