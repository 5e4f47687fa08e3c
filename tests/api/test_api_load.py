"""The front door: ``cardtable.load_game`` and ``cardtable.games``, their parameters and errors,
and seat names, the same in the three games."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import cardtable
from cardtable.engine.errors import GameError, GameParamsError, UnknownSeat
from cardtable.games.caravan.errors import MoveSyntaxError
from cardtable.games.caravan.notation import Move
from cardtable.games.caravan.rules import NV, POWER, SeatRules

BIN = Path(sys.executable).parent


def test_games_lists_every_game() -> None:
    # The built-in games first; installed plug-ins (examples/plugins/kuhn_poker) follow.
    assert cardtable.games()[:3] == ("caravan", "obsession", "austerity")


def test_import_cardtable_loads_no_game() -> None:
    code = ("import sys, cardtable; "
            "print(sorted(m for m in sys.modules if m.startswith(('cardtable.', 'typing'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['cardtable.version']"  # (one constant)


@pytest.mark.parametrize("name", ["caravan", "obsession", "austerity"])
def test_a_game_is_immutable(name: str) -> None:
    game = cardtable.load_game(name)
    field = dataclasses.fields(game)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(game, field, None)
    assert game.name == name
    assert list(game.seats) == list(game.new_state(1).seats)


def test_unknown_game_is_named() -> None:
    with pytest.raises(GameParamsError, match=r"^Unknown game 'chess' \(allowed: caravan, "):
        cardtable.load_game("chess")


# --- Caravan parameters ----------------------------------------------------------------------


def test_caravan_preset_and_fields() -> None:
    game = cardtable.load_game("caravan", rules="nv", hand_size=6)
    assert game.rules == SeatRules.both(dataclasses.replace(NV, hand_size=6))


def test_caravan_seat_fields_in_both_spellings() -> None:
    dotted = cardtable.load_game("caravan", **{"abc.max_faces": 2, "DEF.hand_size": 6})
    mapped = cardtable.load_game("caravan", abc={"max_faces": 2}, **{"def": {"hand_size": 6}})
    assert dotted == mapped
    assert dotted.rules.abc == dataclasses.replace(POWER, max_faces=2)
    assert dotted.rules.def_ == dataclasses.replace(POWER, hand_size=6)


def test_caravan_seat_field_wins_over_shared_field() -> None:
    game = cardtable.load_game("caravan", max_faces=4, **{"abc.max_faces": 2})
    assert (game.rules.abc.max_faces, game.rules.def_.max_faces) == (2, 4)


def test_caravan_values_as_python_or_as_text() -> None:
    typed = cardtable.load_game("caravan", max_faces=None, faces_on_opponent=False,
                                clear_policy="destroy_restart")
    texts = cardtable.load_game("caravan", max_faces="none", faces_on_opponent="no",
                                clear_policy="destroy-restart")
    assert typed == texts


def test_caravan_first_seat() -> None:
    assert cardtable.load_game("caravan", first="DEF").new_state(3).to_move == "DEF"
    assert cardtable.load_game("caravan", first=1).new_state(3).to_move == "DEF"
    with pytest.raises(GameParamsError, match=r"^First player must be either ABC or DEF"):
        cardtable.load_game("caravan", first="GHI")


def _cli_error(program: str, args: list[str]) -> str:
    run = subprocess.run([str(BIN / program), *args], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=60)
    assert run.returncode != 0
    return run.stderr.strip()


def _api_error(name: str, params: dict[str, object]) -> str:
    with pytest.raises(GameParamsError) as caught:
        cardtable.load_game(name, **params)
    assert isinstance(caught.value, GameError)
    return caught.value.message


CARAVAN_MISTAKES = [
    ({"rules": "poker"}, ["--rules", "poker"]),
    ({"max_faces": 0}, ["--rule", "max_faces=0"]),
    ({"colour": "red"}, ["--rule", "colour=red"]),
    ({"queen_placement": "middle"}, ["--rule", "queen_placement=middle"]),
    ({"abc": {"faces_on_opponent": "maybe"}}, ["--rule", "abc.faces_on_opponent=maybe"]),
    ({"ghi.max_faces": 2}, ["--rule", "ghi.max_faces=2"]),
    ({"sold_min": 30}, ["--rule", "sold_min=30"]),
    ({"abc.opening_hand_size": 2}, ["--rule", "abc.opening_hand_size=2"]),
    ({"deck_size": 10}, ["--rule", "deck_size=10"]),
    ({"rules_file": "/nonexistent/rules.toml"}, ["--rules-file", "/nonexistent/rules.toml"]),
]


@pytest.mark.parametrize(("params", "args"), CARAVAN_MISTAKES)
def test_caravan_mistakes_get_the_command_line_message(
    params: dict[str, object], args: list[str]
) -> None:
    assert _cli_error("caravan", ["--bvb", "--plain", *args]) == (
        f"caravan: {_api_error('caravan', params)}"
    )


OBSESSION_MISTAKES = [
    ({"players": 11}, ["--players", "11"]),
    ({"players": "many"}, ["--players", "many"]),
    ({"players": 3, "humans": 4}, ["--players", "3", "--humans", "4"]),
    ({"run_kill": 9}, ["--run-kill", "9"]),
    ({"kill_order": "never"}, ["--kill-order", "never"]),
    ({"max_plays": 0}, ["--max-plays", "0"]),
    ({"repeat_limit": -1}, ["--repeat-limit=-1"]),
]


@pytest.mark.parametrize(("params", "args"), OBSESSION_MISTAKES)
def test_obsession_mistakes_get_the_command_line_message(
    params: dict[str, object], args: list[str]
) -> None:
    assert _cli_error("obsession", ["--plain", *args]) == (
        f"obsession: {_api_error('obsession', params)}"
    )


def test_obsession_unknown_parameter() -> None:
    assert _api_error("obsession", {"jokers": 3}) == (
        "Unknown parameter 'jokers' for obsession (allowed: players, humans, run_kill, "
        "kill_order, max_plays, repeat_limit)."
    )


def test_austerity_mistakes_get_the_hub_message(tmp_path: Path) -> None:
    bad_deck = tmp_path / "bad.deck"
    bad_deck.write_text("P:1:1,0,0\n")
    good_deck = tmp_path / "good.deck"
    good_deck.write_text("B:1:1,0,0,0\n")
    player = str(BIN / "shenzi")
    cases = [
        ({"deck": str(good_deck), "tokens": "x"}, ["x", "1", str(good_deck), player, player]),
        ({"deck": str(good_deck), "points": -1}, ["1", "-1", str(good_deck), player, player]),
        ({"deck": str(tmp_path / "none")}, ["1", "1", str(tmp_path / "none"), player, player]),
        ({"deck": str(bad_deck)}, ["1", "1", str(bad_deck), player, player]),
        ({"deck": str(good_deck), "players": 1}, ["1", "1", str(good_deck), player]),
    ]
    for params, args in cases:
        assert _cli_error("austerity", args) == _api_error("austerity", params)
    assert _api_error("austerity", {"decks": "x"}).startswith("Unknown parameter 'decks'")


# --- seats -----------------------------------------------------------------------------------


def test_move_parse_uses_the_named_seats_rules() -> None:
    # ABC may hold ten cards at the opening, DEF eight: position 9 exists for ABC only.
    rules = SeatRules(dataclasses.replace(POWER, opening_hand_size=10), POWER)
    assert Move.parse("P9A", rules, seat="ABC") == Move(0, 0, 0, 9)
    assert Move.parse("P9A", rules, seat="abc") == Move(0, 0, 0, 9)
    assert Move.parse("P9A", rules, seat=0) == Move(0, 0, 0, 9)
    with pytest.raises(MoveSyntaxError, match="The chosen hand position is out of range"):
        Move.parse("P9A", rules, seat="DEF")


@pytest.mark.parametrize("seat", ["GHI", "", 2, -1, True, None, 1.0])
def test_move_parse_refuses_what_is_not_a_seat(seat: object) -> None:
    if seat is None:  # no seat: only the canonical form names one
        with pytest.raises(MoveSyntaxError, match="seat making the move is not known"):
            Move.parse("P1A", SeatRules.both(POWER), None)
        return
    allowed = r"^Unknown seat .* \(allowed: ABC, DEF or an index 0\.\.1\)\.$"
    with pytest.raises(UnknownSeat, match=allowed):
        Move.parse("P1A", SeatRules.both(POWER), seat)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "params", "names"), [
    ("caravan", {}, ("ABC", "DEF")),
    ("obsession", {"players": 5}, ("P1", "P2", "P3", "P4", "P5")),
    ("austerity", {"players": 3}, ("A", "B", "C")),
])
def test_seats_by_name_or_index(name: str, params: dict[str, object],
                                names: tuple[str, ...]) -> None:
    state = cardtable.load_game(name, **params).new_state(11)
    assert tuple(state.seats) == names
    for index, seat in enumerate(names):
        assert state.seat_number(seat) == index
        assert state.seat_number(seat.lower()) == index
        assert state.seat_number(index) == index
        assert _same(state.observation(seat), state.observation(index))
    for wrong in ("X9", len(names), -1, True):
        with pytest.raises(UnknownSeat, match=r"^Unknown seat "):
            state.observation(wrong)  # type: ignore[arg-type]


def _same(first: object, second: object) -> bool:
    return _view(first) == _view(second)


def _view(observation: object) -> dict[str, object]:
    """An observation's fields as plain values (histories as tuples of their events)."""
    # Private slots are bookkeeping, not something the seat sees.
    slots = [slot for slot in getattr(type(observation), "__slots__", ())
             if not slot.startswith("_")]
    return {slot: _plain(getattr(observation, slot)) for slot in slots}


def _plain(value: object) -> object:
    if isinstance(value, Sequence) and not isinstance(value, str | tuple | list):
        return tuple(value)
    return value


def test_a_long_unknown_seat_is_cut_short_in_one_line() -> None:
    state = cardtable.load_game("obsession").new_state(1)
    with pytest.raises(UnknownSeat) as caught:
        state.seat_number("P" + "9" * 5000 + "\n")
    assert caught.value.message == (
        "Unknown seat 'P9999999999999999999...' (allowed: P1, P2, P3, P4 or an index 0..3)."
    )
