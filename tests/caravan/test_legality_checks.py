"""Each rule of §4 is stated once (``legality.py``): the same check gives the refusal message
of a move and leaves that move out of the legal list.

One case per refusal: a position, a move the rule refuses (with exactly its message, and
absent from ``legal_codes``) and the nearest move it allows (present in the list, no
message). A final test makes sure every refusal message has its case.
"""

from __future__ import annotations

import pytest
from helpers import move, position, seat_rules

from cardtable.games.caravan import legality
from cardtable.games.caravan.legality import (
    has_legal_move,
    legal_codes,
    move_error,
    python_has_legal_move,
)
from cardtable.games.caravan.state import CaravanState

# name of the message constant -> (position, refused move, allowed move or None)
CASES: dict[str, tuple[CaravanState, str, str | None]] = {}


def case(name: str, game: CaravanState, refused: str, allowed: str | None) -> None:
    CASES[name] = (game, refused, allowed)


def build_cases() -> None:
    case("HAND_OUT_OF_RANGE", position(board={"A": "5S"}, abc="7S 8S"), "P3A", "P2A")
    case("NUMERAL_NOT_OWN", position(board={"D": "5S"}, abc="7S"), "P1D", "P1A")
    case("NUMERAL_START_NOT_EMPTY", position(board={"A": "5S"}, abc="7S 8S", placed=(1, 0)),
         "P1A", "P1B")
    case("NUMERAL_CAP", position(board={"A": "AS 2S 3S 4S 5S 6S 7S 8S"}, abc="9S"),
         "P1A", "P1B")
    case("NUMERAL_SAME_RANK", position(board={"A": "5S 7D"}, abc="7C 8C"), "P1A", "P2A")
    case("NUMERAL_DIRECTION", position(board={"A": "5S 7D"}, abc="6C 6D"), "P1A", "P2A")
    case("NUMERAL_SLOT", position(board={"A": "5S"}, abc="7S"), "P1A1", "P1A")
    case("FACE_START", position(board={"A": "5S"}, abc="KS 7S", placed=(1, 0)), "P1A1",
         "P2B")
    case("FACE_NOT_OWN", position(seat_rules("power", faces_on_opponent=False),
                                  board={"A": "5S", "D": "5H"}, abc="KS"), "P1D1", "P1A1")
    case("SLOT_OUT_OF_RANGE", position(board={"A": "5S"}, abc="KS"), "P1A2", "P1A1")
    case("FACE_NEEDS_SLOT", position(board={"A": "5S"}, abc="KS"), "P1A", "P1A1")
    case("QUEEN_NOT_LAST", position(board={"A": "5S 7S"}, abc="QH"), "P1A1", "P1A2")
    case("FACE_SUIT", position(seat_rules("power", face_must_match_suit=True),
                               board={"A": "5S 7D"}, abc="KS"), "P1A2", "P1A1")
    case("FACE_CAP", position(board={"A": "5S+KS+KH+KD 7S"}, abc="KC"), "P1A1", "P1A2")
    case("DISCARD_START", position(board={"A": "5S"}, abc="7S 8S", placed=(1, 0)), "D1",
         "P1B")
    case("CLEAR_START", position(board={"A": "5S"}, abc="7S 8S", placed=(1, 0)), "CA", "P1B")
    case("CLEAR_NOT_OWN", position(board={"A": "5S", "D": "5H"}, abc="7S"), "CD", "CA")
    case("CLEAR_DISABLED", position(seat_rules("power", clear_policy="disabled"),
                                    board={"A": "5S"}, abc="7S"), "CA", "D1")
    case("CLEAR_EMPTY", position(board={"A": "5S"}, abc="7S"), "CB", "CA")
    case("RESTART_NUMERAL", position("foxon", board={"A": "5S"}, abc="KS 7S"), "CA1", "CA2")


build_cases()
NOT_RULES = {"INVALID_MOVE", "GAME_OVER"}
"""Messages about the shape of a move or the game's end, not about a rule of play."""

WORDED = {
    "NUMERAL_DIRECTION": "Caravan A is ascending from 7: play a higher numeral or a Diamond.",
}
"""Messages worded for the position (the constant is their pattern), as the case gives them."""


def message(name: str) -> str:
    return WORDED.get(name, legality.MESSAGES[name])


def test_every_refusal_message_has_its_case() -> None:
    assert set(legality.MESSAGES) - NOT_RULES == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_check_refuses_and_lists_alike(name: str) -> None:
    game, refused, allowed = CASES[name]
    table = game.table()
    legal = legal_codes(table)
    code = move(game, refused).code
    assert move_error(table, code) == message(name)
    assert code not in legal
    if allowed is not None:
        code = move(game, allowed).code
        assert move_error(table, code) is None
        assert code in legal


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_game_refuses_with_the_checks_message(name: str) -> None:
    game, refused, _allowed = CASES[name]
    with pytest.raises(legality.IllegalMove) as caught:
        game.clone().play(move(game, refused))
    assert caught.value.message == message(name)


def test_the_direction_refusal_says_what_the_caravan_takes() -> None:
    """A numeral against the direction is told the direction, and the suit that would do."""
    game = position(board={"B": "9H 7H", "C": "2C 5C"}, abc="8S 4D")
    table = game.table()
    assert move_error(table, move(game, "P1B").code) == (
        "Caravan B is descending from 7: play a lower numeral or a Heart.")
    assert move_error(table, move(game, "P2C").code) == (
        "Caravan C is ascending from 5: play a higher numeral or a Club.")


def test_a_numeral_with_a_slot_is_refused_not_read_without_it() -> None:
    """``P1A2`` names a slot, which only a face card takes: refused, not played as P1A."""
    game = position(board={"A": "5S 6S"}, abc="7S KS")
    with pytest.raises(legality.IllegalMove) as caught:
        game.clone().play(move(game, "P1A2"))
    assert caught.value.message == "A numeral card takes no slot: it goes on the caravan, e.g. P2B."
    assert move(game, "P1A2").code not in legal_codes(game.table())


def test_a_hand_built_code_outside_the_notation_is_invalid() -> None:
    game, _refused, _allowed = CASES["CLEAR_EMPTY"]
    assert move_error(game.table(), 3) == legality.INVALID_MOVE  # kind 3 does not exist
    assert move_error(game.table(), 6 << 2) == legality.INVALID_MOVE  # caravan G


def test_a_finished_game_refuses_every_move() -> None:
    game = position(board={"A": "5S"}, abc="7S")
    game.abandon()
    with pytest.raises(legality.IllegalMove, match=legality.GAME_OVER):
        game.apply_code(move(game, "D1").code)


def test_has_legal_move_agrees_with_the_list() -> None:
    for game, _refused, _allowed in CASES.values():
        table = game.table()
        # The compiled core's count where it is built, and the rules' own answer.
        assert has_legal_move(table) == python_has_legal_move(table) == bool(legal_codes(table))
    stuck = position(board={"A": "5S", "B": "6S", "C": "7S"}, abc="KS", placed=(1, 0))
    assert legal_codes(stuck.table()) == []
    assert not has_legal_move(stuck.table()) and not python_has_legal_move(stuck.table())
