"""Austerity's ``deal`` rule: the deck file's order by default (the hub's game), or the deck
shuffled from the seed, deterministically; positions and records of shuffled games stay exact.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import cardtable
from cardtable.engine.errors import GameParamsError, PositionError
from cardtable.games.austerity.game import AusterityGame, shuffled_deck
from cardtable.games.austerity.record import read_hub_record, replay_hub_record
from cardtable.games.austerity.state import AusterityState
from cardtable.web.record import record_lines, record_text

DECKS = Path(__file__).parent / "decks"


def load(**params: object) -> AusterityGame:
    game = cardtable.load_game("austerity", **params)
    assert isinstance(game, AusterityGame)
    return game


def dealt(state: AusterityState) -> list[str]:
    return [card.text() for card in state.setup[0]]


def play_randomly(state: AusterityState, seed: int, turns: int = 10_000) -> list[str]:
    rng = random.Random(seed)
    moves = []
    while state.result is None and len(moves) < turns:
        action = rng.choice(state.legal_actions())
        moves.append(state.action_text(action))
        state.apply(action)
    return moves


@pytest.mark.parametrize("seed", [None, 0, 1, 12345])
def test_the_default_deal_is_the_deck_file_in_order_whatever_the_seed(seed: int | None) -> None:
    for game in (load(), load(deal="file"), load(deck=str(DECKS / "large.deck"), players=4)):
        assert game.deal == "file"
        state = game.new_state(seed)
        assert dealt(state) == [card.text() for card in game.deck]
        assert [card.text() for card in state.table.market] == dealt(state)[:8]


def test_a_shuffled_deal_from_one_seed_is_always_the_same_order() -> None:
    game = load(deal="shuffled")
    assert dealt(game.new_state(7)) == dealt(game.new_state(7))
    assert dealt(load(deal="shuffled", players=3).new_state(7)) == dealt(game.new_state(7))
    assert shuffled_deck(game.deck, 7) == list(game.new_state(7).setup[0])


def test_shuffled_deals_from_different_seeds_differ_and_keep_the_deck_s_cards() -> None:
    game = load(deal="shuffled")
    assert len(set(game.deck)) > 1
    orders = {tuple(dealt(game.new_state(seed))) for seed in range(50)}
    assert len(orders) == 50
    assert tuple(card.text() for card in game.deck) not in orders
    for order in orders:
        assert Counter(order) == Counter(card.text() for card in game.deck)


def test_a_shuffled_deal_without_a_seed_draws_a_fresh_one() -> None:
    game = load(deal="shuffled")
    assert len({tuple(dealt(game.new_state())) for _ in range(5)}) > 1


def test_the_market_is_turned_up_from_the_shuffled_deck() -> None:
    state = load(deal="shuffled", deck=str(DECKS / "large.deck")).new_state(3)
    assert [card.text() for card in state.table.market] == dealt(state)[:8]
    assert state.game.next_card == 8


@pytest.mark.parametrize("value", ["Shuffled", "random", "", 1, True, None])
def test_a_bad_deal_is_refused_with_the_values_allowed(value: object) -> None:
    with pytest.raises(GameParamsError) as caught:
        load(deal=value)
    assert caught.value.message.startswith("Unknown deal '")
    assert caught.value.message.endswith("for austerity (allowed: file, shuffled).")


def test_a_long_bad_deal_is_cut_short_in_the_message() -> None:
    with pytest.raises(GameParamsError) as caught:
        load(deal="x" * 500 + "\n")
    assert len(caught.value.message) < 100 and "\n" not in caught.value.message


@pytest.mark.parametrize("turns", [0, 5, 40, 10_000])
def test_positions_of_a_shuffled_game_round_trip_and_continue_identically(turns: int) -> None:
    game = load(deal="shuffled", players=3, tokens=4, points=10)
    state = game.new_state(21)
    play_randomly(state, 5, turns)
    restored = game.state_from_position(state.to_position())
    assert restored.to_position() == state.to_position()
    assert restored.result == state.result
    rng = random.Random(9)
    while state.result is None:
        action = rng.choice(state.legal_actions())
        assert state.apply(action) == restored.apply(action)
        assert restored.to_position() == state.to_position()
    assert restored.result == state.result


def test_a_shuffled_position_is_refused_under_the_file_deal_and_back() -> None:
    shuffled, in_order = load(deal="shuffled"), load()
    with pytest.raises(PositionError, match="position field 'params'"):
        in_order.state_from_position(shuffled.new_state(2).to_position())
    with pytest.raises(PositionError, match="position field 'params'"):
        shuffled.state_from_position(in_order.new_state(2).to_position())


def test_the_fingerprint_of_a_shuffled_deal_is_the_same_for_every_seed() -> None:
    game = load(deal="shuffled")
    fingerprints = {game.new_state(seed).to_position().split(" ")[1] for seed in range(10)}
    assert len(fingerprints) == 1


@pytest.mark.parametrize("seed", [1, 2])
def test_a_record_of_a_shuffled_web_table_holds_the_dealt_deck_and_replays(seed: int) -> None:
    params = {"players": 2, "deal": "shuffled"}
    kinds = ["bot:shenzi", "bot:ed"]
    from cardtable.web.games import new_state

    state = new_state("austerity", params, seed, kinds)
    moves = play_randomly(state, seed)
    assert state.result is not None
    text = record_text("austerity", params, seed, kinds, moves)
    lines = record_lines(text)
    deck_line = lines[1]
    assert (deck_line["type"], deck_line["event"]) == ("chance", "deck")
    assert deck_line["cards"] == dealt(state)
    assert deck_line["cards"] != [card.text() for card in load().deck]
    replayed = replay_hub_record(read_hub_record("web", text.splitlines()))
    assert replayed.result == state.result
    assert replayed.table.points == state.table.points
