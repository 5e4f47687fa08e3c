"""Bots (§10): canonical move order, the random bot, the normal and friendly heuristics."""

from __future__ import annotations

import random

import pytest
from helpers import PRESET_NAMES, cards, position, seat_rules

from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.state import CaravanState


def choice(name: str, game: CaravanState, seed: int = 0) -> str:
    """The bot's move. A position set up here deals no decks: the mover is given a card to
    draw, so that playing its last card does not lose the game at once (the rule bots pass
    over such moves) and the bot's preferences show."""
    if not game.decks[game.turn] and game.hands[game.turn]:
        game.decks[game.turn] = [game.hands[game.turn][0]]
    bot = make_bot(name, game.turn, seed)
    return bot.choose(game.observation(game.turn)).notation


def notations(game: CaravanState) -> list[str]:
    return [move.notation for move in game.legal_moves()]


# ---------------------------------------------------------------- canonical order

def test_canonical_order_power():
    game = position(board={"A": "5S", "D": "8H"}, abc="7S QH 3D", def_="2C")
    assert notations(game) == ["P1A", "P1B", "P1C", "P3A", "P3B", "P3C", "P2A1", "P2D1",
                               "D1", "D2", "D3", "CA"]


def test_canonical_order_faces_by_hand_caravan_slot():
    game = position(board={"A": "5S 8S", "B": "4C", "E": "2H 9H 3H"}, abc="KS JC", def_="2C")
    faces = [m for m in notations(game) if len(m) == 4]
    assert faces == ["P1A1", "P1A2", "P1B1", "P1E1", "P1E2", "P1E3",
                     "P2A1", "P2A2", "P2B1", "P2E1", "P2E2", "P2E3"]


def test_canonical_order_destroy_restart_clears():
    game = position("foxon", board={"A": "5S", "C": "9D"}, abc="7S QH 3D", def_="2C")
    assert [m for m in notations(game) if m[0] == "C"] == ["CA1", "CA3", "CC1", "CC3"]


def test_equal_cards_at_different_positions_are_different_moves():
    game = position(board={"A": "5S"}, abc="7S 7S", def_="2C")
    assert notations(game)[:6] == ["P1A", "P1B", "P1C", "P2A", "P2B", "P2C"]


# -------------------------------------------------------------------- random bot

@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_random_bot_picks_randrange_of_the_canonical_list(preset, seed):
    game = CaravanState.new(SeatRules.preset(preset), seed=seed)
    bots = [make_bot("random", s, seed) for s in (0, 1)]
    mirrors = [random.Random(f"{seed}:bot:{name}") for name in ("ABC", "DEF")]
    for _ in range(40):
        if game.result is not None:
            break
        seat = game.turn
        moves = game.legal_moves()
        expected = moves[mirrors[seat].randrange(len(moves))]
        chosen = bots[seat].choose(game.observation(seat))
        assert chosen == expected
        game.play(chosen)


# -------------------------------------------------------------------- normal bot

def test_normal_start_round_places_lowest_numeral_on_the_kth_caravan():
    game = position(board={"A": "5S"}, abc="QS 4H 9D", def_="2C", placed=(1, 0))
    assert choice("normal", game) == "P2B"
    game = position(board={"A": "5S", "D": "5S", "E": "6S"}, abc="2C", def_="KS QS 9D 3C",
                    placed=(1, 2), turn="DEF")
    assert choice("normal", game) == "P3F"


def test_normal_start_round_without_numeral_discards_when_allowed():
    rules = seat_rules("power", mulligan="discard")
    game = position(rules, board={"A": "5S"}, abc="QS KH", def_="2C", placed=(1, 0))
    assert choice("normal", game) == "D1"


@pytest.mark.parametrize(("preset", "expected"), [
    ("power", "CB"), ("nv", "CB"), ("karavane", "CB"), ("foxon", "CB2")])
def test_normal_clears_the_first_bust_caravan(preset, expected):
    game = position(preset, board={"A": "10S 10H 3S", "B": "10S 10H 9S", "C": "10S 10H 9C"},
                    abc="QS 4H 9D", def_="2C")
    assert choice("normal", game) == expected


def test_normal_clears_a_full_caravan():
    game = position(board={"A": "AS 3S 5S 3S 5S 3S 5S 3S"}, abc="4H", def_="2C")
    assert choice("normal", game) == "CA"


def test_normal_destroy_restart_without_numeral_skips_the_clear():
    game = position("foxon", board={"A": "10S 10H 9S"}, abc="QS KH", def_="2C")
    assert choice("normal", game) != "CA1"
    assert choice("normal", game)[0] != "C"


def test_normal_clear_disabled_skips_the_clear():
    rules = seat_rules("power", clear_policy="disabled")
    game = position(rules, board={"A": "10S 10H 9S"}, abc="2H", def_="2C")
    assert choice("normal", game) == "P1B"


def test_normal_clear_thresholds_are_its_own_seats_rules():
    rules = SeatRules(seat_rules("power", sold_max=30).abc, seat_rules("power").def_)
    game = position(rules, board={"A": "10S 10H 9S", "D": "10S 10H 9S"}, abc="2H", def_="3H",
                    turn="ABC")
    assert choice("normal", game) == "P1B"
    game.turn = 1
    assert choice("normal", game) == "CD"


def test_normal_numeral_skips_a_winning_caravan_and_fills_an_empty_one():
    board = {"A": "10S 10H 3S", "D": "10D", "B": "10S 5S"}
    game = position(board=board, abc="9H 4H 3S", def_="2C")
    assert choice("normal", game) == "P1C"


def test_normal_numeral_needs_suit_or_direction():
    board = {"A": "10S 10H 3S", "D": "10D", "B": "10S 5S", "C": "2C"}
    game = position(board=board, abc="9H 4H 3S", def_="2C")
    assert choice("normal", game) == "P2B"


def test_normal_numeral_direction_any_accepts_only_same_suit():
    board = {"A": "10S 10H 3S", "D": "10D", "B": "10S 10H 5S", "C": "2C"}
    game = position(board=board, abc="9H 5C", def_="2C")
    assert choice("normal", game) == "P2C"


def test_normal_numeral_skips_when_the_partner_is_bust():
    board = {"A": "10S 10H 3S", "D": "10D 10H 8H", "B": "10S 10H 9S 2S"}
    game = position(board=board, abc="2C", def_="2C")
    # A is in range and D is bust: skip A; B is bust (31) and is cleared first.
    assert choice("normal", game) == "CB"
    game.caravans[1] = ()
    game._refresh(1)
    assert choice("normal", game) == "P1B"


def test_normal_numeral_must_not_overflow():
    board = {"A": "10S 10H 3S", "D": "10D", "B": "10S 10H", "C": "10S 10H"}
    game = position(board=board, abc="9H 7C", def_="2C")
    assert choice("normal", game) == "D1"


def test_normal_numeral_skips_same_rank():
    board = {"A": "10S 10H 3S", "D": "10D", "B": "5S", "C": "10S 4C"}
    game = position(board=board, abc="5S", def_="2C")
    assert choice("normal", game) == "D1"


def test_normal_face_targets_the_opponent_caravan_with_most_numerals():
    board = {"A": "10S 10H 3S", "D": "10D", "E": "2H 3H 4H", "F": "5C 6C 7C"}
    game = position(board=board, abc="KS", def_="2C")
    assert choice("normal", game) == "P1E3"


def test_normal_face_at_cap_moves_on_to_the_next_card():
    board = {"A": "10S 10H 3S", "D": "10D", "E": "2H 3H 4H+KC+KC+KC", "F": "5C 6C 7C"}
    game = position(board=board, abc="KS 10C", def_="2C")
    assert choice("normal", game) == "P2B"


def test_normal_face_without_opponent_numerals():
    game = position(board={"A": "10S 10H 3S"}, abc="QS", def_="2C")
    assert choice("normal", game) == "D1"


@pytest.mark.parametrize(("preset", "expected"), [
    ("power", "P1E3"), ("nv", "P1E3"), ("karavane", "P1E3"), ("foxon", "D1")])
def test_normal_face_skipped_when_illegal(preset, expected):
    board = {"A": "10S 10H 3S", "D": "10D", "E": "2H 3H 4H", "F": "5C 6C 7C"}
    game = position(preset, board=board, abc="JS", def_="2C")
    assert choice("normal", game) == expected


def test_normal_opening_none_fills_empty_caravans_by_step_three():
    game = position("karavane", board={}, abc="QS 4H 9D", def_="2C", placed=(0, 0))
    assert choice("normal", game) == "P2A"


def test_normal_is_deterministic():
    game = CaravanState.new(SeatRules.preset("power"), seed=9)
    assert {choice("normal", game, seed) for seed in range(5)} == {choice("normal", game, 0)}


# ------------------------------------------------------------------ friendly bot

def test_friendly_never_plays_faces():
    board = {"A": "10S 10H 3S", "D": "10D", "E": "2H 3H 4H", "F": "5C 6C 7C"}
    game = position(board=board, abc="KS 10C", def_="2C")
    assert choice("normal", game) == "P1E3"
    assert choice("friendly", game) == "P2B"
    game.hands[0] = cards("KS QH")
    assert choice("friendly", game) == "D1"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_friendly_whole_game_plays_no_face(preset):
    game = CaravanState.new(SeatRules.preset(preset), seed=21)
    bots = [make_bot("friendly", 0, 21), make_bot("normal", 1, 21)]
    for _ in range(600):
        if game.result is not None:
            break
        seat = game.turn
        event = game.play(bots[seat].choose(game.observation(seat)))
        if seat == 0 and event.move.kind == 0:
            assert event.card is not None and event.card & 15 <= 10


# ------------------------------------------------------------- observations only

@pytest.mark.parametrize("name", ["random", "normal", "friendly"])
def test_bots_decide_from_the_observation_alone(name):
    board = {"A": "10S 5S", "D": "10D", "E": "2H 3H"}
    one = position(board=board, abc="KS 4H 9C", def_="2C 3C 4C",
                   decks=(cards("2S 3S"), cards("5D", 1)))
    two = position(board=board, abc="KS 4H 9C", def_="QD JO 7H",
                   decks=(cards("3S 2S"), cards("6D", 1)))
    for seed in range(5):
        assert choice(name, one, seed) == choice(name, two, seed)
