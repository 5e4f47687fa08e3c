"""Move legality and resolution (§3, §4): numerals, faces, discards, clears, face effects."""

from __future__ import annotations

import pytest
from helpers import PRESET_NAMES, card, cards, codes, play, position, seat_rules, show, snapshot

from cardtable.games.caravan.board import ANY, ASC, DESC, summarize
from cardtable.games.caravan.cards import identity
from cardtable.games.caravan.errors import IllegalMove, MoveSyntaxError
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, Move
from cardtable.games.caravan.rules import Rules

SAME_RANK = "A numeral card must not have same rank as the most recent card in the caravan."


def against(caravan: str, rising: bool, rank: str, suit: str) -> str:
    """The refusal of a numeral against ``caravan``'s direction: it says what would do."""
    way, wanted = ("ascending", "higher") if rising else ("descending", "lower")
    return f"Caravan {caravan} is {way} from {rank}: play a {wanted} numeral or a {suit}."

HAND_RANGE = "The chosen hand position is out of range."
NUMERAL_SLOT = "A numeral card takes no slot: it goes on the caravan, e.g. P2B."
FACE_CAP = "The caravan is at its maximum face card capacity."
QUEEN_LAST = "A QUEEN can only be played on the latest numeral card in a caravan."


def refused(game, text: str, message: str) -> None:
    """``text`` is refused with exactly ``message`` and changes nothing."""
    before = snapshot(game)
    clone = game.clone()
    with pytest.raises(IllegalMove) as caught:
        play(game, text)
    assert caught.value.message == message
    assert snapshot(game) == before
    assert snapshot(clone) == before


# --------------------------------------------------------------- 4.1 numerals

def test_numeral_hand_position_out_of_range():
    game = position(board={"A": "5S"}, abc="7S 8S")
    refused(game, "P3A", HAND_RANGE)


def test_numeral_only_on_own_caravan():
    game = position(board={"D": "5S"}, abc="7S")
    refused(game, "P1D", "A numeral card can only be played on a player's own caravan.")


def test_numeral_on_empty_caravan_during_start_round():
    game = position(board={"A": "5S"}, abc="7S 8S", placed=(1, 0))
    refused(game, "P1A",
            "A numeral card must be played on an empty caravan during the Start round.")
    play(game, "P1B")
    assert show(game, "B") == "7S"
    assert game.placed == [2, 0]


def test_numeral_cap_power_refuses_ninth_numeral():
    # r3w0p reference: [A♠ 3♠ 5♠ 3♠ 5♠ 3♠ 5♠ 3♠] is legal throughout; a ninth is refused.
    game = position(board={"A": "AS"}, abc="3S 5S 3S 5S 3S 5S 3S 5S",
                    def_="2H 2H 2H 2H 2H 2H 2H 2H 2H")
    for _ in range(7):
        play(game, "P1A")
        play(game, "D1")
    assert show(game, "A") == "AS 3S 5S 3S 5S 3S 5S 3S"
    refused(game, "P1A", "The caravan is at its maximum numeral card capacity.")


@pytest.mark.parametrize(("preset", "legal"), [
    ("power", False), ("nv", True), ("foxon", True), ("karavane", True)])
def test_numeral_cap_per_preset(preset, legal):
    board = {"A": "AS 3S 5S 3S 5S 3S 5S 3S"}
    game = position(preset, board=board, abc="5S 2H")
    if legal:
        play(game, "P1A")
        assert game.summaries[0][1] == 9
    else:
        refused(game, "P1A", "The caravan is at its maximum numeral card capacity.")


def test_numeral_cap_karavane_is_twenty():
    board = {"A": " ".join(["3S", "5S"] * 10)}
    game = position("karavane", board=board, abc="3S")
    refused(game, "P1A", "The caravan is at its maximum numeral card capacity.")


def test_numeral_cap_is_the_owners_rule():
    rules = seat_rules("power")
    rules = type(rules)(rules.abc, Rules(max_numerals=2))
    game = position(rules, board={"A": "2S 3S", "D": "2S 3S"}, abc="4S 9H",
                    def_="4S 9H")
    play(game, "P1A")
    assert game.summaries[0][1] == 3
    refused(game, "P1D", "The caravan is at its maximum numeral card capacity.")


def test_numeral_same_rank_refused_whatever_the_suit():
    game = position(board={"A": "5S"}, abc="5H 5S")
    refused(game, "P1A", SAME_RANK)
    refused(game, "P2A", SAME_RANK)


def test_numeral_size_one_any_other_rank():
    game = position(board={"A": "5S+QH+QD"}, abc="2C 9D")
    play(game, "P1A")
    assert show(game, "A") == "5S+QH+QD 2C"


def test_numeral_suit_overrides_direction():
    game = position(board={"A": "4H 9C"}, abc="7C 8D")
    refused(game, "P2A", against("A", True, "9", "Club"))
    play(game, "P1A")
    assert game.summaries[0] == (20, 3, 7, 3, DESC)


def test_e1_numeral_checks():
    game = position(board={"B": "4H 9C"}, abc="7C 7D 8D 2D", def_="2H 2H 2H")
    assert game.summaries[1] == (13, 2, 9, 3, ASC)
    play(game, "P1B")
    assert game.summaries[1] == (20, 3, 7, 3, DESC)
    play(game, "D1")
    refused(game, "P1B", SAME_RANK)
    refused(game, "P2B", against("B", False, "7", "Club"))
    play(game, "P3B")
    assert game.summaries[1] == (22, 4, 2, 2, DESC)


def test_numeral_resolution_appends_slot_and_clears_held():
    game = position("nv", board={"A": "2C 7C 7C"}, held={"A": ASC}, abc="9D")
    play(game, "P1A")
    assert game.held[0] is None
    assert game.summaries[0][4] == ASC


def test_numeral_with_a_slot_number_is_refused():
    game = position(board={"A": "5S"}, abc="7S")
    refused(game, "P1A1", NUMERAL_SLOT)
    with pytest.raises(IllegalMove, match="A numeral card takes no slot"):
        game.play(Move(0, PLAY, 0, 1, 5))
    assert show(game, "A") == "5S"
    assert game.play(Move(0, PLAY, 0, 1, 0)).move == Move(0, PLAY, 0, 1, 0)
    assert show(game, "A") == "5S 7S"


# ------------------------------------------------------------------ 4.2 faces

def test_face_hand_position_out_of_range():
    game = position(board={"A": "5S"}, abc="KS")
    refused(game, "P2A1", HAND_RANGE)


def test_face_not_in_start_round():
    game = position(board={"A": "5S"}, abc="KS 2S", placed=(1, 0))
    refused(game, "P1A1", "A face card cannot be played during the Start round.")


@pytest.mark.parametrize(("preset", "legal"), [
    ("power", True), ("nv", True), ("foxon", False), ("karavane", True)])
def test_face_on_opponent_per_preset(preset, legal):
    game = position(preset, board={"D": "5S 8S"}, abc="KH")
    if legal:
        play(game, "P1D2")
        assert show(game, "D") == "5S 8S+KH"
    else:
        refused(game, "P1D2", "A face card can only be played on a player's own caravan.")


def test_face_slot_out_of_range():
    game = position(board={"A": "5S 8S"}, abc="KH")
    refused(game, "P1A3", "The chosen card position is out of range.")


def test_face_without_slot_asks_for_the_slot():
    game = position(board={"A": "5S 8S"}, abc="KH")
    refused(game, "P1A", "Face cards are played on a card: give its slot, e.g. P4A2.")


def test_face_on_empty_caravan_is_out_of_range():
    game = position(board={"A": "5S"}, abc="KH")
    refused(game, "P1B1", "The chosen card position is out of range.")


@pytest.mark.parametrize(("preset", "legal"), [
    ("power", False), ("nv", False), ("foxon", False), ("karavane", True)])
def test_queen_placement_per_preset(preset, legal):
    # E2, second part: Q♥ on E1.
    game = position(preset, board={"E": "2D 6S"}, def_="QH", turn="DEF")
    if legal:
        play(game, "P1E1")
        assert show(game, "E") == "2D+QH 6S"
        assert game.summaries[4][3:] == (0, ASC)
        assert summarize(game.caravans[4][:1], None, game.rules[1])[3] == 1
    else:
        refused(game, "P1E1", QUEEN_LAST)


def test_face_must_match_suit_for_jack_and_king():
    rules = seat_rules("power", face_must_match_suit=True)
    game = position(rules, board={"A": "5S 8H+QD"}, abc="KH JH KD QC JO 2C")
    message = "A JACK or KING must match the suit of the numeral card it is played on."
    refused(game, "P1A2", message)   # K♥ on effective ♦
    refused(game, "P2A2", message)   # J♥ on effective ♦
    play(game, "P3A2")                # K♦ matches the Queen's suit
    assert show(game, "A") == "5S 8H+QD+KD"


def test_face_must_match_suit_exempts_queen_and_joker():
    rules = seat_rules("power", face_must_match_suit=True)
    game = position(rules, board={"A": "5S 8H"}, abc="QC JO", def_="2S 2S")
    play(game, "P1A2")
    play(game, "D1")
    play(game, "P1A1")
    assert show(game, "A") == "5S+JO 8H+QC"


def test_face_checks_in_order_queen_before_suit_and_cap():
    rules = seat_rules("power", face_must_match_suit=True)
    game = position(rules, board={"A": "5S+KS+KS+KS 8H"}, abc="QH KH")
    refused(game, "P1A1", QUEEN_LAST)
    refused(game, "P2A1", "A JACK or KING must match the suit of the numeral card it is played on.")


@pytest.mark.parametrize("face", ["QH", "KH", "JO"])
@pytest.mark.parametrize(("preset", "legal"), [
    ("power", False), ("nv", False), ("foxon", True), ("karavane", False)])
def test_face_cap_per_preset(preset, legal, face):
    game = position(preset, board={"A": "5S 8H+KH+KH+KH"}, abc=face)
    if legal:
        play(game, "P1A2")
    else:
        refused(game, "P1A2", FACE_CAP)


@pytest.mark.parametrize(("preset", "legal"), [
    ("power", True), ("nv", False), ("foxon", True), ("karavane", False)])
def test_jack_respects_face_cap_per_preset(preset, legal):
    # §12 question 1: a Jack on a numeral already at the face cap.
    game = position(preset, board={"A": "5S 8H+KH+KH+KH"}, abc="JC")
    if legal:
        play(game, "P1A2")
        assert show(game, "A") == "5S"
    else:
        refused(game, "P1A2", FACE_CAP)


def test_face_cap_is_the_movers_rule():
    rules = seat_rules("power")
    rules = type(rules)(rules.abc, Rules(max_faces=1))
    game = position(rules, board={"A": "5S 8H+KH", "D": "5S 8H+KH"}, abc="KS 2H", def_="KS")
    play(game, "P1D2")   # ABC's cap of 3 applies to ABC's move on DEF's caravan
    assert show(game, "D") == "5S 8H+KH+KS"
    refused(game, "P1A2", FACE_CAP)   # DEF's cap of 1 applies to DEF's move on ABC's caravan


# --------------------------------------------------------------- 4.3 discard

def test_discard_not_in_start_round():
    game = position(board={"A": "5S"}, abc="7S 8S", placed=(1, 0))
    refused(game, "D1", "A player cannot discard a card during the Start round.")


def test_discard_start_round_message_comes_before_hand_position():
    game = position(board={"A": "5S"}, abc="7S", placed=(1, 0))
    refused(game, "D5", "A player cannot discard a card during the Start round.")


def test_discard_hand_position_out_of_range():
    game = position(board={"A": "5S"}, abc="7S")
    refused(game, "D2", HAND_RANGE)


def test_discard_goes_to_movers_pile_and_draws():
    game = position(board={"A": "5S"}, abc="7S 8S 9S 10S 2S", decks=([card("3C")], []), def_="2D")
    play(game, "D2")
    assert game.piles[0] == [card("8S")]
    assert codes(game.hands[0]) == ["7S", "9S", "10S", "2S", "3C"]
    assert game.turn == 1


# ----------------------------------------------------------------- 4.4 clear

def test_clear_not_in_start_round():
    game = position(board={"A": "5S"}, abc="7S", placed=(1, 0))
    refused(game, "CA", "A player cannot clear a caravan during the Start round.")


def test_clear_opponents_caravan():
    game = position(board={"D": "5S"}, abc="7S")
    refused(game, "CD", "A player cannot clear their opponent's caravans.")


def test_clear_disabled():
    game = position(seat_rules("power", clear_policy="disabled"), board={"A": "5S"}, abc="7S")
    refused(game, "CA", "Caravans cannot be cleared under the current rules.")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_clear_empty_caravan(preset):
    game = position(preset, board={"A": "5S"}, abc="7S")
    refused(game, "CB1" if preset == "foxon" else "CB", "Cannot clear empty caravan.")


def test_clear_sends_every_card_to_its_owners_pile():
    game = position(board={"A": "5S+KH@DEF 8H+QD+KC@DEF"}, held={"A": DESC}, abc="7S", def_="2C")
    event = game.play(Move(0, CLEAR, 0))
    assert game.caravans[0] == ()
    assert game.summaries[0] == (0, 0, 0, -1, ANY)
    assert game.held[0] is None
    assert sorted(map(identity, game.piles[0])) == ["5S@1", "8H@1", "QD@1"]
    assert sorted(map(identity, game.piles[1])) == ["KC@1", "KH@1"]
    assert event.card is None
    assert codes(game.hands[0]) == ["7S"]  # the draw step draws nothing: hand unchanged
    assert game.turn == 1


@pytest.mark.parametrize(("preset", "after"), [
    ("power", ""), ("nv", ""), ("karavane", ""), ("foxon", "3H")])
def test_e8_destroy_and_restart(preset, after):
    game = position(preset, board={"B": "9S 10S+KS"}, abc="2C QH 7D 3H 8C",
                    decks=(cards_top_last("4C 5C 6C"), []), def_="2D")
    play(game, "CB4" if preset == "foxon" else "CB")
    assert show(game, "B") == after
    assert sorted(codes(game.piles[0])) == ["10S", "9S", "KS"]
    if preset == "foxon":
        assert codes(game.hands[0]) == ["2C", "QH", "7D", "8C", "4C"]
    else:
        assert codes(game.hands[0]) == ["2C", "QH", "7D", "3H", "8C"]


def cards_top_last(text: str) -> list[int]:
    return list(reversed(cards(text)))


def test_destroy_restart_needs_a_numeral():
    game = position("foxon", board={"B": "9S 10S+KS"}, abc="2C QH")
    refused(game, "CB2", "A new caravan must be started with a numeral card.")
    refused(game, "CB3", HAND_RANGE)
    with pytest.raises(MoveSyntaxError) as caught:
        play(game, "CB")
    assert caught.value.message == "A hand position has not been entered."


def test_destroy_restart_empty_caravan_checked_before_hand():
    game = position("foxon", board={"B": "9S"}, abc="2C QH")
    refused(game, "CA2", "Cannot clear empty caravan.")


# ----------------------------------------------------------- 4.5 face effects

def test_jack_removes_slot_and_goes_to_movers_pile():
    game = position(board={"D": "5S 8H+KD 9H+QS"}, abc="JC")
    event = game.play(Move(0, PLAY, 3, 1, 2))
    assert show(game, "D") == "5S 9H+QS"
    assert sorted(codes(game.piles[1])) == ["8H", "KD"]
    assert codes(game.piles[0]) == ["JC"]
    assert codes(event.removed) == ["8H", "KD"]
    assert event.target == card("8H", 1)


def test_removed_faces_go_to_their_owners_pile():
    game = position(board={"D": "5S 8H+KD@ABC+QS"}, abc="JC")
    play(game, "P1D2")
    assert sorted(codes(game.piles[0])) == ["JC", "KD"]
    assert sorted(codes(game.piles[1])) == ["8H", "QS"]


@pytest.mark.parametrize(("preset", "value"), [
    ("power", 26), ("nv", 26), ("foxon", 20), ("karavane", 26)])
def test_e3_kings(preset, value):
    game = position(preset, board={"A": "6S+KH+KD 2H"})
    assert game.summaries[0][0] == value


@pytest.mark.parametrize(("preset", "value"), [
    ("power", 5 * 8), ("nv", 40), ("foxon", 5 * 4), ("karavane", 40)])
def test_king_mode_three_kings(preset, value):
    game = position(preset, board={"A": "5S+KH+KD+KC"})
    assert game.summaries[0][0] == value


def test_kings_on_different_slots_are_independent():
    game = position(board={"A": "5S+KH 3H+KD"})
    assert game.summaries[0][0] == 10 + 6


def test_r3w0p_queens_toggle_direction():
    game = position(board={"A": "AS 2H"}, abc="QC QD QH 2C", def_="2S 2S 2S 2S")
    assert game.summaries[0][4] == ASC
    expected = [(DESC, 3), (ASC, 2), (DESC, 1)]
    for direction, suit in expected:
        play(game, "P1A2")
        assert game.summaries[0][3:] == (suit, direction)
        play(game, "D1")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_e2_queens(preset):
    game = position(preset, board={"E": "2D 6S"}, def_="QH 4C 9C 9H 9S", abc="2D 2D 2D",
                    turn="DEF")
    assert game.summaries[4][3:] == (0, ASC)
    play(game, "P1E2")
    foxon = preset == "foxon"
    assert game.summaries[4][3:] == ((0 if foxon else 1), DESC)
    for text, legal in [("9C", False), ("9H", not foxon), ("9S", foxon), ("4C", True)]:
        trial = game.clone()
        trial.turn = 1
        index = codes(trial.hands[1]).index(text) + 1
        if legal:
            play(trial, f"P{index}E")
            assert show(trial, "E").endswith(text)
        else:
            refused(trial, f"P{index}E", against("E", False, "6", "Spade" if foxon else "Heart"))


def test_queen_on_earlier_slot_is_inert_until_last():
    game = position("karavane", board={"A": "5S+QH 8C"}, abc="JD")
    assert game.summaries[0][3:] == (3, ASC)
    game.turn = 1
    game.hands[1] = [card("JD", 1)]
    play(game, "P1A2")
    assert game.summaries[0][3:] == (1, ANY)


@pytest.mark.parametrize(("preset", "direction", "legal_9d", "legal_5d"), [
    ("power", DESC, False, True),
    ("nv", ASC, True, False),
    ("foxon", ASC, True, False),
    ("karavane", ANY, True, True),
])
def test_e4_equal_ranks_after_removal(preset, direction, legal_9d, legal_5d):
    board = {"C": "2C 7C 4C 7C"}
    jack_on = "P1C3"
    if preset == "foxon":
        game = position(preset, board=board, abc="JH 9D 5D 5C 2S", def_="2S", turn="ABC",
                        decks=(cards_top_last("2H 3H"), []))
    else:
        game = position(preset, board=board, def_="JH 2S", abc="9D 5D 5C", turn="DEF")
    assert game.summaries[2] == (20, 4, 7, 3, ASC)
    play(game, jack_on)
    assert show(game, "C") == "2C 7C 7C"
    assert game.summaries[2] == (16, 3, 7, 3, direction)
    game.turn = 0
    hand = codes(game.hands[0])
    for text, legal in [("9D", legal_9d), ("5D", legal_5d), ("5C", True)]:
        trial = game.clone()
        index = hand.index(text) + 1
        if legal:
            play(trial, f"P{index}C")
            assert show(trial, "C").endswith(text)
        else:
            refused(trial, f"P{index}C", against("C", direction == ASC, "7", "Club"))


def test_held_is_the_direction_at_the_start_of_the_move():
    # [2 7 4 7]: ASC; a Queen on slot 4 makes it DESC; the Jack on slot 3 then holds DESC.
    game = position("nv", board={"C": "2C 7C 4C 7C+QC"}, def_="JH")
    game.turn = 1
    play(game, "P1C3")
    assert game.held[2] == DESC
    assert game.summaries[2][4] == DESC


def test_held_flipped_by_a_queen_on_the_last_slot():
    game = position("nv", board={"C": "2C 7C 7C"}, held={"C": ASC}, abc="QH")
    play(game, "P1C3")
    assert game.held[2] == DESC
    assert game.summaries[2][3:] == (1, DESC)


def test_held_not_flipped_by_queens_already_on_the_new_last_slot():
    game = position("nv", board={"C": "2C 7C+QH 4C 7C"}, def_="JH")
    game.turn = 1
    play(game, "P1C3")
    assert show(game, "C") == "2C 7C+QH 7C"
    assert game.summaries[2][4] == ASC


def test_held_cleared_when_removal_leaves_no_equal_ranks():
    game = position("nv", board={"C": "2C 7C 7C"}, held={"C": ASC}, def_="JH")
    game.turn = 1
    play(game, "P1C3")
    assert game.held[2] is None
    assert game.summaries[2][4] == ASC


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_e5_joker_on_an_ace(preset):
    board = {"A": "AD 5C", "B": "6H 9D", "D": "3D 8S+QD", "E": "10D+QC", "F": "AS 4H"}
    game = position(preset, board=board, abc="JO 2C", def_="2C",
                    decks=(cards_top_last("3C 4C 5C 6C 7C 8C"), []))
    play(game, "P1A1")
    after = {name: show(game, name) for name in "ABCDEF"}
    if preset in ("power", "nv"):
        assert after == {"A": "AD+JO 5C", "B": "6H", "C": "", "D": "8S+QD", "E": "",
                         "F": "AS 4H"}
        assert game.summaries[3][3:] == (2, ANY)
        assert sorted(codes(game.piles[0])) == ["9D"]
        assert sorted(codes(game.piles[1])) == ["10D", "3D", "QC"]
    elif preset == "karavane":
        assert after == {"A": "AD+JO 5C", "B": "6H", "C": "", "D": "", "E": "10D+QC",
                         "F": "AS 4H"}
        assert sorted(codes(game.piles[1])) == ["3D", "8S", "QD"]
    else:
        assert after == {"A": "5C", "B": "6H 9D", "C": "", "D": "3D 8S+QD", "E": "10D+QC",
                         "F": "4H"}
        assert sorted(codes(game.piles[0])) == ["AD", "JO"]
        assert codes(game.piles[1]) == ["AS"]


@pytest.mark.parametrize(("preset", "d_after"), [
    ("power", "8S+JO 2C"), ("nv", "8S+JO 2C"), ("foxon", "2C"), ("karavane", "8S+JO 2C")])
def test_e6_joker_on_a_numeral(preset, d_after):
    game = position(preset, board={"A": "3H 8D", "D": "8S 2C", "E": "8H"}, def_="JO", turn="DEF")
    play(game, "P1D1")
    assert show(game, "D") == d_after
    assert show(game, "A") == "3H"
    assert show(game, "E") == ""
    assert codes(game.piles[0]) == ["8D"]


def test_joker_removes_equal_ranks_in_the_targets_own_caravan():
    game = position(board={"A": "8S 3H 8D"}, abc="JO")
    play(game, "P1A1")
    assert show(game, "A") == "8S+JO 3H"


def test_joker_ace_suit_effective_uses_each_owners_queen_rule():
    rules = seat_rules("karavane")
    rules = type(rules)(rules.abc, Rules(**{**_fields(rules.def_), "queen_changes_suit": False}))
    board = {"A": "AD", "B": "5S+QD", "D": "6S+QD", "E": "7D+QS"}
    game = position(rules, board=board, abc="JO")
    play(game, "P1A1")
    # B: ABC's Queens change suit → effective ♦, removed; D: DEF's do not → ♠, stays;
    # E: printed ♦ is DEF's effective suit → removed.
    assert [show(game, n) for n in "ABDE"] == ["AD+JO", "", "6S+QD", ""]


def _fields(rules: Rules) -> dict[str, object]:
    return {name: getattr(rules, name) for name in Rules.__dataclass_fields__}


@pytest.mark.parametrize(("preset", "expected"), [
    ("power", "5S"), ("nv", "5S"), ("foxon", "5S+JO"), ("karavane", "5S")])
def test_jack_is_joker_without_jokers_only_by_construction(preset, expected):
    # With a Joker-free deck by construction, foxon's Jack acts as a Joker on 5♠.
    board = {"A": "5S 7S", "B": "7H"}
    game = position(preset, board=board, abc="JC 2C", def_="2C", jokerless=(True, True),
                    decks=(cards_top_last("3C 4C 5C 6C 7C 8C"), []))
    play(game, "P1A2")
    if preset == "foxon":
        assert [show(game, n) for n in "AB"] == ["5S", ""]
        assert sorted(codes(game.piles[0])) == ["7H", "7S", "JC"]
    else:
        assert [show(game, n) for n in "AB"] == [expected, "7H"]
        assert sorted(codes(game.piles[0])) == ["7S", "JC"]


def test_jack_is_a_jack_when_the_deck_has_jokers():
    game = position("foxon", board={"A": "5S 7S", "B": "7H"}, abc="JC", jokerless=(False, False))
    play(game, "P1A2")
    assert [show(game, n) for n in "AB"] == ["5S", "7H"]


def test_jack_as_joker_obeys_the_face_cap_as_a_joker():
    rules = seat_rules("foxon", max_faces=1, jack_respects_face_cap=False)
    game = position(rules, board={"A": "5S 7S+KS"}, abc="JC", jokerless=(True, True))
    refused(game, "P1A2", FACE_CAP)


def test_game_new_jack_as_joker_by_jokers_per_sample():
    from cardtable.games.caravan.state import CaravanState
    def jack_as_joker(preset: str, **overrides: object) -> tuple[bool, bool]:
        return CaravanState.new(seat_rules(preset, **overrides), seed=1).jack_as_joker
    assert jack_as_joker("foxon", jokers_per_sample=0, deck_size=52) == (True, True)
    assert jack_as_joker("foxon") == (False, False)
    assert jack_as_joker("power", jokers_per_sample=0, deck_size=52) == (False, False)


def test_face_play_passes_the_turn_and_draws():
    game = position(board={"A": "5S 7S"}, abc="QH 2C", decks=([card("9C")], []), def_="2D")
    play(game, "P1A2")
    assert codes(game.hands[0]) == ["2C", "9C"]
    assert game.turn == 1
    assert game.moves_made[0] == 1


def test_face_cap_counts_the_target_slot_only():
    game = position(board={"A": "5S+KH+KH+KH 8H", "D": "6S 9S+QH+QH+QH"}, abc="KS JC QD",
                    def_="2C")
    faces = [m.notation for m in game.legal_moves() if m.kind == PLAY and m.slot]
    assert faces == ["P1A2", "P1D1", "P2A1", "P2A2", "P2D1", "P2D2", "P3A2"]
    play(game, "P1A2")
    assert show(game, "A") == "5S+KH+KH+KH 8H+KS"


def test_face_cap_any_queen_on_a_crowded_earlier_slot():
    game = position("karavane", board={"A": "5S+KH+KH+KH 8H 9H"}, abc="QS", def_="2C")
    faces = [m.notation for m in game.legal_moves() if m.kind == PLAY and m.slot]
    assert faces == ["P1A2", "P1A3"]
    refused(game, "P1A1", FACE_CAP)


def test_clear_runs_the_draw_step():
    game = position(board={"A": "5S 8H"}, abc="7S 2C", def_="2D",
                    decks=(cards_top_last("3C 4C 5C"), []))
    play(game, "CA")
    assert codes(game.hands[0]) == ["7S", "2C", "3C"]


def test_move_event_code_is_canonical():
    # The event carries the canonical packed move: a plain clear has no hand position, a
    # discard no caravan (a numeral play with a slot is refused).
    game = position(board={"A": "5S 8H", "D": "5S"}, abc="7S 9H 2C", def_="2D 3D 4D")
    assert game.play(Move(0, PLAY, 0, 2)).move == Move(0, PLAY, 0, 2)
    assert game.play(Move(1, DISCARD, 3, 1)).move == Move(1, DISCARD, 0, 1)
    assert game.play(Move(0, CLEAR, 0, 1)).move == Move(0, CLEAR, 0)


@pytest.mark.parametrize(("kind", "caravan", "hand", "slot"), [
    (3, 0, 0, 0), (3, 0, 1, 0), (PLAY, 6, 1, 1), (PLAY, 7, 1, 2), (CLEAR, 6, 0, 0),
    (DISCARD, 7, 1, 0)])
def test_packed_moves_outside_the_notation_are_refused(kind, caravan, hand, slot):
    # Kind 3 and caravans 6–7 fit in the packed form but name no move of §7.1; the game
    # must refuse them like any illegal move and stay unchanged.
    from cardtable.games.caravan.notation import pack
    game = position(board={"A": "5S 7S", "D": "5S"}, abc="KS 2C 3C", def_="2D")
    before = snapshot(game)
    with pytest.raises(IllegalMove):
        game.apply_code(pack(kind, caravan, hand, slot))
    assert snapshot(game) == before


@pytest.mark.parametrize(("preset", "after"), [
    ("power", ["AD+QC+JO", "", "5C"]), ("karavane", ["AD+QC+JO", "", "5C"])])
def test_joker_ace_sweeps_the_aces_printed_suit(preset, after):
    # The Ace's Queen makes its effective suit ♣, but the sweep uses its printed ♦.
    game = position(preset, board={"A": "AD+QC", "B": "9D", "C": "5C"}, abc="JO 2H", def_="2S")
    play(game, "P1A1")
    assert [show(game, name) for name in "ABC"] == after


def test_jack_is_joker_with_a_joker_free_deck_file():
    from cardtable.games.caravan.cards import sample_deck
    from cardtable.games.caravan.state import CaravanState
    rules = seat_rules("foxon")
    game = CaravanState.new(rules, seed=2, decks=[sample_deck(0, 1, 0), sample_deck(1, 1, 2)])
    assert game.jack_as_joker == (True, False)
    game = CaravanState.new(seat_rules("nv"), seed=2, decks=[sample_deck(0, 1, 0), None])
    assert game.jack_as_joker == (False, False)


def test_checks_run_in_the_order_listed():
    rules = seat_rules("foxon", face_must_match_suit=True, max_faces=1)
    opening = position(rules, board={"A": "5S", "D": "5S 6S"}, abc="KH 2C", def_="2D",
                       placed=(1, 3))
    refused(opening, "P1D9", "A face card cannot be played during the Start round.")
    refused(opening, "P2D", "A numeral card can only be played on a player's own caravan.")
    refused(opening, "CD1", "A player cannot clear a caravan during the Start round.")
    game = position(rules, board={"A": "5S 7S+KS", "D": "5S 6S"}, abc="KH QH 2C", def_="2D")
    refused(game, "P1D9", "A face card can only be played on a player's own caravan.")
    refused(game, "P2A9", "The chosen card position is out of range.")
    refused(game, "P1A2", "A JACK or KING must match the suit of the numeral card it is played on.")
    refused(game, "P2A2", FACE_CAP)
    disabled = position(seat_rules("power", clear_policy="disabled"), board={"D": "5S"},
                        abc="2C", def_="2D")
    refused(disabled, "CD", "A player cannot clear their opponent's caravans.")
    refused(disabled, "CA", "Caravans cannot be cleared under the current rules.")
