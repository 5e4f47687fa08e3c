"""Sampled worlds: full Obsession states that agree with what one seat sees.

A seat sees its own hand, every visible row, the discard pile, the cards killed or removed
from the game (each was face up on the pile), how many cards each hand, hidden row and the
draw pile hold, and the public history. It does not see the other seats' hands, any hidden row
(its own included) or the order of the draw pile. A sampled world keeps everything seen and
deals the unseen cards (the decks' cards minus the seen ones) uniformly at random to those
places.

The table shows one thing about a hidden hand: a seat with no legal card in its hand picks up
without being asked, so another seat to move with cards in hand holds a legal one; deals where
it does not are dealt again (uniform among the deals that agree). Where the seats' choices
(below) rule out every such deal, the rule wins: a legal card is swapped into the mover's hand.

Every seat saw some cards go into a hand: the pile cards a seat picked up, a hidden card it
turned and took up, the cards it swapped out of its face-up row. Those it has not played since
(``Observation.known``: a card played from a hand leaves it) are still in that hand, so the
world deals them there first and the rest of that hand from the unseen cards.

The seats' choices show more (``Observation.lacks``, see ``inference``): faces that some of
the dealt cards of a hand are not. After the shuffle, each such card that breaks its mask is
swapped with a card drawn uniformly among those that keep it, from the places not settled yet.
Those greedy swaps can use up the only cards a later place allows; places still breaking
their masks are then matched to cards by augmenting paths, so every mask is kept whenever
some deal keeps them all (when none does, as many as can be: the facts are a preference,
not a proof). Obsession draws no
random numbers during play, so the world needs no generator; the repetition guard's record of
positions (which holds hidden cards) starts afresh in the world.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtable.engine.randomness import derived_random
from cardtable.games.obsession.cards import FACE, canonical_deck
from cardtable.games.obsession.events import TurnStarted
from cardtable.games.obsession.inference import combined
from cardtable.games.obsession.legality import LEGAL_CARD, NONE
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.phases import PHASE_NAMES

if TYPE_CHECKING:
    from cardtable.games.obsession.state import ObsessionState

MAX_DEALS = 10_000
"""Deals tried for a seat to move that must hold a legal card (one in a few is enough)."""


def unseen_of_state(game: ObsessionState, seat: int) -> list[int]:
    """The real cards ``seat`` cannot see in ``game``."""
    unseen = list(game.draw)
    for other in range(game.players):
        unseen += game.hidden[other]
        if other != seat:
            unseen += game.hands[other]
    return unseen


def unseen_of_observation(obs: Observation) -> list[int]:
    """The decks' cards minus every card ``obs`` shows."""
    seen = Counter(obs.hand)
    for row in obs.visible:
        seen.update(row)
    seen.update(obs.discard)
    seen.update(obs.killed)
    seen.update(obs.removed)
    unseen: list[int] = []
    for card in canonical_deck((obs.rules.players + 1) // 2):
        if seen[card]:
            seen[card] -= 1
        else:
            unseen.append(card)
    return unseen


def known_in_hands(obs: Observation, unseen: Sequence[int]) -> list[tuple[int, ...]]:
    """Per seat, the cards ``obs`` shows every seat saw go into that seat's hand and that the
    world must deal there: none for ``obs.seat`` (its hand is seen whole), and only cards
    among ``unseen`` and no more than the hand holds (an observation from elsewhere may not
    agree with itself)."""
    n = obs.rules.players
    if not obs.known:
        return [()] * n
    left = Counter(unseen)
    known: list[tuple[int, ...]] = []
    for other in range(n):
        held: list[int] = []
        if other != obs.seat and other < len(obs.known):
            for card in obs.known[other]:
                if len(held) < obs.hand_counts[other] and _take(left, card):
                    held.append(card)
        known.append(tuple(held))
    return known


def _take(counts: Counter[int], card: int) -> bool:
    """Takes one ``card`` from ``counts`` if one is there."""
    if counts[card] > 0:
        counts[card] -= 1
        return True
    return False


def _dealt(obs: Observation, known: Sequence[Sequence[int]], other: int) -> int:
    """How many cards of ``other``'s hand the world deals at random."""
    return 0 if other == obs.seat else obs.hand_counts[other] - len(known[other])


def lacking_places(obs: Observation, known: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """Where in the deal (hand then hidden row, by seat) a dealt card must lack which faces:
    ``(place, mask)``, strictest first within a hand, for the seats ``obs.lacks`` speaks of."""
    places: list[tuple[int, int]] = []
    start = 0
    for other in range(obs.rules.players):
        dealt = _dealt(obs, known, other)
        if other != obs.seat and other < len(obs.lacks):
            places += [(start + index, mask)
                       for index, mask in enumerate(combined(obs.lacks[other][:dealt])) if mask]
        start += dealt + obs.hidden_counts[other]
    return places


def honour_lacks(cards: list[int], lacking: Sequence[tuple[int, int]],
                 rng: random.Random) -> None:
    """Swaps each card at a place of ``lacking`` that its mask rules out with one drawn
    uniformly among the cards it allows at places not settled yet (see the module)."""
    settled: set[int] = set()
    for place, mask in lacking:
        if mask >> FACE[cards[place]] & 1:
            options = [other for other in range(len(cards))
                       if other not in settled and not mask >> FACE[cards[other]] & 1]
            if options:
                other = options[rng.randrange(len(options))]
                cards[place], cards[other] = cards[other], cards[place]
        settled.add(place)
    if any(mask >> FACE[cards[place]] & 1 for place, mask in lacking):
        match_lacks(cards, lacking)


def match_lacks(cards: list[int], lacking: Sequence[tuple[int, int]]) -> None:
    """Rearranges ``cards`` so that as many places of ``lacking`` as can be hold a card
    their mask allows: the greedy swaps of ``honour_lacks`` can use up the only allowed cards
    of a later place, so the places are matched to cards by augmenting paths (Kuhn), starting
    from the places that already keep their mask. Places that keep their card keep it; the
    cards moved away fill, in order, the places whose cards were taken."""
    places = [place for place, _ in lacking]
    masks = [mask for _, mask in lacking]
    matched: list[int | None] = [place if not mask >> FACE[cards[place]] & 1 else None
                                 for place, mask in lacking]
    owner: dict[int, int] = {place: index for index, place in enumerate(matched)
                             if place is not None}

    def augment(index: int, visited: set[int]) -> bool:
        for other, card in enumerate(cards):
            if other in visited or masks[index] >> FACE[card] & 1:
                continue
            visited.add(other)
            holder = owner.get(other)
            if holder is None or augment(holder, visited):
                matched[index] = other
                owner[other] = index
                return True
        return False

    for index, place in enumerate(matched):
        if place is None:
            augment(index, set())
    chosen = {index: position for index, position in enumerate(matched) if position is not None}
    taken = set(chosen.values())
    receiving = {places[index] for index in chosen}
    moved_away = [cards[position] for position in sorted(receiving - taken)]
    to_fill = sorted(taken - receiving)
    before = list(cards)
    for index, position in chosen.items():
        cards[places[index]] = before[position]
    for position, card in zip(to_fill, moved_away, strict=True):
        cards[position] = card


def give_a_legal_card(cards: list[int], start: int, end: int, legal: Sequence[int],
                      lacking: Sequence[tuple[int, int]], rng: random.Random) -> None:
    """Swap a legal card from outside ``start:end`` with a card of ``start:end`` (the mover's
    dealt cards), the pair drawn uniformly among the swaps that keep every place's mask of
    ``lacking`` (among all swaps when none does). For deals where the reshuffles found no
    legal card for the mover: the rule that the mover holds one is a fact, the seats' choices
    only a preference."""
    masks = dict(lacking)

    def allowed(place: int, card: int) -> bool:
        return not masks.get(place, 0) >> FACE[card] & 1

    sources = [place for place in range(len(cards))
               if not start <= place < end and legal[cards[place]]]
    pairs = [(source, place) for source in sources for place in range(start, end)
             if allowed(place, cards[source]) and allowed(source, cards[place])]
    if not pairs:
        pairs = [(source, place) for source in sources for place in range(start, end)]
    if pairs:
        source, place = pairs[rng.randrange(len(pairs))]
        cards[place], cards[source] = cards[source], cards[place]


def world_from(
    obs: Observation, unseen: Sequence[int], humans: Sequence[bool], seed: int | str,
    *, turns: int | None = None, stalemate: str | None = None, mover_has_play: bool = True,
    state_class: type[ObsessionState],
) -> ObsessionState:
    """A full state agreeing with ``obs``, the ``unseen`` cards dealt at random (see module).
    The world is a ``state_class`` (the caller's state class: this module builds states, the
    state samples its worlds here)."""
    rng: random.Random = derived_random(seed, "sample_world")
    rules = obs.rules
    n = rules.players
    seat = obs.seat
    known = known_in_hands(obs, unseen)
    cards = list(unseen)
    if any(known):
        taken_up = Counter(card for held in known for card in held)
        cards = [card for card in cards if not _take(taken_up, card)]
    lacking = lacking_places(obs, known)
    rng.shuffle(cards)
    honour_lacks(cards, lacking, rng)
    mover = obs.to_move
    legal = LEGAL_CARD[obs.active_face]
    if (mover_has_play and mover is not None and mover != seat and obs.phase == "play"
            and _dealt(obs, known, mover) and not any(legal[card] for card in known[mover])):
        # A seat with no legal card in its hand picks up without being asked, so the seat to
        # move holds one: deals where it does not are refused (and dealt again).
        # Where the mover's dealt cards start below (hand then hidden row, by seat).
        start = sum(_dealt(obs, known, other) + obs.hidden_counts[other]
                    for other in range(mover))
        end = start + _dealt(obs, known, mover)
        for _ in range(MAX_DEALS):
            if any(legal[card] for card in cards[start:end]):
                break
            rng.shuffle(cards)
            honour_lacks(cards, lacking, rng)
        else:
            give_a_legal_card(cards, start, end, legal, lacking, rng)
    game = state_class.__new__(state_class)
    game.rules = rules
    game.players = n
    game.deck = ()
    game.humans = tuple(humans)
    game._run_kill = rules.run_kill
    game._kill_first = rules.kill_order == "kill-first"
    game._max_plays = rules.max_plays
    game._repeat_limit = rules.repeat_limit
    taken = 0
    hands: list[list[int]] = []
    hidden: list[list[int]] = []
    for other in range(n):
        if other == seat:
            hands.append(list(obs.hand))
        else:
            count = _dealt(obs, known, other)
            hands.append(sorted([*known[other], *cards[taken:taken + count]]))
            taken += count
        count = obs.hidden_counts[other]
        hidden.append(cards[taken:taken + count])
        taken += count
    game.hands = hands
    game.hidden = hidden
    own = Counter(obs.hand)
    # The world keeps the facts but models no seat further (``inference``).
    game._lacks = [list(obs.lacks[other]) if other < len(obs.lacks) else []
                   for other in range(n)]
    game._modelled = [False] * n
    game.known = [list(known[other]) if other != seat
                  else [card for card in (obs.known[seat] if obs.known else ()) if _take(own, card)]
                  for other in range(n)]
    game.visible = [list(row) for row in obs.visible]
    game.draw = cards[taken:]
    pile = list(reversed(obs.discard))
    game.pile = pile
    game._pile_faces = bytearray(FACE[card] for card in pile)
    game.active = obs.active_face or NONE
    game.top_face = FACE[pile[-1]] if pile else 0
    game.run = obs.run
    game.direction = obs.direction
    game.phase = PHASE_NAMES.index(obs.phase)
    game.current = obs.to_move if obs.to_move is not None else seat
    game.out = list(obs.out)
    game.remaining = n - sum(obs.out)
    game.placings = list(obs.placings)
    game.plays = obs.play_number
    if turns is None:
        turns = sum(1 for event in obs.history if isinstance(event, TurnStarted))
    game.turns = turns
    game.removed = list(obs.removed)
    game.killed = list(obs.killed)
    game.stalemate = stalemate
    game._humans_left = sum(1 for other in range(n) if humans[other] and not obs.out[other])
    game._seen = {}
    game._parts = [None] * n
    log = isinstance(obs.history, Sequence) and len(obs.history) > 0
    game._events = list(obs.history) if log else None
    game._public = list(obs.history) if log else None
    return game


def sample_world(game: ObsessionState, seat: int, seed: int | str) -> ObsessionState:
    """``game`` as ``seat`` might believe it to be: the cards it cannot see re-dealt."""
    mover = game.current
    has_play = any(LEGAL_CARD[game.active][card] for card in game.hands[mover])
    world = world_from(game.observe(seat), unseen_of_state(game, seat), game.humans, seed,
                       turns=game.turns, stalemate=game.stalemate, mover_has_play=has_play,
                       state_class=type(game))
    if game._public is not None and not game._public:
        world._events, world._public = [], []
    return world


def sample_world_from_observation(
    obs: Observation, humans: Sequence[bool], seed: int | str, *,
    state_class: type[ObsessionState],
) -> ObsessionState:
    """A world (a ``state_class``) from ``obs`` alone."""
    return world_from(obs, unseen_of_observation(obs), humans, seed, state_class=state_class)
