"""Property: the legal list is exactly the set of moves the game accepts, for random positions
under every preset and under per-seat rule overrides (hypothesis)."""

from __future__ import annotations

import random
from dataclasses import replace

from helpers import snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.games.caravan.errors import IllegalMove
from cardtable.games.caravan.legality import (
    count_legal,
    has_legal_move,
    legal_codes,
    legal_parts,
    move_error,
    nth_legal,
    python_has_legal_move,
    python_legal_parts,
)
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, pack
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.state import CaravanState

# Fields that legality reads, with values each seat may be given on top of its preset.
OVERRIDES = {
    "faces_on_opponent": st.booleans(),
    "face_must_match_suit": st.booleans(),
    "queen_placement": st.sampled_from(["last", "any"]),
    "max_faces": st.sampled_from([None, 1, 2, 3]),
    "jack_respects_face_cap": st.booleans(),
    "clear_policy": st.sampled_from(["clear", "destroy_restart", "disabled"]),
    "max_numerals": st.sampled_from([None, 3, 8]),
    "jack_is_joker_without_jokers": st.booleans(),
    "queen_changes_suit": st.booleans(),
}


@st.composite
def seat_overrides(draw: st.DrawFn) -> dict[str, object]:
    names = draw(st.lists(st.sampled_from(sorted(OVERRIDES)), max_size=4, unique=True))
    return {name: draw(OVERRIDES[name]) for name in names}


@st.composite
def games(draw: st.DrawFn) -> CaravanState:
    preset = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    rules = SeatRules(replace(preset, **draw(seat_overrides())),
                      replace(preset, **draw(seat_overrides())))
    seed = draw(st.integers(0, 2**32))
    game = CaravanState.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(draw(st.integers(0, 120))):
        moves = game.legal_codes()
        if game.result is not None or not moves:
            break
        game.apply_code(rng.choice(moves))
    return game


def candidates(game: CaravanState) -> list[int]:
    """Every packed move within small bounds: each kind, caravans A..F, hand positions
    0..n+1, slots 0..size+1 for plays, restart cards for clears."""
    hand = game.hands[game.turn]
    largest = max(len(caravan) for caravan in game.caravans)
    codes = []
    for hand_position in range(len(hand) + 2):
        for caravan in range(6):
            codes.extend(pack(PLAY, caravan, hand_position, slot) for slot in range(largest + 2))
            codes.append(pack(CLEAR, caravan, hand_position))
        codes.append(pack(DISCARD, 0, hand_position))
    return codes


def canonical(game: CaravanState, code: int) -> int:
    """The move as the game records it: a numeral play names no slot, and a clear names a hand
    card only when it restarts the caravan (the game drops what the move does not use)."""
    kind, caravan, hand_position = code & 3, (code >> 2) & 7, (code >> 5) & 0xFFFF
    hand = game.hands[game.turn]
    if kind == PLAY and 1 <= hand_position <= len(hand) and hand[hand_position - 1] & 15 <= 10:
        return pack(PLAY, caravan, hand_position)
    if kind == CLEAR and game.rules[game.turn].clear_policy != "destroy_restart":
        return pack(CLEAR, caravan)
    return code


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games())
def test_the_legal_list_is_what_the_game_accepts(game: CaravanState) -> None:
    if game.result is not None:
        return
    table = game.table()
    legal = legal_codes(table)
    assert len(legal) == len(set(legal))
    accepted = {canonical(game, code) for code in candidates(game)
                if move_error(table, code) is None}
    assert accepted == set(legal)
    assert has_legal_move(table) == python_has_legal_move(table) == bool(legal)  # core, rules
    for parts in (legal_parts(table), python_legal_parts(table)):  # compiled core, rules
        assert count_legal(parts) == len(legal)
        assert [nth_legal(parts, index) for index in range(len(legal))] == legal
    assert game.observation(game.turn).legal_codes() == legal


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), pick=st.randoms(use_true_random=False))
def test_legal_moves_apply_and_refused_moves_change_nothing(game: CaravanState,
                                                            pick: random.Random) -> None:
    if game.result is not None:
        return
    table = game.table()
    legal = legal_codes(table)
    for code in pick.sample(legal, min(len(legal), 8)):
        game.clone().apply_code(code)
    refused = [code for code in candidates(game) if move_error(table, code) is not None]
    before = snapshot(game)
    for code in pick.sample(refused, min(len(refused), 8)):
        try:
            game.apply_code(code)
        except IllegalMove as error:
            assert error.message == move_error(table, code)
        else:
            raise AssertionError(f"move {code} was applied though refused")
        assert snapshot(game) == before


def test_a_table_the_core_does_not_take_is_listed_by_the_rules() -> None:
    """A hidden card (0) stands on the other seat's caravans while a simultaneous Start round
    is hidden; the rules list the moves of such a table whether the core is built or not."""
    game = CaravanState.new(SeatRules.both(PRESETS["power"]), seed=5)
    while game.placed != [3, 3]:
        game.apply_code(game.legal_codes()[0])
    table = game.table()
    other = 3 if game.turn == 0 else 0
    table.caravans = list(table.caravans)
    table.caravans[other] = ((0, ()),) * len(table.caravans[other])
    assert legal_parts(table) == python_legal_parts(table)
