"""The legality matrix, row by row through the engine, and its spelled-out consequences."""

from __future__ import annotations

import pytest

from cardtable.engine.errors import IllegalAction
from cardtable.games.obsession.events import PickedUp
from cardtable.games.obsession.legality import matrix_rows

from .helpers import hand, pile, play, position

ALL = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "R"]

# The spec's matrix written independently of the engine's table: the legal faces per row.
LEGAL_FACES = {
    "none": ALL,
    "2": ALL,
    "3": ["3", "R"],
    "4": ALL,
    "5": [f for f in ALL if f != "4"],
    "6": [f for f in ALL if f not in ("4", "5")],
    "7": ["2", "3", "4", "5", "6", "7", "10", "R"],
    "8": ALL,
    "9": [f for f in ALL if f not in ("4", "5", "6")],
    "J": ["2", "3", "7", "8", "10", "J", "Q", "K", "A", "R"],
    "Q": ["2", "3", "7", "8", "10", "Q", "K", "A", "R"],
    "K": ["2", "3", "7", "8", "10", "K", "A", "R"],
    "A": ["2", "3", "7", "8", "10", "A", "R"],
}


def _accepts(active: str, face: str) -> bool:
    top = "" if active == "none" else active + "C"
    card = face if face == "R" else face + "H"
    game = position(hands={0: card}, pile=top, draw="KD KS QD")
    try:
        play(game, card)
    except IllegalAction as error:
        assert error.message == "Invalid selection"
        assert hand(game, 0) == [card] and pile(game) == ([top] if top else [])
        return False
    return True


@pytest.mark.parametrize("active", list(LEGAL_FACES))
def test_legality_row(active: str) -> None:
    accepted = [face for face in ALL if _accepts(active, face)]
    assert accepted == LEGAL_FACES[active]


def test_engine_table_matches_the_spec_matrix() -> None:
    rows = matrix_rows()
    for active, legal in LEGAL_FACES.items():
        assert [face for face in ALL if rows[active][face]] == legal


def test_same_face_is_always_legal_including_3_on_3_and_plain_on_equal_plain() -> None:
    for face in ("3", "4", "9", "K", "A"):
        assert _accepts(face, face)


def test_joker_on_3_is_legal_and_the_3_stays_active_for_the_next_seat() -> None:
    game = position(hands={0: "R 5C 9C", 1: "3D 9D", 2: "JC", 3: "4S 9H KC"}, pile="3H",
                    draw="2C 2D 2H")
    events = play(game, "R")
    assert game.direction == -1
    assert PickedUp(3, 3, 1, 1) in events  # P4 could not answer the 3 beneath the joker
    # The next seat in the new direction (P4) holds no 3 or R: it picks up automatically,
    # the 3H leaves the game and the joker joins its hand.
    assert hand(game, 3) == ["4S", "9H", "KC", "R"]
    assert [c for c in game.removed] and game.to_move == "P3"


def test_joker_on_7_is_legal_and_the_7_restriction_stays() -> None:
    game = position(hands={0: "R 9C 9D", 1: "9H 5D 5S"}, pile="7S", draw="2C 2D 2H")
    play(game, "R")
    assert game.active == 7
    # Direction reversed: 4 players, next is P4 (seat 3), who has nothing; so test P2's view:
    game2 = position(hands={1: "9H 5D"}, pile="R 7S", to_move=1, draw="2C 2D 2H")
    with pytest.raises(IllegalAction):
        play(game2, "9H")
    play(game2, "5D")


def test_3_on_7_is_legal_and_then_the_3_restriction_applies() -> None:
    game = position(hands={0: "3C 9C KD", 1: "7D 10D R"}, pile="7S", draw="2C 2D 2H")
    play(game, "3C")
    assert game.active == 3
    with pytest.raises(IllegalAction):
        play(game, "7D")
    with pytest.raises(IllegalAction):
        play(game, "10D")
    play(game, "R")


def test_10_on_7_kills_but_10_on_3_and_2_on_3_and_8_on_7_are_illegal() -> None:
    assert _accepts("7", "10")
    assert not _accepts("3", "10")
    assert not _accepts("3", "2")
    assert not _accepts("7", "8")


def test_a_pile_of_jokers_only_behaves_like_an_empty_pile() -> None:
    game = position(hands={0: "4C 9C KD"}, pile="R R R", draw="2C 2D 2H")
    assert game.active == 0
    assert len(game.legal_plays()) == 3
    play(game, "4C")


def test_4_never_goes_on_a_higher_plain_face_but_always_on_a_7() -> None:
    for active in ("5", "6", "9", "J", "Q", "K", "A"):
        assert not _accepts(active, "4")
    assert _accepts("7", "4")


def test_2_4_and_8_are_active_faces_that_restrict_nothing() -> None:
    for active in ("2", "4", "8"):
        assert all(_accepts(active, face) for face in ALL)
    game = position(hands={0: "4C"}, pile="2S 3H", draw="2C 2D 2H")
    assert game.active == 2  # the 2 is not transparent: the 3 beneath it does not count
    play(game, "4C")


def test_jokers_are_transparent_for_the_active_face() -> None:
    game = position(hands={0: "4C 6C"}, pile="R R 5S", draw="2C 2D 2H")
    assert game.active == 5
    with pytest.raises(IllegalAction):
        play(game, "4C")
    play(game, "6C")


def test_a_play_is_one_face_only_and_all_of_it_from_the_active_pile() -> None:
    game = position(hands={0: "6C 6D 9C"}, visible={0: "6H"}, pile="5S", draw="2C 2D 2H")
    with pytest.raises(IllegalAction, match="Invalid selection"):
        play(game, "6C 9C")
    with pytest.raises(IllegalAction, match="Invalid selection"):
        play(game, "6C 6H")  # hand and visible cards are never combined
    play(game, "6C 6D")
    assert pile(game)[:2] == ["6D", "6C"]


def test_a_set_may_be_any_nonempty_subset_of_identical_faces() -> None:
    game = position(hands={0: "6C 6D 6H 9C"}, pile="5S", draw="2C 2D 2H")
    sets = {tuple(sorted(c)) for c in game.legal_plays()}
    assert len(sets) == 7 + 1  # the 6s: 2^3 - 1 subsets, and the 9
    play(game, "6D")
    assert pile(game)[0] == "6D"
