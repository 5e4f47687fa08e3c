"""The compiled core (``_core.c``) against the Python engine, its reference.

Random games under every preset and under random per-seat rule overrides are played in
both engines side by side. At every step the legal lists must be equal (same canonical
order), every sampled code must get the same verdict and the same refusal message, and
applying the same move must leave equal states and equal results. The core reshuffles
discard piles with its own generator, so after a reshuffle the decks (and the cards drawn
from them) are compared as multisets and the core is re-imported from the Python game.

Without the built core these tests are skipped, except under CI, where they must run.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace
from types import SimpleNamespace
from unittest.mock import patch

import pytest
from helpers import PRESET_NAMES, cards, move, position
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import OVERRIDES, all_cards, candidates

from cardtable.games.caravan import deck, fast
from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.errors import DeckError, IllegalMove
from cardtable.games.caravan.legality import move_error
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, pack
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.state import CaravanState

needs_core = pytest.mark.skipif(
    not fast.available() and not os.environ.get("CI"),
    reason="the compiled core is not built (or CARDTABLE_PURE=1); under CI it must be",
)

# Per-seat overrides of test_properties, plus Jacks acting as Jokers in Joker-free decks.
SEAT_FIELDS = {**OVERRIDES, "jokers_per_sample": [0, 2],
               "jack_is_joker_without_jokers": [True, False]}
SEAT_OVERRIDES = st.fixed_dictionaries(
    {}, optional={name: st.sampled_from(values) for name, values in SEAT_FIELDS.items()})
# Fields both seats must share.
SHARED_OVERRIDES = st.fixed_dictionaries({}, optional={
    "opening_mode": st.sampled_from(["alternate", "simultaneous", "none"]),
    "out_of_cards": st.sampled_from(["after_lanes", "before_lanes"]),
})

# Codes no canonical move has: kind 3, caravans 6 and 7, hand positions and slots far out
# of range, and codes too large for 64 bits (their low fields still count, as in Python).
ODD_CODES = [
    3, pack(PLAY, 0, 1) | 3, pack(PLAY, 6, 1), pack(DISCARD, 7, 1), pack(CLEAR, 6),
    pack(PLAY, 0, 0xFFFF), pack(DISCARD, 0, 0xFFFF), pack(PLAY, 3, 1, 2**40),
    pack(PLAY, 0, 1, 2**42), 1 << 70 | pack(PLAY, 0, 1), 1 << 70 | pack(DISCARD, 0, 2),
    pack(DISCARD, 4, 1, 9), pack(CLEAR, 0, 1, 5), pack(CLEAR, 2, 0xFFFF),
]


def new_rules(preset: str, abc: dict[str, object], def_: dict[str, object],
              shared: dict[str, object]) -> SeatRules:
    base = PRESETS[preset]
    seats = []
    for overrides in (abc, def_):
        rules = replace(base, **overrides, **shared)
        if rules.jokers_per_sample == 0:
            # One Joker-free sample deck holds 52 cards.
            rules = replace(rules, deck_size=52, samples=1)
        seats.append(rules)
    return SeatRules(*seats)


def check_same_verdicts(game: CaravanState, state: object, rng: random.Random) -> None:
    table = game.table()
    codes = candidates(game)
    sample = rng.sample(codes, min(len(codes), 30)) + ODD_CODES
    for code in sample:
        error = move_error(table, code)
        assert state.error(code) == error, code  # type: ignore[attr-defined]
        assert state.is_legal(code) is (error is None), code  # type: ignore[attr-defined]


def check_refusal(game: CaravanState, state: object) -> None:
    """An illegal code raises IllegalMove with Python's message and changes nothing."""
    before = state.export()  # type: ignore[attr-defined]
    table = game.table()
    for code in candidates(game):
        error = move_error(table, code)
        if error is not None:
            with pytest.raises(IllegalMove) as caught:
                state.apply(code)  # type: ignore[attr-defined]
            assert caught.value.message == error
            assert state.export() == before  # type: ignore[attr-defined]
            return


def check_same_after_move(game: CaravanState, state: object, shuffled: bool) -> None:
    core = state.export()  # type: ignore[attr-defined]
    python = fast.export_game(game)
    if not shuffled:
        assert core == python
        return
    # Hands and decks: same sizes and, per seat, the same cards between the two.
    assert core[:4] == python[:4]
    assert core[6:] == python[6:]
    for seat in (0, 1):
        assert len(core[4][seat]) == len(python[4][seat])
        assert len(core[5][seat]) == len(python[5][seat])
        assert Counter(core[4][seat] + core[5][seat]) == Counter(python[4][seat] +
                                                                 python[5][seat])


def check_clone(state: object, rng: random.Random) -> None:
    before = state.export()  # type: ignore[attr-defined]
    twin = state.clone()  # type: ignore[attr-defined]
    assert twin.export() == before
    twin.playout(rng.randrange(2**32), limit=5)
    assert state.export() == before  # type: ignore[attr-defined]


def play_both(rules: SeatRules, seed: int, opponent: str, ply_limit: int) -> int:
    """Play one game in both engines; returns the number of steps compared."""
    game = CaravanState.new(rules, seed=seed)
    state = fast.from_game(game, seed)
    assert state.export() == fast.export_game(game)
    rng = random.Random(seed)
    bot = make_bot(opponent, 1, seed)
    steps = 0
    while game.result is None and game.plies < ply_limit:
        legal = game.legal_codes()
        assert state.legal_codes() == legal
        assert state.count_legal() == len(legal)
        check_same_verdicts(game, state, rng)
        if steps % 7 == 0:
            check_refusal(game, state)
            check_clone(state, rng)
        if game.turn == 1 and opponent != "random":
            code = bot.choose_code(game.observation(1))
        else:
            code = legal[rng.randrange(len(legal))]
        event = game.apply_code(code)
        state.apply(code)
        check_same_after_move(game, state, bool(event.shuffles))
        if event.shuffles:
            state = fast.from_game(game, seed + game.plies)
        assert state.result == fast.export_game(game)[-1]
        steps += 1
    if game.result is not None:
        assert state.legal_codes() == []
        assert state.count_legal() == 0
        assert not state.is_legal(pack(DISCARD, 0, 1))
        assert state.error(pack(DISCARD, 0, 1)) == "The game has already been won."
        with pytest.raises(IllegalMove, match="already been won"):
            state.apply(pack(DISCARD, 0, 1))
    return steps


@needs_core
@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32), opponent=st.sampled_from(["random", "normal"]))
def test_core_plays_every_preset_like_python(preset, seed, opponent):
    play_both(SeatRules.preset(preset), seed, opponent, ply_limit=400)


@needs_core
@settings(max_examples=120, deadline=None, derandomize=True, database=None)
@given(preset=st.sampled_from(PRESET_NAMES), abc=SEAT_OVERRIDES, def_=SEAT_OVERRIDES,
       shared=SHARED_OVERRIDES, seed=st.integers(0, 2**32),
       opponent=st.sampled_from(["random", "normal"]))
def test_core_plays_per_seat_overrides_like_python(preset, abc, def_, shared, seed, opponent):
    play_both(new_rules(preset, abc, def_, shared), seed, opponent, ply_limit=150)


@needs_core
@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32),
       start=st.integers(0, 60))
def test_playout_ends_and_conserves_every_card(preset, seed, start):
    game = CaravanState.new(SeatRules.preset(preset), seed=seed)
    initial = Counter(all_cards(game))
    fast.python_playout(game, random.Random(seed), limit=start)
    state = fast.from_game(game, seed)
    before = state.export()
    played = state.playout(seed)
    assert state.result is not None
    assert state.result[1] in ("lanes", "out_of_cards")
    assert state.plies == game.plies + played
    caravans, _, _, _, hands, decks, piles = state.export()[:7]
    cards = [card for caravan in caravans for numeral, faces in caravan
             for card in (numeral, *faces)]
    cards += [card for lists in (hands, decks, piles) for each in lists for card in each]
    assert Counter(cards) == initial
    # The same seed plays the same game; the position it started from is untouched.
    again = fast.from_game(game, seed)
    assert again.export() == before
    assert again.playout(seed) == played
    assert again.export() == state.export()


@needs_core
@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(preset=st.sampled_from(PRESET_NAMES), abc=SEAT_OVERRIDES, def_=SEAT_OVERRIDES,
       shared=SHARED_OVERRIDES, seed=st.integers(0, 2**32))
def test_playout_under_overrides_conserves_every_card(preset, abc, def_, shared, seed):
    # Some overrides never force an end (clearing disabled, discards reshuffled), so the
    # playout is bounded; it must stop at the limit or at a proper result.
    game = CaravanState.new(new_rules(preset, abc, def_, shared), seed=seed)
    initial = Counter(all_cards(game))
    state = fast.from_game(game, seed)
    played = state.playout(seed, limit=5000)
    assert played == 5000 or state.result is not None or state.count_legal() == 0
    caravans, _, _, _, hands, decks, piles = state.export()[:7]
    cards = [card for caravan in caravans for numeral, faces in caravan
             for card in (numeral, *faces)]
    cards += [card for lists in (hands, decks, piles) for each in lists for card in each]
    assert Counter(cards) == initial


@settings(max_examples=12, deadline=None, derandomize=True, database=None)
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32))
def test_python_playout_ends_and_conserves_every_card(preset, seed):
    # The pure Python twin of State.playout (the benchmark's fallback). Random foxon games
    # run for thousands of moves in Python, so they are cut short.
    game = CaravanState.new(SeatRules.preset(preset), seed=seed)
    initial = Counter(all_cards(game))
    limit = 300 if preset == "foxon" else -1
    played = fast.python_playout(game, random.Random(seed), limit)
    assert game.plies == played
    assert game.result is not None or played == limit
    assert Counter(all_cards(game)) == initial


# ------------------------------------------------------------------ the compiled deal

# Deck-building fields on top of the play overrides: every sampling, random deck sizes,
# several sample decks, opening hands of other sizes (a reshuffle mulligan needs three
# cards to end).
DEAL_FIELDS = {**SEAT_FIELDS, "sampling": ["balanced", "imbalanced", "pooled"],
               "deck_size": [None, 30, 54, 100], "samples": [None, 1, 2, 3],
               "opening_hand_size": [None, 3, 4, 9]}
DEAL_SEEDS = st.one_of(st.integers(0, 2**32), st.integers(-(2**70), 2**70))
"""Seeds for both dealers: 32-bit ones and far larger ones, negative ones included."""
DEAL_OVERRIDES = st.fixed_dictionaries(
    {}, optional={name: st.sampled_from(values) for name, values in DEAL_FIELDS.items()})


def python_dealt(rules: SeatRules, seed: int, first: str = "ABC") -> CaravanState:
    """``Game.new`` with both random decks built in Python (``deck.build_random_deck``), the
    reference dealer, whether or not the core is built."""
    with patch.object(deck, "compiled_random_decks", return_value=None):
        return CaravanState.new(rules, seed=seed, first=first)


def dealable(rules: SeatRules) -> bool:
    """Whether ``Game.new`` can build both random decks (else both dealers refuse)."""
    try:
        CaravanState.new(rules, seed=0)
    except DeckError:
        return False
    return True


@needs_core
@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("first", ["ABC", "DEF"])
@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(seed=DEAL_SEEDS)
def test_compiled_deal_is_the_python_deal(preset, first, seed):
    rules = SeatRules.preset(preset)
    state = fast.new_state(rules, seed, first)
    assert state.export() == fast.export_game(python_dealt(rules, seed, first))


@needs_core
@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(preset=st.sampled_from(PRESET_NAMES), abc=DEAL_OVERRIDES, def_=DEAL_OVERRIDES,
       shared=SHARED_OVERRIDES, seed=st.integers(0, 2**64))
def test_compiled_deal_is_the_python_deal_under_overrides(preset, abc, def_, shared, seed):
    base = PRESETS[preset]
    rules = SeatRules(replace(base, **abc, **shared), replace(base, **def_, **shared))
    if not dealable(rules):
        with pytest.raises(DeckError):
            fast.new_state(rules, seed)
        return
    game = python_dealt(rules, seed)
    state = fast.new_state(rules, seed)
    assert state.export() == fast.export_game(game)
    # Both dealers leave the game in the same place: the same moves stay legal.
    assert state.legal_codes() == game.legal_codes()


def same_game(game: CaravanState, other: CaravanState) -> None:
    """Everything two Python games hold is equal, their generators' states included."""
    assert fast.export_game(game) == fast.export_game(other)
    assert tuple(game.history) == tuple(other.history)
    assert (game.initial_decks, game.mulligans, game.jack_as_joker, game.seed, game.first) == (
        other.initial_decks, other.mulligans, other.jack_as_joker, other.seed, other.first)
    assert game.rng.state_text(game.seed) == other.rng.state_text(other.seed)  # type: ignore[attr-defined]


@needs_core
@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("first", ["ABC", "DEF"])
@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(seed=DEAL_SEEDS)
def test_game_new_deals_the_same_game_with_either_dealer(preset, first, seed):
    rules = SeatRules.preset(preset)
    game = CaravanState.new(rules, seed=seed, first=first)
    same_game(game, python_dealt(rules, seed, first))


@needs_core
@settings(max_examples=120, deadline=None, derandomize=True, database=None)
@given(preset=st.sampled_from(PRESET_NAMES), abc=DEAL_OVERRIDES, def_=DEAL_OVERRIDES,
       shared=SHARED_OVERRIDES, seed=st.integers(0, 2**64))
def test_game_new_deals_the_same_game_with_either_dealer_under_overrides(
        preset, abc, def_, shared, seed):
    base = PRESETS[preset]
    rules = SeatRules(replace(base, **abc, **shared), replace(base, **def_, **shared))
    if not dealable(rules):
        with pytest.raises(DeckError):
            python_dealt(rules, seed)
        return
    game, reference = CaravanState.new(rules, seed=seed), python_dealt(rules, seed)
    same_game(game, reference)
    # The generators go on alike: the same reshuffles in play.
    for played in (game, reference):
        fast.python_playout(played, random.Random(seed), limit=400)
    same_game(game, reference)


@needs_core
def test_game_new_builds_decks_beyond_the_cores_limits_in_python():
    # Four Jokers per sample deck: more than the core takes.
    rules = SeatRules.both(replace(PRESETS["power"], jokers_per_sample=4))
    assert deck.compiled_random_decks(rules, 3) is None
    same_game(CaravanState.new(rules, seed=3), python_dealt(rules, 3))


@needs_core
@pytest.mark.parametrize("rules", [
    SeatRules.preset("power"),
    # Hands of 40 cards: more moves than pick_legal lists on its stack.
    SeatRules.both(replace(PRESETS["foxon"], hand_size=40)),
], ids=["power", "foxon-hands-of-40"])
def test_the_random_bots_pick_is_randranges(rules):
    beyond_the_stack = 0
    for seed in range(40):
        game = CaravanState.new(rules, seed=seed)
        fast.python_playout(game, random.Random(seed), limit=10 + 3 * seed)  # past the Start round
        if game.result is not None:
            continue
        observation = game.observation(game.turn)
        table = observation.compiled_table()
        assert table is not None
        slots = sum(summary[1] for summary in observation.summaries)
        beyond_the_stack += len(observation.hand) * (slots + 7) + 3 > 512
        picker, reference = random.Random(seed), random.Random(seed)
        for _ in range(20):
            expected = table.nth_legal(reference.randrange(table.count_legal()))
            assert table.pick_legal(picker.getrandbits) == expected
        assert picker.getstate() == reference.getstate()
    assert beyond_the_stack or rules.abc.hand_size < 40
    over = fast.new_state(SeatRules.preset("power"), 1)
    over.playout(1)
    with pytest.raises(ValueError, match="no legal move"):
        over.pick_legal(random.Random(0).getrandbits)


@needs_core
def test_compiled_deal_seeds_the_core_like_an_import():
    rules = SeatRules.preset("foxon")
    dealt = fast.new_state(rules, 11)
    imported = fast.from_game(CaravanState.new(rules, seed=11), 11)
    assert dealt.playout(limit=2000) == imported.playout(limit=2000)
    assert dealt.export() == imported.export()


@needs_core
def test_compiled_deal_refuses_what_game_new_refuses():
    rules = SeatRules.both(replace(PRESETS["power"], deck_size=100))
    with pytest.raises(DeckError, match="insufficient cards"):
        CaravanState.new(rules, seed=1)
    with pytest.raises(DeckError, match="insufficient cards"):
        fast.new_state(rules, 1)
    with pytest.raises(TypeError, match="seed must be an int"):
        fast.new_state(SeatRules.preset("power"), "7")  # type: ignore[arg-type]


@needs_core
@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(preset=st.sampled_from(PRESET_NAMES), abc=SEAT_OVERRIDES, def_=SEAT_OVERRIDES,
       seed=st.integers(0, 2**32), moves=st.integers(0, 80))
def test_nth_legal_picks_from_the_canonical_list(preset, abc, def_, seed, moves):
    state = fast.new_state(new_rules(preset, abc, def_, {}), seed)
    state.playout(seed, limit=moves)
    legal = state.legal_codes()
    assert state.count_legal() == len(legal)
    assert [state.nth_legal(index) for index in range(len(legal))] == legal
    with pytest.raises(IndexError):
        state.nth_legal(len(legal))


# ------------------------------------------------------------------ hand-made positions


@needs_core
def test_core_imports_a_hand_made_position_with_held_directions():
    game = position("nv", {"C": "2C 7C 7C", "E": "6S 9D+QH"}, abc="5D 9H QS", def_="3C",
                    held={"C": 1})
    state = fast.from_game(game)
    assert state.export() == fast.export_game(game)
    assert state.legal_codes() == game.legal_codes()


# (rules, position, move): rule paths that random games reach rarely, played in both engines.
POSITIONS = [
    # The seat to move next has no numeral for its Start round: no_legal_move.
    ("power", {"board": {"A": "2H", "B": "3H"}, "abc": "5H 6H", "def_": "QS KS",
               "placed": (2, 0)}, "P1C"),
    ("power", {"board": {"A": "2H", "B": "3H"}, "abc": "5H JS", "def_": "QS KS",
               "placed": (2, 0), "decks": ([], [])}, "P1C"),
    # Both hands empty without a lane win: a draw.
    ("power", {"board": {"A": "10H"}, "abc": "5H", "def_": ""}, "D1"),
    # The last card wins two lanes: a lane win after_lanes, out of cards before_lanes.
    ("power", {"board": {"A": "10H 10S", "B": "10D 10C 2S", "D": "5S", "F": "10D 10H 5C"},
               "abc": "AH", "def_": "2C"}, "P1A"),
    ("karavane", {"board": {"A": "10H 10S", "B": "10D 10C 2S", "D": "5S",
                            "F": "10D 10H 5C"}, "abc": "AH", "def_": "2C"}, "P1A"),
    # E4: a Jack leaves two equal ranks; nv keeps the previous direction in `held`.
    ("nv", {"board": {"C": "2C 7C 4C 7C"}, "abc": "9D", "def_": "JS", "turn": "DEF"},
     "P1C3"),
    ("power", {"board": {"C": "2C 7C 4C 7C"}, "abc": "9D", "def_": "JS", "turn": "DEF"},
     "P1C3"),
    # A Queen on the last slot flips a held direction.
    ("nv", {"board": {"C": "2C 7C 7C"}, "abc": "QD", "def_": "5S", "held": {"C": 1}},
     "P1C3"),
    # E5: a Joker on an Ace, printed and effective suits, and foxon's removed target.
    ("power", {"board": {"A": "AD 5C", "B": "6H 9D", "D": "3D 8S+QD", "E": "10D+QC",
                         "F": "AS 4H"}, "abc": "JO", "def_": "2C"}, "P1A1"),
    ("karavane", {"board": {"A": "AD 5C", "B": "6H 9D", "D": "3D 8S+QD", "E": "10D+QC",
                            "F": "AS 4H"}, "abc": "JO", "def_": "2C"}, "P1A1"),
    ("foxon", {"board": {"A": "AD 5C", "B": "6H 9D", "D": "3D 8S+QD", "E": "10D+QC",
                         "F": "AS 4H"}, "abc": "JO", "def_": "2C"}, "P1A1"),
    # A Jack acting as a Joker (foxon without Jokers).
    ("foxon", {"board": {"A": "3H 8D", "D": "8S 2C", "E": "8H"}, "def_": "JC", "abc": "2S",
               "turn": "DEF", "jokerless": (False, True)}, "P1D1"),
    # E8: destroy and restart, then refill from a reshuffled pile.
    ("foxon", {"board": {"B": "9S 10S+KS"}, "abc": "QH 5D 6C 3H", "def_": "2C"}, "CB4"),
    # A discard mulligan during an alternate opening draws one replacement.
    (SeatRules.both(replace(PRESETS["power"], mulligan="discard")),
     {"board": {"A": "2H"}, "abc": "QS KS JS", "def_": "5C", "placed": (1, 0),
      "decks": (cards("4H"), [])}, "D2"),
]


@needs_core
@pytest.mark.parametrize(("rules", "where", "text"), POSITIONS)
def test_core_resolves_rare_positions_like_python(rules, where, text):
    game = position(rules, **where)
    state = fast.from_game(game)
    assert state.export() == fast.export_game(game)
    assert state.legal_codes() == game.legal_codes()
    code = move(game, text).code
    assert state.error(code) == move_error(game.table(), code)
    event = game.apply_code(code)
    state.apply(code)
    check_same_after_move(game, state, bool(event.shuffles))


@needs_core
def test_clone_is_independent_of_the_original():
    game = CaravanState.new(SeatRules.preset("power"), seed=5)
    state = fast.from_game(game, 5)
    state.playout(5, limit=20)
    before = state.export()
    twin = state.clone()
    twin.playout(9)
    assert twin.result is not None
    assert state.export() == before
    assert state.result is None


# ------------------------------------------------------------------ bad input


@needs_core
def test_bad_move_codes_are_refused_with_clear_errors():
    state = fast.from_game(CaravanState.new(SeatRules.preset("power"), seed=1))
    with pytest.raises(TypeError, match="move code must be an int"):
        state.is_legal("P1A")
    with pytest.raises(TypeError, match="move code must be an int"):
        state.apply(True)
    with pytest.raises(ValueError, match="must not be negative"):
        state.apply(-1)
    with pytest.raises(ValueError, match="must not be negative"):
        state.error(-(2**80))


def game_like(game: CaravanState, **changes: object) -> SimpleNamespace:
    fields = {name: getattr(game, name) for name in (
        "rules", "caravans", "held", "hands", "decks", "piles", "placed", "moves_made",
        "turn", "plies", "jack_as_joker", "result")}
    fields.update(changes)
    return SimpleNamespace(**fields)


@needs_core
@pytest.mark.parametrize(("changes", "error", "text"), [
    ({"hands": [[0], []]}, ValueError, "hand card"),
    ({"hands": [[15], []]}, ValueError, "not a card"),
    ({"decks": [[1 << 40], []]}, ValueError, "deck card"),
    ({"piles": [["7S"], []]}, TypeError, "pile card must be an int"),
    ({"hands": 5}, TypeError, "game.hands must be a sequence"),
    ({"decks": [[]]}, ValueError, "game.decks must have 2 items"),
    ({"caravans": [()] * 5}, ValueError, "game.caravans must have 6 items"),
    ({"caravans": [((13, ()),), (), (), (), (), ()]}, ValueError, "face card as its numeral"),
    ({"caravans": [((7, (3,)),), (), (), (), (), ()]}, ValueError, "numeral among its faces"),
    ({"caravans": [(7,), (), (), (), (), ()]}, TypeError, "slot must be a"),
    ({"held": [None] * 5 + [3]}, ValueError, "game.held item"),
    ({"turn": 2}, ValueError, "game.turn"),
    ({"plies": -1}, ValueError, "game.plies"),
    ({"result": SimpleNamespace(winners=("XYZ",), reason="lanes")}, ValueError, "not a seat"),
    ({"result": SimpleNamespace(winners=(), reason="bored")}, ValueError, "known reason"),
])
def test_bad_games_are_refused_with_clear_errors(changes, error, text):
    game = CaravanState.new(SeatRules.preset("power"), seed=3)
    with pytest.raises(error, match=text):
        fast.from_game(game_like(game, **changes))  # type: ignore[arg-type]


@needs_core
@pytest.mark.parametrize(("field", "value", "error", "text"), [
    ("king_mode", "triple", ValueError, "king_mode"),
    ("max_faces", -1, ValueError, "max_faces"),
    ("max_numerals", "8", TypeError, "max_numerals"),
    ("faces_on_opponent", 1, TypeError, "faces_on_opponent"),
    ("clear_policy", None, TypeError, "clear_policy"),
])
def test_bad_rules_are_refused_with_clear_errors(field, value, error, text):
    game = CaravanState.new(SeatRules.preset("power"), seed=3)
    bad = SimpleNamespace(**{name: getattr(game.rules[1], name)
                             for name in type(game.rules[1]).__dataclass_fields__})
    setattr(bad, field, value)
    with pytest.raises(error, match=text):
        fast.from_game(game_like(game, rules=(game.rules[0], bad)))  # type: ignore[arg-type]


@needs_core
def test_a_state_is_only_made_from_a_game():
    state = fast.from_game(CaravanState.new(SeatRules.preset("power"), seed=3))
    with pytest.raises(TypeError):
        type(state)()
