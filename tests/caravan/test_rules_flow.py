"""Game flow (§6): opening modes, drawing, deck exhaustion, mulligans, lanes and the end."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import PRESET_NAMES, card, cards, codes, play, position, seat_rules, show, snapshot

from cardtable.engine.randomness import GameRandom
from cardtable.games.caravan.cards import make
from cardtable.games.caravan.errors import IllegalMove
from cardtable.games.caravan.notation import Move
from cardtable.games.caravan.observation import HIDDEN_CARD
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.state import CaravanState


def top_last(text: str, owner: int = 0) -> list[int]:
    return list(reversed(cards(text, owner)))


def start(rules, abc_deck: list[int], def_deck: list[int], first: int = 0,
          seed: int = 5) -> CaravanState:
    return CaravanState.start(seat_rules(rules), seed, first, [abc_deck, def_deck], (False, False),
                      GameRandom(seed))


def numerals(owner: int, count: int, sample: int = 1) -> list[int]:
    return [make(1 + i % 10, i % 4, owner, sample + i // 40) for i in range(count)]


# ------------------------------------------------------------------ turn errors

def test_it_is_not_your_turn():
    game = position(board={"A": "5S", "D": "5S"}, abc="7S", def_="7S")
    before = snapshot(game)
    with pytest.raises(IllegalMove) as caught:
        game.play(Move(1, 1, 0, 1))
    assert caught.value.message == "It is not DEF's turn."
    assert snapshot(game) == before


def test_the_game_has_already_been_won():
    game = position(board={"A": "10S 10H 3S", "B": "10S 10H 3S", "D": "5S", "E": "5S"},
                    abc="2C 7S", def_="7S 8S")
    play(game, "D1")
    assert game.result is None
    game.caravans[2] = ((card("10C"), ()), (card("10D"), ()), (card("3C"), ()))
    game._refresh(2)
    play(game, "D1")  # DEF moves; the end check sees ABC with three lanes
    assert game.result is not None and game.result.winners == ("ABC",)
    for seat in (0, 1):
        with pytest.raises(IllegalMove) as caught:
            game.play(Move(seat, 1, 0, 1))
        assert caught.value.message == "The game has already been won."
    assert game.legal_codes() == []


# ---------------------------------------------------------------------- opening

@pytest.mark.parametrize("first", ["ABC", "DEF"])
def test_opening_alternate_order_and_no_draws(first):
    game = CaravanState.new(SeatRules.preset("power"), seed=3, first=first)
    opener = 0 if first == "ABC" else 1
    order = []
    for _ in range(6):
        seat = game.turn
        order.append(seat)
        hand_before = len(game.hands[seat])
        empty = next(i for i in range(3 * seat, 3 * seat + 3) if not game.caravans[i])
        position_ = next(p for p, c in enumerate(game.hands[seat], 1) if c & 15 <= 10)
        game.apply_code(Move(seat, 0, empty, position_).code)
        assert len(game.hands[seat]) == hand_before - 1
    assert order == [opener, 1 - opener] * 3
    assert [len(h) for h in game.hands] == [5, 5]
    assert game.placed == [3, 3]
    assert game.turn == opener
    deck = len(game.decks[opener])
    game.apply_code(Move(opener, 1, 0, 1).code)  # first regular move draws
    assert len(game.hands[opener]) == 5 and len(game.decks[opener]) == deck - 1


def test_opening_alternate_start_round_ends_one_turn_earlier_for_the_first_player():
    game = position(board={"A": "5S", "B": "6S", "D": "5S", "E": "6S"}, placed=(2, 2),
                    abc="7S 2C 3C", def_="7S 2C 3C")
    play(game, "P1C")
    assert not game.in_opening(0) and game.in_opening(1)
    assert game.turn == 1
    with pytest.raises(IllegalMove):
        play(game, "D1")
    play(game, "P1F")
    play(game, "D1")
    assert game.turn == 1


def test_opening_simultaneous_first_player_places_three_in_a_row():
    game = CaravanState.new(SeatRules.preset("foxon"), seed=11)
    for count in range(3):
        assert game.turn == 0
        hidden_slot = ((HIDDEN_CARD, ()),)
        expected = (hidden_slot,) * count + ((),) * (3 - count)
        assert game.observation(1).caravans[:3] == expected
        code = next(c for c in game.legal_codes())
        game.apply_code(code)
    assert game.turn == 1
    hidden = game.observation(1)
    assert all(slot[0] == HIDDEN_CARD for i in range(3) for slot in hidden.caravans[i])
    assert all(c == HIDDEN_CARD for entry in hidden.history if entry.seat == 0 for c in entry.cards)
    for count in range(1, 4):
        assert game.turn == 1
        game.apply_code(game.legal_codes()[0])
        seen = game.observation(0).caravans[3:]
        if count < 3:
            assert all(slot[0] == HIDDEN_CARD for caravan in seen for slot in caravan)
            assert len(game.hands[1]) == 8 - count
    assert game.turn == 0
    assert [len(h) for h in game.hands] == [5, 5]
    revealed = game.observation(1)
    assert revealed.caravans == tuple(game.caravans)


def test_opening_simultaneous_second_seat_first():
    game = CaravanState.new(SeatRules.preset("foxon"), seed=12, first="DEF")
    seats = []
    for _ in range(6):
        seats.append(game.turn)
        game.apply_code(game.legal_codes()[0])
    assert seats == [1, 1, 1, 0, 0, 0]
    assert game.turn == 1


def test_opening_none_moves_freely_with_eight_cards():
    game = CaravanState.new(SeatRules.preset("karavane"), seed=4)
    assert [len(h) for h in game.hands] == [8, 8]
    assert not game.in_opening(0)
    deck = len(game.decks[0])
    game.apply_code(Move(0, 1, 0, 1).code)   # discarding at once is legal
    assert len(game.hands[0]) == 7 and len(game.decks[0]) == deck
    assert game.turn == 1


@pytest.mark.parametrize(("preset", "opening"), [
    ("power", True), ("nv", True), ("foxon", True), ("karavane", False)])
def test_opening_mode_per_preset(preset, opening):
    game = CaravanState.new(SeatRules.preset(preset), seed=2)
    assert game.in_opening(0) is opening
    discard = Move(0, 1, 0, 1)
    if opening:
        with pytest.raises(IllegalMove) as caught:
            game.play(discard)
        assert caught.value.message == "A player cannot discard a card during the Start round."
    else:
        game.play(discard)
        assert len(game.piles[0]) == 1


# ------------------------------------------------------------------------ draws

@pytest.mark.parametrize(("preset", "after"), [
    ("power", 3), ("nv", 3), ("foxon", 5), ("karavane", 5)])
def test_draw_mode_per_preset(preset, after):
    game = position(preset, board={"A": "5S"}, abc="7S 8S 9S", def_="2C",
                    decks=(top_last("2H 3H 4H 5H"), []))
    play(game, "D1")
    assert len(game.hands[0]) == after
    assert codes(game.hands[0])[2:] == ["2H", "3H", "4H"][: after - 2]


def test_draw_appends_at_the_end_of_the_hand():
    game = position(board={"A": "5S"}, abc="7S 8S 9S 10S 2S", def_="2C",
                    decks=(top_last("3H 4H"), []))
    play(game, "D1")
    assert codes(game.hands[0]) == ["8S", "9S", "10S", "2S", "3H"]


def test_draw_mode_one_does_not_draw_with_a_full_hand():
    rules = seat_rules("power", hand_size=3)
    game = position(rules, board={"A": "5S"}, abc="7S 8S 9S 10S", def_="2C",
                    decks=(top_last("3H"), []))
    play(game, "D1")
    assert codes(game.hands[0]) == ["8S", "9S", "10S"]


def test_hand_size_is_the_seats_own():
    rules = SeatRules(replace(PRESETS["foxon"], hand_size=3), PRESETS["foxon"])
    game = position(rules, board={"A": "5S", "D": "5S"}, abc="7S", def_="7S",
                    decks=(top_last("2H 3H 4H 5H 6H"), top_last("2C 3C 4C 5C 6C", 1)))
    play(game, "D1")
    play(game, "D1")
    assert [len(h) for h in game.hands] == [3, 5]


@pytest.mark.parametrize(("preset", "hand"), [
    ("power", ["8S", "9S"]), ("nv", ["8S", "9S"]), ("karavane", ["8S", "9S"]),
    ("foxon", ["8S", "9S", "7S", "4S", "2S"])])
def test_deck_exhaustion_per_preset(preset, hand):
    game = position(preset, board={"A": "5S"}, abc="7S 8S 9S", def_="2C", decks=([], []))
    game.piles[0] = cards("4S 2S")
    pile = list(game.piles[0])
    event = game.play(Move(0, 1, 0, 1))
    if preset == "foxon":
        assert sorted(codes(game.hands[0])[2:]) == sorted(["7S", "4S", "2S"])
        assert game.piles[0] == [] and game.decks[0] == []
        assert len(event.shuffles) == 1 and event.shuffles[0][0] == 0
        assert sorted(event.shuffles[0][1]) == sorted([*pile, card("7S")])
    else:
        assert codes(game.hands[0]) == hand
        assert codes(game.piles[0]) == ["4S", "2S", "7S"]
        assert event.shuffles == ()


def test_reshuffle_discards_with_an_empty_pile_draws_nothing():
    game = position("foxon", board={"A": "5S 7S"}, abc="QS 8S", def_="2C", decks=([], []))
    play(game, "P1A2")
    assert codes(game.hands[0]) == ["8S"]


def test_deck_exhaustion_is_the_seats_own():
    recycling = replace(PRESETS["power"], deck_exhaustion="reshuffle_discards")
    rules = SeatRules(PRESETS["power"], recycling)
    game = position(rules, board={"A": "5S", "D": "5S"}, abc="7S 8S", def_="7S 8S")
    play(game, "D1")
    play(game, "D1")
    assert codes(game.hands[0]) == ["8S"]
    assert codes(game.hands[1]) == ["8S", "7S"]


# ---------------------------------------------------------------------- mulligans

FACES_FIRST = "QS KS QH KH QD KD QC KC"


def test_mulligan_reshuffle_shows_the_hand_publicly():
    deck = numerals(0, 20, sample=2) + top_last(FACES_FIRST)
    game = start("nv", deck, numerals(1, 30))
    assert sum(1 for c in game.hands[0] if c & 15 <= 10) >= 3
    assert game.mulligans and game.mulligans[0][0] == 0
    assert codes(game.mulligans[0][1]) == FACES_FIRST.split()
    shown = [entry for entry in game.history if entry.code is None]
    assert shown[0].seat == 0 and codes(shown[0].cards) == FACES_FIRST.split()
    assert game.observation(1).history[0].cards == shown[0].cards
    assert sorted(game.hands[0] + game.decks[0]) == sorted(deck)


@pytest.mark.parametrize(("preset", "mulligan"), [
    ("power", False), ("nv", True), ("foxon", True), ("karavane", False)])
def test_mulligan_policy_per_preset(preset, mulligan):
    deck = numerals(0, 20, sample=2) + top_last(FACES_FIRST)
    game = start(preset, deck, numerals(1, 30))
    assert bool(game.mulligans) is mulligan
    if not mulligan:
        assert codes(game.hands[0]) == FACES_FIRST.split()


def test_mulligan_none_without_numerals_loses_for_no_legal_move():
    rules = seat_rules("power", mulligan="none")
    game = start(rules, numerals(0, 20, sample=2) + top_last(FACES_FIRST), numerals(1, 30))
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == (("DEF",), "no_legal_move")


def test_mulligan_none_seat_that_cannot_complete_its_opening_loses():
    rules = seat_rules("power", mulligan="none")
    hand = top_last("2S 3S QS KS QH KH QD KD")
    game = start(rules, numerals(0, 5, sample=2) + hand, numerals(1, 30))
    play(game, "P1A")
    play(game, "P1D")
    play(game, "P1B")
    assert game.result is None
    play(game, "P1E")
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == (("DEF",), "no_legal_move")


def test_mulligan_discard_during_alternate_opening():
    rules = seat_rules("power", mulligan="discard")
    hand = top_last("2S QS KS QH KH QD KD QC")
    game = start(rules, top_last("4C 5C") + hand, numerals(1, 30))
    assert game.result is None
    assert [m.notation for m in game.legal_moves()] == [
        "P1A", "P1B", "P1C", "D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8"]
    play(game, "D2")
    assert codes(game.hands[0]) == ["2S", "KS", "QH", "KH", "QD", "KD", "QC", "4C"]
    assert game.placed == [0, 0] and game.turn == 1
    assert codes(game.piles[0]) == ["QS"]


def test_mulligan_discard_refused_with_enough_numerals():
    rules = seat_rules("power", mulligan="discard")
    game = start(rules, numerals(0, 30), numerals(1, 30))
    with pytest.raises(IllegalMove) as caught:
        play(game, "D1")
    assert caught.value.message == "A player cannot discard a card during the Start round."


def test_mulligan_discard_under_simultaneous_acts_like_reshuffle():
    rules = seat_rules("foxon", mulligan="discard")
    game = start(rules, numerals(0, 20, sample=2) + top_last(FACES_FIRST), numerals(1, 30))
    assert game.mulligans and codes(game.mulligans[0][1]) == FACES_FIRST.split()


def test_mulligan_is_the_seats_own():
    rules = SeatRules(PRESETS["power"], PRESETS["nv"])
    faces_def = list(reversed(cards(FACES_FIRST, 1)))
    game = start(rules, numerals(0, 20, sample=2) + top_last(FACES_FIRST),
                 numerals(1, 20, sample=2) + faces_def)
    assert [m[0] for m in game.mulligans] == [1]


def test_opening_hand_size():
    rules = seat_rules("power", opening_hand_size=6)
    game = start(rules, numerals(0, 30), numerals(1, 30))
    assert [len(h) for h in game.hands] == [6, 6]


# -------------------------------------------------------------- lanes and winner

E7 = {"A": "10S 9S 4S", "D": "10H 9H 8H", "B": "10S 10D 6S", "E": "10H 10C 2H 4D",
      "C": "10C 9C", "F": "10D 9D 3D"}


def test_e7_lanes_and_a_king_decides():
    game = position(board=E7, abc="KS 2C", def_="2H 3H")
    assert [game.summaries[i][0] for i in range(6)] == [23, 26, 19, 27, 26, 22]
    assert game.lanes() == [0, None, 1]
    play(game, "P1E4")
    assert game.summaries[4][0] == 30
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == (("ABC",), "lanes")
    assert game.result.details["lanes"] == ["ABC", "ABC", "DEF"]


def test_e7_require_all_caravans_is_the_winners_rule():
    rules = SeatRules(replace(PRESETS["power"], require_all_caravans=True), PRESETS["power"])
    game = position(rules, board=E7, abc="KS 2C", def_="2H 3H")
    play(game, "P1E4")
    assert game.result is None
    assert game.lanes() == [0, 0, 1]
    assert game.turn == 1


def test_require_all_caravans_of_the_loser_does_not_matter():
    rules = SeatRules(PRESETS["power"], replace(PRESETS["power"], require_all_caravans=True))
    game = position(rules, board=E7, abc="KS 2C", def_="2H 3H")
    play(game, "P1E4")
    assert game.result is not None and game.result.winners == ("ABC",)


def test_e7_per_seat_ranges_higher_value_takes_the_lane():
    rules = SeatRules(PRESETS["power"], replace(PRESETS["power"], sold_max=28))
    game = position(rules, board=E7, abc="KS 2C", def_="2H 3H")
    assert game.lanes() == [1, None, 1]


@pytest.mark.parametrize(("abc_value", "def_value", "taker"), [
    (21, 20, 0), (26, 21, 0), (27, 22, 1), (27, 28, None), (20, 19, None), (26, 26, None),
    (20, 27, None), (21, 27, 0), (25, 26, 1)])
def test_lane_result(abc_value, def_value, taker):
    def caravan_of(value: int) -> str:
        parts = []
        while value > 10:
            parts.append("10S")
            value -= 10
        parts.append("AS" if value == 1 else f"{value}S")
        return " ".join(parts)
    game = position(board={"A": caravan_of(abc_value), "D": caravan_of(def_value)})
    assert game.summaries[0][0] == abc_value and game.summaries[3][0] == def_value
    assert game.lanes()[0] == taker


def test_ties_do_not_end_the_game():
    board = {"A": "10S 10H 6S", "D": "10S 10H 6S", "B": "10S 10H 6S", "E": "10S 10H 6S",
             "C": "10S 10H 6S", "F": "10S 10H 6S"}
    game = position(board=board, abc="2C 3C", def_="2H 3H")
    play(game, "D1")
    assert game.result is None


@pytest.mark.parametrize(("preset", "winner", "reason"), [
    ("power", "ABC", "lanes"), ("nv", "ABC", "lanes"), ("foxon", "ABC", "lanes"),
    ("karavane", "DEF", "out_of_cards")])
def test_out_of_cards_order_per_preset(preset, winner, reason):
    # §12 question 11: the last card completes two lanes of three.
    board = {"A": "10S 10H 2S", "B": "10S 8S", "C": "10S 5H", "D": "10S", "E": "10S",
             "F": "10S 10H 3H"}
    game = position(preset, board=board, abc="4S", def_="2H 3H")
    assert game.lanes() == [0, None, 1]
    play(game, "P1B")
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == ((winner,), reason)


def test_out_of_cards_the_other_seat_wins():
    game = position(board={"A": "5S", "D": "5S"}, abc="7S", def_="2H 3H")
    play(game, "D1")
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == (("DEF",), "out_of_cards")


def test_out_of_cards_after_the_draw_step():
    game = position(board={"A": "5S", "D": "5S"}, abc="7S", def_="2H 3H", decks=(cards("9C"), []))
    play(game, "D1")
    assert game.result is None
    assert codes(game.hands[0]) == ["9C"]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_both_hands_empty_is_a_draw(preset):
    game = position(preset, board={"A": "5S", "D": "5S"}, abc="7S", def_="")
    play(game, "P1A")
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == ((), "draw")


def test_no_legal_move_loses():
    rules = seat_rules("power", mulligan="none")
    game = position(rules, board={"A": "5S", "D": "5S", "E": "6S", "F": "7S"},
                    abc="QS KS", def_="2H 3H", placed=(1, 3), turn="DEF")
    play(game, "D1")
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == (("DEF",), "no_legal_move")


# ----------------------------------------------------------- per-seat scopes (§2.2)

def test_king_mode_is_the_owners_rule():
    rules = SeatRules(PRESETS["power"], replace(PRESETS["power"], king_mode="add"))
    game = position(rules, board={"A": "5S", "D": "5S"}, abc="KS KH 2C", def_="2H 3H")
    play(game, "P1D1")
    play(game, "D1")
    play(game, "P1A1")
    assert game.summaries[3][0] == 10 and game.summaries[0][0] == 10
    game.caravans[3] = ((card("5S", 1), (card("KS"), card("KD"))),)
    game._refresh(3)
    assert game.summaries[3][0] == 15


def test_queen_changes_suit_is_the_owners_rule():
    rules = SeatRules(PRESETS["power"], replace(PRESETS["power"], queen_changes_suit=False))
    game = position(rules, board={"A": "5S 8S", "D": "5S 8S"}, abc="QH QD 2C", def_="2H 3H")
    play(game, "P1D2")
    assert game.summaries[3][3:] == (0, 2)   # suit ♠ kept, direction flipped
    play(game, "D1")
    play(game, "P1A2")
    assert game.summaries[0][3:] == (2, 2)


def test_queen_placement_is_the_movers_rule():
    rules = SeatRules(replace(PRESETS["power"], queen_placement="any"), PRESETS["power"])
    game = position(rules, board={"A": "5S 8S", "D": "5S 8S"}, abc="QH 2C", def_="QD 3H")
    play(game, "P1D1")
    assert show(game, "D") == "5S+QH 8S"
    with pytest.raises(IllegalMove) as caught:
        play(game, "P1A1")
    assert caught.value.message == (
        "A QUEEN can only be played on the latest numeral card in a caravan.")


def test_faces_on_opponent_is_the_movers_rule():
    rules = SeatRules(PRESETS["power"], replace(PRESETS["power"], faces_on_opponent=False))
    game = position(rules, board={"A": "5S 8S", "D": "5S 8S"}, abc="KH 2C", def_="KD 3H")
    play(game, "P1D2")
    with pytest.raises(IllegalMove) as caught:
        play(game, "P1A2")
    assert caught.value.message == "A face card can only be played on a player's own caravan."


def test_jack_respects_face_cap_is_the_movers_rule():
    rules = SeatRules(PRESETS["power"], PRESETS["nv"])
    board = {"A": "5S 8S+KS+KS+KS", "D": "5S 8S+KS+KS+KS"}
    game = position(rules, board=board, abc="JH 2C", def_="JD 3H")
    play(game, "P1D2")
    assert show(game, "D") == "5S"
    with pytest.raises(IllegalMove) as caught:
        play(game, "P1A2")
    assert caught.value.message == "The caravan is at its maximum face card capacity."


def test_joker_rules_are_the_movers():
    rules = SeatRules(PRESETS["power"], PRESETS["foxon"])
    game = position(rules, board={"A": "7S 3C", "D": "7H 2C"}, abc="JO 2D", def_="4H 3H")
    play(game, "P1A1")
    assert show(game, "A") == "7S+JO 3C" and show(game, "D") == "2C"


def test_equal_rank_direction_is_the_owners_rule():
    rules = SeatRules(PRESETS["power"], PRESETS["karavane"])
    board = {"A": "2C 7C 4C 7C", "D": "2C 7C 4C 7C"}
    game = position(rules, board=board, abc="JH 2C", def_="JD 3H")
    play(game, "P1D3")
    play(game, "P1A3")
    assert game.summaries[3][4] == 0   # DEF's caravan, DEF's rule (any): ANY
    assert game.summaries[0][4] == 2   # ABC's caravan, ABC's rule (desc): DESC


def test_require_all_caravans_three_lanes_win():
    rules = SeatRules(replace(PRESETS["power"], require_all_caravans=True), PRESETS["power"])
    board = dict(E7, C="10C 9C 4C")
    game = position(rules, board=board, abc="KS 2C", def_="2H 3H")
    play(game, "P1E4")
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == (("ABC",), "lanes")


# ------------------------------------------------------ deck and setup per preset

def hand_numerals(hand: list[int]) -> int:
    return sum(1 for c in hand if c & 15 <= 10)


@pytest.mark.parametrize(("preset", "short_hands", "mulligans"), [
    ("power", False, False), ("nv", False, True), ("foxon", False, True),
    ("karavane", True, False)])
def test_opening_hand_policy_per_preset(preset, short_hands, mulligans):
    games = [CaravanState.new(SeatRules.preset(preset), seed=seed) for seed in range(300)]
    short = any(hand_numerals(g.hands[s]) < 3 for g in games for s in (0, 1))
    assert short is short_hands
    assert any(g.mulligans for g in games) is mulligans


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_deck_size_and_samples_per_preset(preset):
    sizes = set()
    tags = set()
    for seed in range(60):
        game = CaravanState.new(SeatRules.preset(preset), seed=seed)
        for seat in (0, 1):
            deck = game.initial_decks[seat]
            sizes.add(len(deck))
            tags.update(c >> 10 for c in deck)
            assert all((c >> 9) & 1 == seat for c in deck)
    if preset == "karavane":
        assert min(sizes) >= 30 and max(sizes) <= 108 and len(sizes) > 20
        assert tags == {1, 2}
    else:
        assert sizes == {54} and tags == {1}


@pytest.mark.parametrize(("preset", "ok_170", "ok_3_samples"), [
    ("power", False, True), ("nv", True, True), ("foxon", False, True),
    ("karavane", False, False)])
def test_deck_bounds_per_preset(preset, ok_170, ok_3_samples):
    from cardtable.games.caravan.errors import DeckError
    for rules, ok in [(seat_rules(preset, deck_size=170, samples=None), ok_170),
                      (seat_rules(preset, deck_size=100, samples=3), ok_3_samples)]:
        if ok:
            game = CaravanState.new(rules, seed=1)
            assert len(game.initial_decks[0]) == rules.abc.deck_size
        else:
            with pytest.raises(DeckError):
                CaravanState.new(rules, seed=1)


@pytest.mark.parametrize(("preset", "alternating"), [
    ("power", True), ("nv", True), ("foxon", True), ("karavane", False)])
def test_sampling_per_preset(preset, alternating):
    game = CaravanState.new(seat_rules(preset, deck_size=60, samples=2), seed=3)
    # initial_decks lists the deck top card first: the reverse of the order taken.
    taken = list(reversed(game.initial_decks[0]))
    tags = [c >> 10 for c in taken]
    assert (tags == [1, 2] * 30) is alternating


# ------------------------------------------------------------------ observations

def test_observation_contents():
    game = position(board={"A": "5S 8H+KD@DEF", "D": "3C"}, abc="7S 9H", def_="2D 3D 4D",
                    decks=(cards("2S 3S"), cards("5D 6D 7D", 1)))
    game.piles = [cards("QS"), cards("JD", 1)]
    play(game, "D2")
    obs = game.observation(1)
    assert obs.seat == 1 and obs.to_move == 1
    assert obs.hand == tuple(game.hands[1])
    assert obs.caravans == tuple(game.caravans)
    assert obs.summaries == tuple(game.summaries)
    assert obs.hand_sizes == (2, 3) and obs.deck_sizes == (1, 3)
    assert obs.piles == ((card("QS"), card("9H")), (card("JD", 1),))
    assert obs.moves_made == (1, 0) and obs.placed == (3, 3)
    assert obs.rules == game.rules
    assert [entry.move.notation for entry in obs.history] == ["D2"]
    assert obs.history[0].cards == (card("9H"),)
    assert not hasattr(obs, "decks")
    assert card("3S") not in obs.hand and card("2S") not in obs.hand
