"""Obsession positions: exact round trips, identical continuations, clear refusals.

Each example plays a random game (2 to 10 players, random rules and human seats) to a random
point, writes the position, restores it and plays both games on with the same actions: the
legal lists, events, positions, observations and results stay the same to the end, the
repetition guard's table included. Corrupted positions are refused with a ``PositionError``
naming the field at fault.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.engine.errors import PositionError
from cardtable.games.obsession.cards import canonical_deck
from cardtable.games.obsession.position import FIELDS, card_text, from_position, parse_card
from cardtable.games.obsession.rules import KILL_ORDERS, Rules
from cardtable.games.obsession.state import PLAY, ObsessionState, seat_name
from counts import count

RULES = st.builds(
    Rules,
    players=st.integers(2, 10),
    run_kill=st.integers(2, 8),
    kill_order=st.sampled_from(KILL_ORDERS),
    max_plays=st.sampled_from([5000, 5000, 60, 400]),
    repeat_limit=st.sampled_from([3, 3, 0, 2]),
)


ROUND_TRIPS = count(30, 250)
"""Random games written and read back at a random move, then both played to the end
(``CARDTABLE_FULL=1``: 250)."""


def tuned(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def observed(game: ObsessionState, seat: int) -> object:
    # The public history is not part of a position: a restored game's log starts there, and
    # so do the cards known from it to be in a hand and what the seats' choices showed.
    return replace(game.observe(seat), history=(), known=(), lacks=())


def assert_same(original: ObsessionState, restored: ObsessionState) -> None:
    assert restored.to_position() == original.to_position()
    assert restored.legal_actions() == original.legal_actions()
    assert restored.result == original.result
    assert restored.to_move == original.to_move
    for seat in range(original.players):
        assert observed(restored, seat) == observed(original, seat)


@tuned(ROUND_TRIPS)
@given(rules=RULES, seed=st.integers(0, 2**32), cut=st.integers(0, 400),
       humans=st.lists(st.booleans(), min_size=10, max_size=10))
def test_positions_round_trip_and_continue_identically(rules, seed, cut, humans):
    humans = humans[:rules.players]
    game = ObsessionState.new(rules, humans, seed)
    rng = random.Random(seed)
    steps = 0
    while game.to_move is not None and steps < cut:
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
    text = game.to_position()
    restored = from_position(rules, text)
    assert restored.to_position() == text
    assert_same(game, restored)
    while game.to_move is not None:
        action = rng.choice(game.legal_actions())
        assert game.apply(action) == restored.apply(action)
        assert_same(game, restored)


@pytest.mark.parametrize("players", range(2, 11))
def test_every_table_size_round_trips_at_the_swap_and_at_the_end(players):
    rules = Rules(players=players)
    game = ObsessionState.new(rules, [False] * players, 7)
    assert from_position(rules, game.to_position()).to_position() == game.to_position()
    rng = random.Random(players)
    while game.to_move is not None:
        game.apply(rng.choice(game.legal_actions()))
    restored = from_position(rules, game.to_position())
    assert restored.result == game.result
    assert restored.to_position() == game.to_position()


def test_the_repetition_table_is_kept():
    # Bots only, no draw pile: the guard counts positions. Restored just before the move
    # that repeats a position for the last time, a game must stop there as the original did.
    def played(rules, seed, plies=None):
        game = ObsessionState.new(rules, [False] * rules.players, seed)
        rng = random.Random(seed)
        actions = []
        while game.to_move is not None and (plies is None or len(actions) < plies):
            actions.append(rng.choice(game.legal_actions()))
            game.apply(actions[-1])
        return game, actions

    found = 0
    for seed in range(240):
        rules = Rules(players=2 + seed % 3, run_kill=2 + seed % 7, repeat_limit=2)
        game, actions = played(rules, seed)
        if game.stalemate != "repetition":
            continue
        # The same game again, up to the move that ended it (the draw pile is empty there).
        last, action = played(rules, seed, len(actions) - 1)[0], actions[-1]
        assert not last.draw
        before = last.to_position()
        restored = from_position(rules, before)
        assert restored._seen
        restored.apply(action)
        assert restored.stalemate == "repetition"
        assert restored.to_position() == game.to_position()
        found += 1
        if found == 5:
            return
    pytest.fail(f"only {found} repetition stalemates")


@given(card=st.sampled_from(canonical_deck(5)))
def test_card_texts_round_trip(card):
    assert parse_card(card_text(card)) == card


# ------------------------------------------------------------------------- refusals


def sample_position() -> tuple[Rules, str]:
    rules = Rules(players=5)
    game = ObsessionState.new(rules, [True, False, False, False, False], 3)
    rng = random.Random(3)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
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
    fields[FIELDS.index("draw")] = "7S,XZ"
    with pytest.raises(PositionError, match=r"^position field 'draw': unknown card 'XZ'$"):
        from_position(rules, " ".join(fields))


def test_the_field_count_is_checked():
    rules, text = sample_position()
    with pytest.raises(PositionError, match=rf"^expected {len(FIELDS)} fields, got 9$"):
        from_position(rules, " ".join(text.split(" ")[:9]))


def test_cards_must_add_up():
    rules, text = sample_position()
    fields = text.split(" ")
    draw = FIELDS.index("draw")
    top, *rest = fields[draw].split(",")
    fields[draw] = ",".join(rest) or "-"
    with pytest.raises(PositionError, match=rf"^cards do not add up: {top} is missing$"):
        from_position(rules, " ".join(fields))
    fields[FIELDS.index("pile")] = top + ",9H@3"
    with pytest.raises(PositionError, match=r"^cards do not add up: 9H@3 is in two places$|"
                       r"^cards do not add up: 9H@3 is not in a 3-deck game$"):
        from_position(rules, " ".join(fields))


def test_a_position_under_other_rules_is_refused():
    _, text = sample_position()
    with pytest.raises(PositionError, match=r"^position field 'rules': the position was made "):
        from_position(Rules(players=5, run_kill=3), text)


def test_seats_out_hold_no_cards():
    rules, text = sample_position()
    fields = text.split(" ")
    fields[FIELDS.index("placings")] = "1/"
    with pytest.raises(PositionError, match=r"^position field 'placings': P1 is out but holds"):
        from_position(rules, " ".join(fields))


@tuned(300)
@given(data=st.data())
def test_corrupted_positions_raise_only_position_errors(data):
    rules, text = sample_position()
    fields = text.split(" ")
    index = data.draw(st.integers(0, len(fields) - 1))
    fields[index] = data.draw(st.one_of(
        st.text(max_size=12),
        st.text(alphabet="0123456789ACDHJKQRS@.,+-/:=abcdef", max_size=30),
        st.sampled_from(fields)))
    try:
        from_position(rules, " ".join(fields))
    except PositionError as error:
        assert "\n" not in error.message


@tuned(200)
@given(text=st.text(max_size=80))
def test_random_text_raises_only_position_errors(text):
    with pytest.raises(PositionError):
        from_position(Rules(players=3), text)


def test_each_card_has_one_text():
    assert parse_card("9H@1") is None
    assert parse_card("R@1.2") is None
    assert parse_card("R.1") is None
    assert parse_card("9h") is None
    assert parse_card("9H@6") is None
    assert card_text(parse_card("R@3.2") or 0) == "R@3.2"


def test_a_seat_out_is_never_to_move():
    rules = Rules(players=3)
    game = ObsessionState.new(rules, [False] * 3, 1)
    rng = random.Random(1)
    while game.to_move is not None and not any(game.out):
        game.apply(rng.choice(game.legal_actions()))
    if game.to_move is None:
        pytest.skip("the game ended before anybody went out")
    fields = game.to_position().split(" ")
    fields[FIELDS.index("to move")] = seat_name(game.out.index(True))
    with pytest.raises(PositionError, match=r"^position field 'to move': P\d+ is out and "):
        from_position(rules, " ".join(fields))


# ------------------------------------------------------------- reachable states only


def with_field(text: str, name: str, value: str) -> str:
    fields = text.split(" ")
    fields[FIELDS.index(name)] = value
    return " ".join(fields)


def test_no_humans_has_one_writing():
    rules = Rules(players=3)
    text = ObsessionState.new(rules, [False] * 3, 1).to_position()
    assert text.split(" ")[FIELDS.index("humans")] == "-"
    with pytest.raises(PositionError, match=r"^position field 'humans': expected seat numbers "):
        from_position(rules, with_field(text, "humans", ""))


def test_a_removed_3_put_back_on_the_pile_leaving_no_move_is_refused():
    found = 0
    for seed in range(200):
        rules = Rules(players=3)
        game = ObsessionState.new(rules, [False] * 3, seed)
        rng = random.Random(seed)
        while game.to_move is not None and not game.removed:
            game.apply(rng.choice(game.legal_actions()))
        if game.to_move is None or game.phase != PLAY:
            continue
        text = game.to_position()
        removed = text.split(" ")[FIELDS.index("removed")].split(",")
        pile = text.split(" ")[FIELDS.index("pile")]
        moved = with_field(with_field(text, "removed", ",".join(removed[:-1]) or "-"), "pile",
                           removed[-1] if pile == "-" else f"{pile},{removed[-1]}")
        mover = seat_name(game.current)
        if game.source(game.current) == "hidden" or any(
                card_text(card).startswith(("3", "R"))
                for card in game.source_cards(game.current)):
            continue  # the mover could play on it (or turns a hidden card up)
        with pytest.raises(PositionError, match=rf"^the game is not over, but {mover} has no "):
            from_position(rules, moved)
        found += 1
        if found == 3:
            return
    pytest.fail(f"only {found} such states")


def test_only_3s_are_removed_and_no_10_stays_on_the_pile():
    rules, text = sample_position()
    assert "10" not in text.split(" ")[FIELDS.index("pile")]
    draw = text.split(" ")[FIELDS.index("draw")].split(",")
    nine = next(card for card in draw if card.startswith("9"))
    ten = next(card for card in draw if card.startswith("10"))
    rest = ",".join(card for card in draw if card not in (nine, ten))
    removed = text.split(" ")[FIELDS.index("removed")]
    pile = text.split(" ")[FIELDS.index("pile")]
    not_three = with_field(with_field(text, "draw", f"{rest},{ten}"), "removed",
                           nine if removed == "-" else f"{removed},{nine}")
    with pytest.raises(PositionError, match=rf"^position field 'removed': {nine} is not a 3"):
        from_position(rules, not_three)
    ten_on_pile = with_field(with_field(text, "draw", f"{rest},{nine}"), "pile",
                             ten if pile == "-" else f"{ten},{pile}")
    with pytest.raises(PositionError, match=rf"^position field 'pile': {ten} is on the pile"):
        from_position(rules, ten_on_pile)


def test_nothing_is_played_at_the_swap():
    rules = Rules(players=3)
    text = ObsessionState.new(rules, [False] * 3, 2).to_position()
    draw = text.split(" ")[FIELDS.index("draw")].split(",")
    card = next(card for card in draw if card[0] in "456")
    played = with_field(with_field(text, "draw", ",".join(c for c in draw if c != card)),
                        "pile", card)
    with pytest.raises(PositionError, match=r"^position field 'phase': at the swap nothing "):
        from_position(rules, played)


@tuned(150)
@given(rules=RULES, seed=st.integers(0, 2**32), cut=st.integers(0, 300))
def test_every_reachable_state_loads_and_has_one_text(rules, seed, cut):
    game = ObsessionState.new(rules, [seed % 2 == 0] + [False] * (rules.players - 1), seed)
    rng = random.Random(seed)
    steps = 0
    while game.to_move is not None and steps < cut:
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
    text = game.to_position()
    assert from_position(rules, text).to_position() == text
    humans = text.split(" ")[FIELDS.index("humans")]
    if humans == "-":
        with pytest.raises(PositionError):
            from_position(rules, with_field(text, "humans", ""))
