"""Obsession: the cards every seat saw go into a hand (``Game.known``, ``Observation.known``).

The known cards are rebuilt here from the public history alone (what any seat, or a spectator,
sees), and must be exactly what the game keeps; they are always a part of that seat's hand;
and every sampled world, Python or compiled, deals them into that hand.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.games.obsession import fast
from cardtable.games.obsession.cards import FACE
from cardtable.games.obsession.events import BlindTurned, Event, PickedUp, Played, Swapped
from cardtable.games.obsession.game import ObsessionGame
from cardtable.games.obsession.state import ObsessionState
from cardtable.games.obsession.worlds import sample_world_from_observation

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def known_from_history(history: list[Event], first_visible: tuple[tuple[int, ...], ...],
                       players: int) -> tuple[tuple[int, ...], ...]:
    """Per seat, the cards the public events show going into its hand and not played from it
    since: the face-up cards swapped into the hand, the pile at each pick-up (less its 3s,
    which leave the game) and a turned hidden card that was not laid. ``first_visible`` is
    the table's face-up rows as dealt."""
    known: list[list[int]] = [[] for _ in range(players)]
    visible = [list(row) for row in first_visible]
    pile: list[int] = []
    turned: tuple[int, int] | None = None
    for event in history:
        if isinstance(event, Swapped):
            known[event.seat] += [card for card in visible[event.seat]
                                  if card not in event.visible]
            visible[event.seat] = list(event.visible)
        elif isinstance(event, BlindTurned):
            turned = (event.seat, event.card)
        elif isinstance(event, Played):
            turned = None
            if event.source == "hand":
                known[event.seat] = [card for card in known[event.seat]
                                     if card not in event.cards]
            pile += event.cards
            if "kill" in event.effects:
                pile = []
        elif isinstance(event, PickedUp):
            if turned is not None and turned[0] == event.seat:
                known[event.seat].append(turned[1])
            turned = None
            known[event.seat] += [card for card in pile if FACE[card] != 3]
            pile = []
    return tuple(tuple(sorted(cards)) for cards in known)


def random_game(players: int, seed: int,
                plies: int) -> tuple[ObsessionState, tuple[tuple[int, ...], ...]]:
    """A game after ``plies`` random actions (from the deal), and its face-up rows as dealt."""
    state = ObsessionGame.load(players=players).new_state(seed)
    first_visible = state.observation(0).visible
    rng = random.Random(seed)
    for _ in range(plies):
        if state.result is not None:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state, first_visible


def holds(hand: list[int] | tuple[int, ...], cards: tuple[int, ...] | list[int]) -> bool:
    return all(card in hand for card in cards)


@SETTINGS
@given(st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 5))
def test_known_cards_come_from_the_public_history_only(players: int, seed: int,
                                                       observer: int) -> None:
    """At every step of a random game, the known cards are what the public history shows, the
    same in every seat's view, and a part of each hand."""
    state = ObsessionGame.load(players=players).new_state(seed)
    first_visible = state.observation(0).visible
    rng = random.Random(seed)
    observer %= players
    for _ in range(400):
        obs = state.observation(observer)
        assert obs.known == known_from_history(list(obs.history), first_visible, players)
        assert all(state.observation(seat).known == obs.known for seat in range(players))
        for seat in range(players):
            assert holds(state.hands[seat], obs.known[seat])
        if state.result is not None:
            break
        state.apply(rng.choice(state.legal_actions()))


def game_with_known_cards(players: int) -> tuple[ObsessionState, int, int]:
    """A game in play where a seat other than the observer holds known cards and more cards
    besides: (game, observer, that seat)."""
    for seed in range(500):
        state, _ = random_game(players, seed, 10 + seed % 60)
        if state.result is not None:
            continue
        for seat in range(players):
            if state.known[seat] and len(state.hands[seat]) > len(state.known[seat]):
                return state, (seat + 1) % players, seat
    raise AssertionError("no such game found")


@pytest.mark.parametrize("players", [2, 4])
def test_every_python_world_deals_the_known_cards_to_their_hand(players: int) -> None:
    state, observer, seat = game_with_known_cards(players)
    known = state.known[seat]
    obs = state.observation(observer)
    dealt_elsewhere = 0
    for world_seed in range(300):
        for world in (state.sample_world(observer, world_seed),
                      sample_world_from_observation(obs, state.humans, world_seed,
                                                    state_class=ObsessionState)):
            assert holds(world.hands[seat], known)
            assert world.known == state.known
            assert world.observation(observer) == obs
            # The rest of that hand is dealt: it is not always the real one.
            dealt_elsewhere += sorted(world.hands[seat]) != sorted(state.hands[seat])
    assert dealt_elsewhere > 0


@pytest.mark.skipif(not fast.available() and not os.environ.get("CI"),
                    reason="the compiled core is not built (or CARDTABLE_PURE=1)")
@pytest.mark.parametrize("players", [2, 4])
def test_every_compiled_world_deals_the_known_cards_to_their_hand(players: int) -> None:
    state, observer, seat = game_with_known_cards(players)
    known = state.known[seat]
    core = fast.FastGame.from_game(state)
    dealt_elsewhere = 0
    for world_seed in range(300):
        exported = core.sample_world(observer, world_seed).export()
        assert holds(exported["hands"][seat], known)
        assert exported["known"] == tuple(map(tuple, state.known))
        dealt_elsewhere += sorted(exported["hands"][seat]) != sorted(state.hands[seat])
    assert dealt_elsewhere > 0


@pytest.mark.skipif(not fast.available() and not os.environ.get("CI"),
                    reason="the compiled core is not built (or CARDTABLE_PURE=1)")
def test_the_core_refuses_known_cards_outside_the_hand() -> None:
    state, _, seat = game_with_known_cards(2)
    other = (seat + 1) % 2
    stray = state.hands[other][0] if state.hands[other] else state.draw[0]
    state.known[seat] = sorted([*state.known[seat], stray])
    with pytest.raises(ValueError, match="not in the hand"):
        fast.FastGame.from_game(state)
