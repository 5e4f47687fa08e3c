"""Notation (§7.1, §7.2): the parser's messages, examples, bounds and the canonical form."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import PRESET_NAMES, seat_rules

from cardtable.games.caravan.errors import MoveSyntaxError
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, Move, parse_move
from cardtable.games.caravan.rules import PRESETS, SeatRules

POWER = SeatRules.preset("power")
FOXON = SeatRules.preset("foxon")


def error(text: str, rules: SeatRules = POWER, seat: int = 0) -> str:
    with pytest.raises(MoveSyntaxError) as caught:
        parse_move(text, rules, seat)
    return caught.value.message


@pytest.mark.parametrize("text", ["", "   ", "\t\n"])
def test_empty_input_is_no_command(text):
    assert parse_move(text, POWER, 0) is None


@pytest.mark.parametrize(("text", "typed"), [("q1", "q"), ("X", "X"), ("1P", "1"), ("-", "-")])
def test_invalid_option(text, typed):
    assert error(text) == f"Invalid option '{typed}', must be one of: (P)lay, (D)iscard, (C)lear."


@pytest.mark.parametrize("text", ["P", "D", "p", " d "])
def test_hand_position_not_entered(text):
    assert error(text) == "A hand position has not been entered."


OUT_OF_RANGE = "The chosen hand position is out of range."


@pytest.mark.parametrize(("text", "run"), [
    ("PX", "X"), ("Dq", "q"), ("P A", " "), ("D03", "03"), ("P007A", "007")])
def test_invalid_hand_position(text, run):
    assert error(text) == f"Invalid hand position '{run}'."


@pytest.mark.parametrize("text", ["P0A", "D0", "P9A", "D9", "D10", "P123B", "P99999A"])
def test_a_hand_position_that_names_no_card_has_the_rules_wording(text):
    """Past the largest hand (the notation refuses it) or past the cards in hand (the rules
    refuse it): one refusal, in one wording."""
    from cardtable.games.caravan.legality import HAND_OUT_OF_RANGE

    assert error(text) == OUT_OF_RANGE == HAND_OUT_OF_RANGE


def test_hand_position_bound_is_the_movers_largest_hand():
    rules = SeatRules(replace(PRESETS["power"], hand_size=12), PRESETS["power"])
    assert parse_move("D12", rules, 0) == Move(0, DISCARD, 0, 12)
    assert error("D12", rules, 1) == OUT_OF_RANGE
    rules = seat_rules("power", opening_hand_size=10)
    assert parse_move("P10A", rules, 0) == Move(0, PLAY, 0, 10)
    assert error("P11A", rules, 0) == OUT_OF_RANGE


@pytest.mark.parametrize("text", ["P2", "p8"])
def test_caravan_name_not_entered(text):
    assert error(text) == "A caravan name has not been entered."


@pytest.mark.parametrize(("text", "letter"), [
    ("P2Z", "Z"), ("P2g", "g"), ("CZ", "Z"), ("P2é", "é")])
def test_invalid_caravan_name(text, letter):
    assert error(text) == f"Invalid caravan name '{letter}', must be between: A-F."


def test_clear_caravan_name_not_entered():
    assert error("C") == "A caravan name has not been entered."


@pytest.mark.parametrize(("text", "run"), [
    ("P5B12", "12"), ("P5B9", "9"), ("P5B0", "0"), ("P5B05", "05"), ("P5BX", "X"), ("P5B-1", "-")])
def test_invalid_caravan_position_power(text, run):
    assert error(text) == f"Invalid caravan position '{run}'."


def test_caravan_position_bound_is_the_owners_max_numerals():
    rules = SeatRules(PRESETS["power"], PRESETS["nv"])
    assert parse_move("P5E12", rules, 0) == Move(0, PLAY, 4, 5, 12)
    assert error("P5B12", rules, 1) == "Invalid caravan position '12'."
    assert parse_move("P5B8", rules, 1) == Move(1, PLAY, 1, 5, 8)


@pytest.mark.parametrize(("preset", "slot", "ok"), [
    ("power", 8, True), ("power", 9, False), ("karavane", 20, True), ("karavane", 21, False),
    ("nv", 500, True), ("foxon", 500, True)])
def test_caravan_position_bound_per_preset(preset, slot, ok):
    rules = SeatRules.preset(preset)
    if ok:
        assert parse_move(f"P1A{slot}", rules, 0) == Move(0, PLAY, 0, 1, slot)
    else:
        assert error(f"P1A{slot}", rules) == f"Invalid caravan position '{slot}'."


def test_example_face_with_whitespace_and_lower_case():
    assert parse_move(" p3c2 ", POWER, 0) == Move(0, PLAY, 2, 3, 2)


@pytest.mark.parametrize(("text", "expected"), [
    ("P2B", Move(0, PLAY, 1, 2)), ("P4F3", Move(0, PLAY, 5, 4, 3)), ("D3", Move(0, DISCARD, 0, 3)),
    ("CA", Move(0, CLEAR, 0)), ("cf", Move(0, CLEAR, 5)), ("d8", Move(0, DISCARD, 0, 8))])
def test_table_examples(text, expected):
    assert parse_move(text, POWER, 0) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("D3X", Move(0, DISCARD, 0, 3)), ("D3 7", Move(0, DISCARD, 0, 3)),
    ("P4F3Q", Move(0, PLAY, 5, 4, 3)), ("CA7", Move(0, CLEAR, 0)), ("CAxyz", Move(0, CLEAR, 0)),
    ("P4F3 9", Move(0, PLAY, 5, 4, 3))])
def test_trailing_characters_ignored(text, expected):
    assert parse_move(text, POWER, 0) == expected


@pytest.mark.parametrize(("preset", "expected"), [
    ("power", "DEF:CE"), ("nv", "DEF:CE"), ("karavane", "DEF:CE"), ("foxon", "DEF:CE3")])
def test_clear_hand_only_under_destroy_restart(preset, expected):
    assert str(parse_move("CE3", SeatRules.preset(preset), 1)) == expected


def test_destroy_restart_hand_messages():
    assert error("CB", FOXON) == "A hand position has not been entered."
    assert error("CBx", FOXON) == "Invalid hand position 'x'."
    assert error("CB0", FOXON) == OUT_OF_RANGE
    assert error("CB9", FOXON) == OUT_OF_RANGE


def test_destroy_restart_is_the_movers_policy():
    rules = SeatRules(PRESETS["power"], PRESETS["foxon"])
    assert parse_move("CA4", rules, 0) == Move(0, CLEAR, 0)
    assert parse_move("CD4", rules, 1) == Move(1, CLEAR, 3, 4)


def test_canonical_form_sets_the_seat():
    assert parse_move("DEF:P4F3", POWER, 0) == Move(1, PLAY, 5, 4, 3)
    assert parse_move("abc:d3", POWER, None) == Move(0, DISCARD, 0, 3)


@pytest.mark.parametrize(("move", "text"), [
    (Move(0, PLAY, 1, 2), "ABC:P2B"), (Move(1, PLAY, 5, 4, 3), "DEF:P4F3"),
    (Move(0, DISCARD, 0, 3), "ABC:D3"), (Move(1, CLEAR, 4), "DEF:CE"),
    (Move(0, CLEAR, 1, 4), "ABC:CB4"), (Move(0, PLAY, 0, 12, 15), "ABC:P12A15")])
def test_canonical_str(move, text):
    assert str(move) == text


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_canonical_round_trip(preset):
    rules = SeatRules.preset(preset)
    restart = preset == "foxon"
    for seat in (0, 1):
        moves = [Move(seat, DISCARD, 0, h) for h in range(1, 9)]
        moves += [Move(seat, PLAY, c, h, s) for c in range(6) for h in range(1, 9) for s in range(9)
                  if s <= (rules.of(c // 3).max_numerals or 99)]
        moves += [Move(seat, CLEAR, c, h if restart else 0) for c in range(6)
                  for h in ((1, 5, 8) if restart else (0,))]
        for move in moves:
            text = str(move)
            assert str(Move.parse(text, rules)) == text
            assert Move.parse(text, rules) == move
            assert Move.from_code(seat, move.code) == move


def test_parse_without_a_known_seat():
    assert error("P2B", POWER, None) == "The seat making the move is not known."
