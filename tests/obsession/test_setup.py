"""Setup rules: decks, shuffle, deal, display order, swap, starting player, opening play."""

from __future__ import annotations

import random

import pytest

from cardtable.engine.errors import IllegalAction
from cardtable.games.obsession.actions import Play, Swap
from cardtable.games.obsession.cards import FACE, TEXT, canonical_deck
from cardtable.games.obsession.events import Played, Started
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import ObsessionState

from .helpers import CardPool, texts

CARDS = {2: 54, 3: 108, 4: 108, 5: 162, 6: 162, 7: 216, 8: 216, 9: 270, 10: 270}
DRAW = {2: 36, 3: 81, 4: 72, 5: 117, 6: 108, 7: 153, 8: 144, 9: 189, 10: 180}


@pytest.mark.parametrize("players", range(2, 11))
def test_decks_per_player_count(players: int) -> None:
    game = ObsessionState.new(Rules(players=players), [False] * players, 1)
    assert len(game.deck) == CARDS[players] == 54 * Rules(players=players).decks
    assert len(set(game.deck)) == len(game.deck)
    assert len(game.draw) == DRAW[players]
    assert sum(TEXT[c] == "R" for c in game.deck) == 2 * Rules(players=players).decks


def test_canonical_order_is_face_major_with_two_jokers_per_deck() -> None:
    deck = texts(canonical_deck(2))
    assert deck[:8] == ["2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S"]
    assert deck[48:54] == ["AC", "AD", "AH", "AS", "R", "R"]
    assert deck[54:56] == ["2C", "2D"]


def test_shuffle_is_random_random_seed_shuffle() -> None:
    expected = canonical_deck(2)
    random.Random(42).shuffle(expected)
    assert ObsessionState.new(Rules(players=4), [False] * 4, 42).deck == tuple(expected)


def test_deal_is_seat_by_seat_not_round_robin() -> None:
    game = ObsessionState.new(Rules(players=3), [False] * 3, 7)
    deck = game.deck
    for seat in range(3):
        base = 9 * seat
        assert game.hands[seat] == sorted(deck[base:base + 3])
        assert game.visible[seat] == sorted(deck[base + 3:base + 6])
        assert game.hidden[seat] == list(deck[base + 6:base + 9])  # dealt order is kept
    assert game.draw[-1] == deck[27]  # the next card is the top of the draw pile


def test_display_order_is_rank_then_suit_then_deck_jokers_last() -> None:
    pool = CardPool()
    cards = pool.many("R KS 10D 2S 9H 2C AD 9H R")
    assert texts(sorted(cards)) == ["2C", "2S", "9H", "9H", "10D", "KS", "AD", "R", "R"]


def test_swap_takes_exactly_three_distinct_cards_from_the_pool() -> None:
    game = ObsessionState.new(Rules(players=2), [True, True], 3)
    pool = sorted(game.hands[0] + game.visible[0])
    with pytest.raises(IllegalAction, match="You must select 3 cards"):
        game.apply(Swap(tuple(pool[:2])))
    with pytest.raises(IllegalAction, match="Duplicate card selection"):
        game.apply(Swap((pool[0], pool[0], pool[1])))
    with pytest.raises(IllegalAction, match="Invalid card selection"):
        game.apply(Swap((pool[0], pool[1], game.hidden[0][0])))
    with pytest.raises(IllegalAction, match="Invalid selection"):
        game.apply(Play((pool[0],)))
    game.apply(Swap((pool[0], pool[2], pool[4])))
    assert game.visible[0] == [pool[0], pool[2], pool[4]]
    assert game.hands[0] == [pool[1], pool[3], pool[5]]
    assert game.to_move == "P2"


def _deal(players: int, hands: list[str], rest: int = 0) -> list[int]:
    """A deck whose deal gives these hands; visible and hidden rows hold unremarkable cards."""
    pool = CardPool()
    deck: list[int] = []
    faces = ["K", "Q", "J", "A"]
    filler = iter([face + suit for face in faces for suit in "CDHS"] * 3)
    for seat in range(players):
        deck += pool.many(hands[seat])
        deck += pool.many(" ".join(next(filler) for _ in range(6)))
    remaining = [c for c in canonical_deck((players + 1) // 2) if c not in pool.used]
    return deck + remaining[:len(remaining) - rest]


def _start(game: ObsessionState) -> None:
    for seat in range(game.players):
        game.apply(Swap(tuple(game.visible[seat])))


def test_starting_player_walks_start_order_and_ties_go_to_the_lowest_seat() -> None:
    # E1: no hand holds a 4 or a 5; P2 and P3 hold a 6, so P2 starts.
    game = ObsessionState(Rules(players=3), _deal(3, ["9C KD 2S", "6H 6S QC", "6D AH R"]),
                          [False] * 3)
    _start(game)
    started = [e for e in game.events if isinstance(e, Started)]
    assert started == [Started(1)]


def test_opening_play_is_every_copy_of_the_start_face_and_passes_the_turn() -> None:
    game = ObsessionState(Rules(players=3), _deal(3, ["9C KD 2S", "6H 6S QC", "6D AH R"]),
                          [False] * 3)
    _start(game)
    opening = next(e for e in game.events if isinstance(e, Played))
    assert opening.auto and opening.n == 1 and texts(opening.cards) == ["6H", "6S"]
    assert opening.drew == 2 and len(game.hands[1]) == 3
    assert game.run == 2 and game.to_move == "P3"


def test_only_the_hand_decides_the_starting_player() -> None:
    # P1 swaps its 4 into its visible row; P2 holds a 5 in its hand and starts.
    game = ObsessionState(Rules(players=2), _deal(2, ["4S QS JS", "5C AC AD"]), [False, False])
    game.apply(Swap(tuple(sorted(game.hands[0] + game.visible[0])[:3])))
    assert texts(game.visible[0])[0] == "4S"
    game.apply(Swap(tuple(game.visible[1])))
    assert next(e for e in game.events if isinstance(e, Started)) == Started(1)


def test_extra_turn_after_the_opening_play_is_an_ordinary_decision() -> None:
    # D7: P1 opens with its 8s (nobody holds an earlier face) and must then choose itself.
    pool_hands = ["8C 8D 10C", "10D R R"]
    game = ObsessionState(Rules(players=2), _deal(2, pool_hands), [False, False])
    _start(game)
    opening = next(e for e in game.events if isinstance(e, Played))
    assert texts(opening.cards) == ["8C", "8D"] and opening.effects == ("extra",)
    assert game.to_move == "P1" and game.plays == 1
    assert all(isinstance(a, Play) for a in game.legal_actions())


def test_direction_starts_forward() -> None:
    game = ObsessionState.new(Rules(players=5), [False] * 5, 9)
    assert game.direction == 1


def test_every_face_and_suit_appears_in_each_deck() -> None:
    deck = canonical_deck(1)
    assert sorted({FACE[c] for c in deck}) == list(range(2, 16))
