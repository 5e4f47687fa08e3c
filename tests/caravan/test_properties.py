"""Invariants over many random games (STYLE: property-based tests), per preset.

Each example plays one whole game from a random seed and checks, along the way, that no
card is created or lost, that the list of legal moves is exactly what the rules accept,
that refused moves change nothing, that observations hide what §11 says they hide, that
clones are independent, and that the game ends.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import PRESET_NAMES, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.errors import IllegalMove
from cardtable.games.caravan.legality import NUMERAL_SLOT, move_error
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, pack
from cardtable.games.caravan.observation import HIDDEN_CARD, Observation
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.state import CaravanState
from counts import count

# Games per preset (CARDTABLE_FULL=1: 2000). Each game is checked at every ply; the slower
# checks (every packed move enumerated, every legal move applied to a clone,
# hidden-information swaps) run on every CHECK_EVERY-th ply, staggered by seed so that all
# plies are covered across games.
GAMES = count(100, 2000)
CHECK_EVERY = 32
PLY_LIMIT = 3000

# Under foxon, discards return to the deck (reshuffle_discards) and a uniformly random
# player discards or restarts caravans about as often as it builds them, so two random
# players take thousands of plies to finish. DEF is therefore the normal bot there, which
# builds caravans steadily and ends a game in about fifty plies; ABC stays random.
OPPONENT = {"power": "random", "nv": "random", "foxon": "normal", "karavane": "random"}


def all_cards(game: CaravanState) -> list[int]:
    everything = [*game.decks[0], *game.decks[1], *game.hands[0], *game.hands[1],
                  *game.piles[0], *game.piles[1]]
    for caravan in game.caravans:
        for numeral, faces in caravan:
            everything.append(numeral)
            everything.extend(faces)
    return everything


def check_conservation(game: CaravanState, initial: Counter[int]) -> None:
    # Every card has its own identity, so the same set without duplicates is the same deal.
    everything = all_cards(game)
    present = set(everything)
    assert len(present) == len(everything), "a card is in two places"
    assert present == initial.keys(), "a card was created or lost"


def candidates(game: CaravanState) -> list[int]:
    """Every canonical packed move within small bounds: all kinds, caravans 0..5, hand
    positions 0..n+1, slots 0..size+1 (face plays) or none (numeral plays, discards)."""
    hand = game.hands[game.turn]
    largest = max(len(c) for c in game.caravans)
    restart = game.rules[game.turn].clear_policy == "destroy_restart"
    codes = []
    for position in range(len(hand) + 2):
        numeral = 1 <= position <= len(hand) and hand[position - 1] & 15 <= 10
        for caravan in range(6):
            slots = (0,) if numeral else range(largest + 2)
            codes.extend(pack(PLAY, caravan, position, slot) for slot in slots)
        codes.append(pack(DISCARD, 0, position))
        if restart:
            codes.extend(pack(CLEAR, caravan, position) for caravan in range(6))
    if not restart:
        codes.extend(pack(CLEAR, caravan) for caravan in range(6))
    return codes


def observation_values(obs: Observation) -> tuple[object, ...]:
    return tuple(getattr(obs, name) for name in Observation.FIELDS)


def nested_tuples(value: object):
    if isinstance(value, tuple | list):
        yield tuple(value)
        for item in value:
            yield from nested_tuples(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from nested_tuples(item)


def check_observations(game: CaravanState, rng: random.Random) -> None:
    # Short sequences can match a deck by chance (a reshuffled pile of three cards has a
    # one-in-six chance of coming back in the order a move showed them); eight cannot.
    decks = [tuple(d) for d in game.decks if len(d) >= 8]
    decks += [tuple(reversed(d)) for d in decks]
    for seat in (0, 1):
        obs = game.observation(seat)
        other = 1 - seat
        assert obs.hand == tuple(game.hands[seat])
        assert obs.hand_sizes == (len(game.hands[0]), len(game.hands[1]))
        assert obs.deck_sizes == (len(game.decks[0]), len(game.decks[1]))
        for value in observation_values(obs):
            for sequence in nested_tuples(value):
                assert sequence not in decks, "an observation shows a deck's order"
        # Identities, not codes: an equal card of another sample may well be visible.
        visible = {c for caravan in obs.caravans for n, faces in caravan for c in (n, *faces)}
        visible.update(obs.hand, *obs.piles)
        assert not visible & set(game.hands[other]), "an observation shows the other hand"
        if game.opening_hidden():
            for index in range(3 * other, 3 * other + 3):
                assert all(slot == (HIDDEN_CARD, ()) for slot in obs.caravans[index])
                assert obs.summaries[index] == (0, len(game.caravans[index]), 0, -1, 0)
            for entry in obs.history:
                if entry.seat == other and entry.code is not None:
                    assert set(entry.cards) <= {HIDDEN_CARD}
        # Swap the other seat's hand with cards of its deck, and reorder both decks: a
        # seat's observation must not change, since it may know none of these.
        variant = game.clone()
        pool = variant.hands[other] + variant.decks[other]
        rng.shuffle(pool)
        size = len(variant.hands[other])
        variant.hands[other] = pool[:size]
        variant.decks[other] = pool[size:]
        rng.shuffle(variant.decks[seat])
        assert observation_values(variant.observation(seat)) == observation_values(obs)


def check_moves(game: CaravanState) -> None:
    table = game.table()
    legal = game.legal_codes()
    assert len(set(legal)) == len(legal)
    accepted = [code for code in candidates(game) if move_error(table, code) is None]
    assert sorted(legal) == sorted(accepted)
    assert [move.code for move in game.legal_moves()] == legal
    assert game.observation(game.turn).legal_codes() == legal
    assert game.observation(1 - game.turn).legal_codes() == []
    before = snapshot(game)
    for code in legal:
        trial = game.clone()
        event = trial.apply_code(code)
        assert event.code == code
        assert trial.plies == game.plies + 1
    refused = [code for code in candidates(game) if code not in set(legal)]
    for code in refused[:: max(1, len(refused) // 25)]:
        error = move_error(table, code)
        with pytest.raises(IllegalMove) as caught:
            game.apply_code(code)
        assert caught.value.message == error
        assert snapshot(game) == before
    # A numeral play with a slot number is refused, not read as the play without it.
    for code in legal:
        if code & 3 == PLAY and not code >> 21:
            assert move_error(table, code | 3 << 21) == NUMERAL_SLOT
    assert snapshot(game) == before


def check_clone(game: CaravanState, code: int) -> None:
    before = snapshot(game)
    clone = game.clone()
    clone.apply_code(code)
    clone.rng.shuffle(clone.decks[0])
    clone.hands[0].append(0)
    clone.placed[0] += 5
    assert snapshot(game) == before


def play_game(preset: str, seed: int) -> CaravanState:
    game = CaravanState.new(SeatRules.preset(preset), seed=seed)
    initial = Counter([*game.initial_decks[0], *game.initial_decks[1]])
    assert sum(initial.values()) == len(game.initial_decks[0]) + len(game.initial_decks[1])
    bots = [make_bot("random", 0, seed), make_bot(OPPONENT[preset], 1, seed)]
    rng = random.Random(seed)
    twin = game.clone()
    played = []
    while game.result is None:
        assert game.plies < PLY_LIMIT, "the game does not end"
        check_conservation(game, initial)
        seat = game.turn
        code = bots[seat].choose_code(game.observation(seat))
        if (game.plies + seed) % CHECK_EVERY == 0:
            check_moves(game)
            check_observations(game, rng)
            check_clone(game, code)
        game.apply_code(code)
        played.append(code)
    check_conservation(game, initial)
    # The clone taken at the start shares the random source copy-on-write: replaying the
    # same moves on it reproduces the game exactly, reshuffles included.
    for code in played:
        twin.apply_code(code)
    assert snapshot(twin) == snapshot(game)
    check_observations(game, rng)
    assert game.legal_codes() == []
    assert game.result.reason in ("lanes", "out_of_cards")
    return game


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=GAMES, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_games_keep_every_invariant(preset, seed):
    play_game(preset, seed)


# ------------------------------------------------- derived state against §3 and §6.6

RANKS = st.integers(min_value=1, max_value=10)
SUIT = st.integers(min_value=0, max_value=3)
FACE = st.sampled_from([12, 13, 14]).flatmap(
    lambda rank: st.just((rank, 4)) if rank == 14 else st.tuples(st.just(rank), SUIT))
SLOT = st.tuples(st.tuples(RANKS, SUIT), st.lists(FACE, max_size=4))


def spec_summary(slots, held, rules) -> tuple[int, int, int, int, int]:
    """§3 written out directly: value, size, last rank, suit, direction (0 ANY, 1 ASC, 2 DESC)."""
    if not slots:
        return (0, 0, 0, -1, 0)
    value = 0
    for (rank, _suit), faces in slots:
        kings = sum(1 for face in faces if face[0] == 13)
        value += rank * 2 ** kings if rules.king_mode == "double" else rank * (1 + kings)
    (last_rank, printed), faces = slots[-1]
    queens = [face for face in faces if face[0] == 12]
    suit = queens[-1][1] if rules.queen_changes_suit and queens else printed
    if len(slots) < 2:
        return (value, 1, last_rank, suit, 0)
    previous = slots[-2][0][0]
    flip = rules.queen_changes_direction and len(queens) % 2 == 1
    if previous != last_rank:
        direction = 1 if last_rank > previous else 2
    elif rules.equal_rank_direction == "any":
        return (value, len(slots), last_rank, suit, 0)
    elif rules.equal_rank_direction == "keep_previous":
        return (value, len(slots), last_rank, suit, held if held is not None else 0)
    else:
        direction = 2
    if flip:
        direction = 3 - direction
    return (value, len(slots), last_rank, suit, direction)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(slots=st.lists(SLOT, max_size=6), held=st.sampled_from([None, 1, 2]))
def test_summary_follows_section_3(preset, slots, held):
    from cardtable.games.caravan.board import summarize
    from cardtable.games.caravan.cards import make
    from cardtable.games.caravan.rules import PRESETS
    rules = PRESETS[preset]
    caravan = tuple((make(rank, suit), tuple(make(r, s) for r, s in faces))
                    for (rank, suit), faces in slots)
    assert summarize(caravan, held, rules) == spec_summary(slots, held, rules)


SOLD = st.tuples(st.integers(15, 30), st.integers(0, 8)).map(lambda t: (t[0], t[0] + t[1]))


@settings(max_examples=1500, deadline=None, derandomize=True, database=None)
@given(abc=st.integers(0, 40), def_=st.integers(0, 40), abc_range=SOLD, def_range=SOLD)
def test_lane_result_follows_section_6_6(abc, def_, abc_range, def_range):
    from dataclasses import replace

    from cardtable.games.caravan.board import lane_taker
    from cardtable.games.caravan.rules import POWER
    abc_rules = replace(POWER, sold_min=abc_range[0], sold_max=abc_range[1])
    def_rules = replace(POWER, sold_min=def_range[0], sold_max=def_range[1])

    def takes(mine, theirs, lo, hi):
        return lo <= mine <= hi and (theirs < mine or theirs > hi)

    abc_takes = takes(abc, def_, *abc_range)
    def_takes = takes(def_, abc, *def_range)
    if abc_takes and def_takes:
        expected = 0 if abc > def_ else 1
    else:
        expected = 0 if abc_takes else 1 if def_takes else None
    assert lane_taker(abc, def_, abc_rules, def_rules) == expected


# --------------------------------------------------------- games under rule overrides

OVERRIDES = {
    "max_numerals": [None, 1, 2, 3, 8], "max_faces": [None, 1, 2],
    "jack_respects_face_cap": [True, False], "queen_placement": ["last", "any"],
    "queen_changes_suit": [True, False], "queen_changes_direction": [True, False],
    "king_mode": ["double", "add"], "joker_target_survives": [True, False],
    "joker_ace_mode": ["suit", "rank"], "joker_ace_suit_test": ["printed", "effective"],
    "equal_rank_direction": ["desc", "keep_previous", "any"],
    "faces_on_opponent": [True, False], "face_must_match_suit": [True, False],
    "clear_policy": ["clear", "destroy_restart", "disabled"],
    "require_all_caravans": [True, False], "mulligan": ["rebuild", "reshuffle", "discard", "none"],
    "hand_size": [1, 2, 5, 8], "draw_mode": ["one", "refill"],
    "deck_exhaustion": ["shrink", "reshuffle_discards"], "sold_min": [10, 21],
}
SEAT_OVERRIDES = st.fixed_dictionaries(
    {}, optional={name: st.sampled_from(values) for name, values in OVERRIDES.items()})


@settings(max_examples=count(60, 120), deadline=None, derandomize=True, database=None)
@given(preset=st.sampled_from(PRESET_NAMES), abc=SEAT_OVERRIDES, def_=SEAT_OVERRIDES,
       seed=st.integers(0, 2**32))
def test_games_under_overrides_keep_every_invariant(preset, abc, def_, seed):
    # Per-seat overrides (karavane-style) reach states the presets never do: tiny caps,
    # one-card hands, faces that must match suits. Such games need not end (clearing can
    # be disabled), so each one is played for a bounded number of plies.
    from dataclasses import replace

    from cardtable.games.caravan.rules import PRESETS
    base = PRESETS[preset]
    rules = SeatRules(replace(base, **abc), replace(base, **def_))
    game = CaravanState.new(rules, seed=seed)
    initial = Counter([*game.initial_decks[0], *game.initial_decks[1]])
    bots = [make_bot("random", 0, seed), make_bot("normal", 1, seed)]
    rng = random.Random(seed)
    while game.result is None and game.plies < 400:
        check_conservation(game, initial)
        code = bots[game.turn].choose_code(game.observation(game.turn))
        if game.plies % 6 == 0:
            check_moves(game)
            check_observations(game, rng)
        game.apply_code(code)
    check_conservation(game, initial)
    if game.result is not None:
        assert game.legal_codes() == []
        assert game.result.reason in ("lanes", "out_of_cards", "no_legal_move", "draw")
