"""Caravan positions: exact round trips, identical continuations, clear refusals.

Each example plays a random game (every preset, and per-seat rule overrides) to a random ply,
writes the position, restores it and plays both games on with the same moves: the legal lists,
events (reshuffles included), positions, observations and results stay the same to the end.
Corrupted positions are refused with a ``PositionError`` naming the field at fault.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.engine.errors import PositionError
from cardtable.engine.randomness import GameRandom
from cardtable.games.caravan.errors import DeckError
from cardtable.games.caravan.observation import Observation
from cardtable.games.caravan.position import FIELDS, card_text, from_position, parse_card
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.state import CaravanState
from counts import count

PRESET_NAMES = tuple(PRESETS)
PLY_LIMIT = 500

OVERRIDES = {
    "max_numerals": [None, 1, 3, 8], "max_faces": [None, 1, 2],
    "queen_placement": ["last", "any"], "queen_changes_direction": [True, False],
    "joker_target_survives": [True, False], "joker_ace_mode": ["suit", "rank"],
    "equal_rank_direction": ["desc", "keep_previous", "any"],
    "faces_on_opponent": [True, False], "face_must_match_suit": [True, False],
    "clear_policy": ["clear", "destroy_restart", "disabled"],
    "mulligan": ["rebuild", "reshuffle", "discard", "none"],
    "hand_size": [1, 2, 5, 8], "draw_mode": ["one", "refill"],
    "deck_exhaustion": ["shrink", "reshuffle_discards"], "jack_is_joker_without_jokers": [True],
    "jokers_per_sample": [0, 2],
}
SEAT_OVERRIDES = st.fixed_dictionaries(
    {}, optional={name: st.sampled_from(values) for name, values in OVERRIDES.items()})


@st.composite
def seat_rules(draw: st.DrawFn) -> SeatRules:
    base = PRESETS[draw(st.sampled_from(PRESET_NAMES))]
    if draw(st.booleans()):
        return SeatRules.both(base)
    return SeatRules(replace(base, **draw(SEAT_OVERRIDES)), replace(base, **draw(SEAT_OVERRIDES)))


def tuned(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def observed(game: CaravanState, seat: int) -> tuple[object, ...]:
    # The public history is not part of a position: a restored game's history starts there.
    obs = game.observation(seat)
    return tuple(getattr(obs, name) for name in Observation.FIELDS if name != "history")


def new_game(rules: SeatRules, seed: int) -> CaravanState | None:
    try:
        return CaravanState.new(rules, seed=seed)
    except DeckError:  # overrides can ask for decks the samples cannot supply
        return None


def play_to(game: CaravanState, plies: int, rng: random.Random) -> None:
    while game.result is None and game.plies < plies:
        game.apply(rng.choice(game.legal_moves()))


def assert_same(original: CaravanState, restored: CaravanState) -> None:
    assert restored.to_position() == original.to_position()
    assert restored.legal_moves() == original.legal_moves()
    assert restored.result == original.result
    assert restored.to_move == original.to_move
    for seat in (0, 1):
        assert observed(restored, seat) == observed(original, seat)


@tuned(count(40, 200))
@given(rules=seat_rules(), seed=st.integers(0, 2**32), cut=st.integers(0, 120))
def test_positions_round_trip_and_continue_identically(rules, seed, cut):
    game = new_game(rules, seed)
    if game is None:
        return
    rng = random.Random(seed)
    play_to(game, cut, rng)
    text = game.to_position()
    assert "\n" not in text
    restored = from_position(rules, text)
    assert restored.to_position() == text
    assert_same(game, restored)
    while game.result is None and game.plies < PLY_LIMIT:
        move = rng.choice(game.legal_moves())
        assert game.apply(move) == restored.apply(move)
        assert_same(game, restored)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_finished_game_round_trips(preset):
    rules = SeatRules.preset(preset)
    game = CaravanState.new(rules, seed=11)
    play_to(game, 10_000, random.Random(3))
    if game.result is None:
        game.abandon("stalemate")
    restored = from_position(rules, game.to_position())
    assert restored.result == game.result
    assert restored.to_position() == game.to_position()


def test_reshuffles_draw_from_the_restored_generator():
    # Foxon returns discards to the deck: a restored game reshuffles exactly as the original.
    rules = SeatRules.preset("foxon")
    game = CaravanState.new(rules, seed=5)
    rng = random.Random(5)
    play_to(game, 40, rng)
    restored = from_position(rules, game.to_position())
    shuffles = 0
    while game.result is None and game.plies < 3000:
        move = rng.choice(game.legal_moves())
        event = game.apply(move)
        assert restored.apply(move) == event
        shuffles += len(event.shuffles)
    assert shuffles > 0
    assert restored.to_position() == game.to_position()


def test_a_clone_and_its_original_write_the_same_position():
    game = CaravanState.new(SeatRules.preset("foxon"), seed=2)
    play_to(game, 30, random.Random(2))
    assert game.clone().to_position() == game.to_position()


def test_a_generator_not_made_from_the_seed_is_written_whole():
    rules = SeatRules.preset("power")
    game = CaravanState.new(rules, seed=4)
    game.rng = GameRandom("another seed")
    text = game.to_position()
    assert " mt:" in text
    restored = from_position(rules, text)
    assert isinstance(restored.rng, GameRandom) and isinstance(game.rng, GameRandom)
    assert restored.rng.state_text(4) == game.rng.state_text(4)


@given(card=st.builds(
    lambda rank, suit, owner, sample, copy: (
        (14 | 4 << 4 | copy << 7 | owner << 9 | sample << 10) if rank == 14
        else (rank | suit << 4 | 1 << 7 | owner << 9 | sample << 10)),
    st.integers(1, 14), st.integers(0, 3), st.integers(0, 1), st.integers(1, 4),
    st.integers(1, 2)))
def test_card_texts_round_trip(card):
    assert parse_card(card_text(card), (card >> 9) & 1) == card


# ------------------------------------------------------------------------- refusals


def sample_position() -> tuple[SeatRules, str]:
    rules = SeatRules.preset("nv")
    game = CaravanState.new(rules, seed=9)
    play_to(game, 25, random.Random(9))
    return rules, game.to_position()


@pytest.mark.parametrize("index", range(len(FIELDS)))
def test_a_garbled_field_is_named(index):
    rules, text = sample_position()
    fields = text.split(" ")
    fields[index] = "X!Z"
    with pytest.raises(PositionError) as caught:
        from_position(rules, " ".join(fields))
    assert f"position field '{FIELDS[index]}'" in caught.value.message


def test_unknown_cards_are_named():
    rules, text = sample_position()
    fields = text.split(" ")
    fields[FIELDS.index("hand ABC")] = "7S,XZ"
    with pytest.raises(PositionError, match=r"position field 'hand ABC': unknown card 'XZ'"):
        from_position(rules, " ".join(fields))


def test_the_field_count_is_checked():
    rules, text = sample_position()
    with pytest.raises(PositionError, match=rf"^expected {len(FIELDS)} fields, got 9$"):
        from_position(rules, " ".join(text.split(" ")[:9]))


def test_cards_must_add_up():
    rules, text = sample_position()
    fields = text.split(" ")
    hand = FIELDS.index("hand ABC")
    first = fields[hand].split(",")[0]
    fields[FIELDS.index("pile ABC")] = first
    with pytest.raises(PositionError, match=r"^cards do not add up: ABC's .* in two places$"):
        from_position(rules, " ".join(fields))
    fields = text.split(" ")
    fields[hand] = ",".join(fields[hand].split(",")[1:]) or "-"
    with pytest.raises(PositionError, match=r"^cards do not add up: ABC has \d+ cards, the "):
        from_position(rules, " ".join(fields))


def test_a_position_under_other_rules_is_refused():
    _, text = sample_position()
    with pytest.raises(PositionError, match=r"^position field 'rules': the position was made "):
        from_position(SeatRules.preset("power"), text)


@tuned(300)
@given(data=st.data())
def test_corrupted_positions_raise_only_position_errors(data):
    rules, text = sample_position()
    fields = text.split(" ")
    index = data.draw(st.integers(0, len(fields) - 1))
    fields[index] = data.draw(st.one_of(
        st.text(max_size=12),
        st.text(alphabet="0123456789ABCDEFJKQSHCO@.,+~-/=*yn", max_size=20),
        st.sampled_from(fields)))
    try:
        from_position(rules, " ".join(fields))
    except PositionError as error:
        assert "\n" not in error.message


@tuned(200)
@given(text=st.text(max_size=80))
def test_random_text_raises_only_position_errors(text):
    rules = SeatRules.preset("power")
    with pytest.raises(PositionError):
        from_position(rules, text)


def test_each_card_has_one_text():
    assert parse_card("7S@1", 0) is None
    assert parse_card("JO@1.2", 0) is None
    assert parse_card("JO.1", 0) is None
    assert parse_card("7s", 0) is None
    assert card_text(parse_card("JO@2.2", 1) or 0) == "JO@2.2"


# ------------------------------------------------------------- reachable states only


def with_fields(text: str, **changes: str) -> str:
    fields = text.split(" ")
    for name, value in changes.items():
        fields[FIELDS.index(name.replace("_", " "))] = value
    return " ".join(fields)


def opening_position() -> tuple[SeatRules, CaravanState]:
    rules = SeatRules.preset("power")
    game = CaravanState.new(rules, seed=7)
    play_to(game, 1, random.Random(7))  # ABC has placed one numeral, DEF none
    return rules, game


def test_a_start_round_hand_moved_to_the_discard_pile_is_refused():
    rules, game = opening_position()
    text = game.to_position()
    fields = text.split(" ")
    hand = fields[FIELDS.index("hand DEF")]
    with pytest.raises(PositionError, match=r"^position field 'hand DEF': in its Start round "):
        from_position(rules, with_fields(text, hand_DEF="-", pile_DEF=hand))


@pytest.mark.parametrize(("changes", "message"), [
    ({"plies": "2"}, r"^position field 'plies': 2 moves in all"),
    ({"moves": "0,1", "to_move": "ABC"}, r"^position field 'moves': after 1 moves with ABC "),
    ({"to_move": "ABC"}, r"^position field 'to move': after 1 moves with ABC first, DEF is "),
    ({"placed": "2,0"}, r"^position field 'placed': ABC has placed more numerals than it has "),
    ({"placed": "0,0"}, r"^position field 'placed': ABC's caravans hold more than the 0 "),
])
def test_counters_that_play_cannot_reach_are_refused(changes, message):
    rules, game = opening_position()
    with pytest.raises(PositionError, match=message):
        from_position(rules, with_fields(game.to_position(), **changes))


def test_a_game_not_over_whose_mover_has_no_move_is_refused():
    # A discard mulligan lets a seat discard in its Start round, so its pile may hold cards
    # there; but a seat to move with nothing in hand has no move at all.
    rules = SeatRules.both(replace(PRESETS["power"], mulligan="discard"))
    assert rules.abc.opening_mode == "alternate"
    game = CaravanState.new(rules, seed=7)
    text = game.to_position()
    mover = text.split(" ")[FIELDS.index("to move")]
    hand = text.split(" ")[FIELDS.index(f"hand {mover}")]
    with pytest.raises(PositionError, match=rf"^the game is not over, but {mover} has no legal"):
        from_position(rules, with_fields(text, **{f"hand_{mover}": "-", f"pile_{mover}": hand}))


@tuned(150)
@given(rules=seat_rules(), seed=st.integers(0, 2**32), cut=st.integers(0, 5), data=st.data())
def test_a_start_round_card_moved_from_hand_to_pile_is_refused(rules, seed, cut, data):
    """In the Start round a seat discards nothing (save a discard mulligan, where the rules
    allow one): moving any card of its hand to its pile gives a state play cannot reach."""
    game = new_game(rules, seed)
    if game is None:
        return
    play_to(game, cut, random.Random(seed))
    seats = [seat for seat in (0, 1)
             if game.in_opening(seat) and game.hands[seat]
             and not (rules.of(seat).mulligan == "discard"
                      and rules.abc.opening_mode == "alternate")]
    if game.result is not None or not seats:
        return
    seat = data.draw(st.sampled_from(seats))
    name = ("ABC", "DEF")[seat]
    text = game.to_position()
    hand = text.split(" ")[FIELDS.index(f"hand {name}")].split(",")
    card = hand.pop(data.draw(st.integers(0, len(hand) - 1)))
    pile = text.split(" ")[FIELDS.index(f"pile {name}")]
    mutated = with_fields(text, **{f"hand_{name}": ",".join(hand) or "-",
                                   f"pile_{name}": card if pile == "-" else f"{pile},{card}"})
    with pytest.raises(PositionError):
        from_position(rules, mutated)
