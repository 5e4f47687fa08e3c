"""Deck building (§6.1), startup deck checks (§8) and custom deck files (§6.2)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.engine.randomness import GameRandom
from cardtable.games.caravan.cards import (
    JOKER,
    code,
    copy_of,
    identity,
    is_numeral,
    make,
    owner_of,
    parse_code,
    rank_of,
    sample_deck,
    sample_of,
)
from cardtable.games.caravan.deck import (
    build_random_deck,
    check_deck_size,
    check_samples,
    check_supply,
    jokerless_by_construction,
    read_deck_file,
    resolved_samples,
    shuffle_file_deck,
)
from cardtable.games.caravan.errors import DeckError
from cardtable.games.caravan.rules import FOXON, KARAVANE, NV, POWER, Rules, SeatRules

INSUFFICIENT = "There are insufficient cards to sample for the caravan deck."


def both(rules: Rules) -> SeatRules:
    return SeatRules.both(rules)


def all_samples(owner: int, count: int) -> list[int]:
    return [card for tag in range(1, count + 1) for card in sample_deck(owner, tag, 2)]


def from_codes(codes: list[str], owner: int = 0) -> list[int]:
    """Cards for text codes, all tagged sample 1 (enough where identity does not matter)."""
    result = []
    for text in codes:
        parsed = parse_code(text)
        assert parsed is not None, text
        result.append(make(*parsed, owner=owner))
    return result


FACES = [f"{rank}{suit}" for rank in "JQK" for suit in "SHDC"]


def numerals(cards: list[int]) -> int:
    return sum(1 for card in cards if is_numeral(card))


# --- resolved sample count -------------------------------------------------------------


def test_resolved_samples() -> None:
    assert resolved_samples(POWER, POWER.deck_size) == 1
    assert resolved_samples(replace(POWER, samples=3), 30) == 3  # explicit wins
    assert resolved_samples(KARAVANE, None) == 2  # ⌈108 / 54⌉
    auto = replace(POWER, samples=None)
    assert resolved_samples(auto, 54) == 1
    assert resolved_samples(auto, 55) == 2
    assert resolved_samples(auto, 162) == 3
    assert resolved_samples(auto, None) == 3  # deck_max = 162
    assert resolved_samples(replace(auto, jokers_per_sample=0), 53) == 2  # 52 per sample
    assert resolved_samples(replace(auto, samples_min=2), 30) == 2  # raised to samples_min


# --- startup checks ----------------------------------------------------------------------


@pytest.mark.parametrize("rules", [POWER, NV, FOXON, KARAVANE])
def test_presets_pass_every_startup_check(rules: Rules) -> None:
    seats = both(rules)
    assert check_deck_size(seats) is None
    assert check_samples(seats) is None
    assert check_supply(seats) is None


@pytest.mark.parametrize("size", [29, 163, 0, -1])
def test_deck_size_out_of_bounds(size: int) -> None:
    assert check_deck_size(both(replace(POWER, deck_size=size))) == (
        "Caravan decks must have between 30 and 162 cards (inclusive)."
    )


def test_deck_size_bounds_are_inclusive() -> None:
    assert check_deck_size(both(replace(POWER, deck_size=30))) is None
    assert check_deck_size(both(replace(POWER, deck_size=162))) is None
    assert check_deck_size(both(replace(NV, deck_size=216))) is None


def test_deck_size_message_uses_the_seats_own_bounds() -> None:
    rules = SeatRules(replace(POWER, deck_size=20), replace(NV, deck_size=20))
    assert check_deck_size(rules) == (
        "ABC: Caravan decks must have between 30 and 162 cards (inclusive)."
    )


def test_deck_size_of_one_seat_is_prefixed() -> None:
    rules = SeatRules(POWER, replace(POWER, deck_size=200))
    assert check_deck_size(rules) == (
        "DEF: Caravan decks must have between 30 and 162 cards (inclusive)."
    )


def test_deck_size_failing_alike_in_differing_seats_is_not_prefixed() -> None:
    rules = SeatRules(replace(POWER, deck_size=10), replace(POWER, deck_size=10, max_faces=1))
    assert check_deck_size(rules) == (
        "Caravan decks must have between 30 and 162 cards (inclusive)."
    )


def test_seat_with_a_deck_file_is_not_checked() -> None:
    rules = SeatRules(replace(POWER, deck_size=10), POWER)
    assert check_deck_size(rules, seats=(1,)) is None
    assert check_deck_size(rules, seats=(0,)) is not None
    same = both(replace(POWER, deck_size=10))
    # Only one seat fails because only one is checked; the rules are shared, so no prefix.
    assert check_deck_size(same, seats=(1,)) == (
        "Caravan decks must have between 30 and 162 cards (inclusive)."
    )


def test_random_size_is_checked_with_deck_max() -> None:
    assert check_deck_size(both(KARAVANE)) is None
    # deck_size none with samples none: M = deck_max sizes the sample count.
    wide = replace(KARAVANE, deck_max=200)
    assert check_samples(both(wide)) == (
        "Number of caravan deck samples must be between 1 and 2 (inclusive)."
    )
    assert check_supply(both(replace(KARAVANE, samples=1))) == INSUFFICIENT


@pytest.mark.parametrize("samples", [0, 4, -2])
def test_samples_out_of_bounds(samples: int) -> None:
    assert check_samples(both(replace(POWER, samples=samples))) == (
        "Number of caravan deck samples must be between 1 and 3 (inclusive)."
    )
    assert check_samples(SeatRules(replace(POWER, samples=samples), POWER)) == (
        "ABC: Number of caravan deck samples must be between 1 and 3 (inclusive)."
    )


def test_samples_message_prints_min_and_max() -> None:
    rules = replace(POWER, samples=9, samples_min=2, samples_max=5)
    assert check_samples(both(rules)) == (
        "Number of caravan deck samples must be between 2 and 5 (inclusive)."
    )


def test_supply() -> None:
    assert check_supply(both(replace(POWER, deck_size=60, samples=1))) == INSUFFICIENT
    assert check_supply(both(replace(POWER, deck_size=60, samples=2))) is None
    assert check_supply(both(replace(POWER, deck_size=54, samples=1))) is None
    no_jokers = replace(POWER, deck_size=53, samples=1, jokers_per_sample=0)
    assert check_supply(both(no_jokers)) == INSUFFICIENT
    assert check_supply(SeatRules(POWER, no_jokers)) == "DEF: " + INSUFFICIENT
    assert check_supply(SeatRules(POWER, no_jokers), seats=(0,)) is None


# --- random decks --------------------------------------------------------------------------


def test_power_deck_is_one_shuffled_sample_deck() -> None:
    deck = build_random_deck(POWER, 1, GameRandom(3))
    assert sorted(deck) == sorted(sample_deck(1, 1, 2))
    assert deck != sample_deck(1, 1, 2)
    assert all(owner_of(card) == 1 for card in deck)


def test_owner_tags_every_card() -> None:
    assert {owner_of(card) for card in build_random_deck(NV, 0, GameRandom(3))} == {0}


def test_balanced_deck_is_round_robin_over_samples() -> None:
    rules = replace(POWER, deck_size=100, samples=3)
    deck = build_random_deck(rules, 0, GameRandom(11))
    assert len(deck) == 100
    # Cards in the order taken: sample 1, 2, 3, 1, 2, 3 ...; the last taken is the top.
    assert [sample_of(card) for card in deck] == [i % 3 + 1 for i in range(100)]
    assert len(set(deck)) == 100  # no physical card twice
    for card in deck:
        assert copy_of(card) in (1, 2)


def test_balanced_full_supply_uses_every_card() -> None:
    rules = replace(POWER, deck_size=162, samples=3)
    deck = build_random_deck(rules, 0, GameRandom(5))
    assert sorted(deck) == sorted(all_samples(0, 3))


def test_balanced_takes_from_the_top_of_each_sample() -> None:
    """The first cards taken are the top (last) cards of the samples shuffled in order 1..S."""
    # No opening and no mulligan: nothing can trigger a rebuild, so one pass is the deck.
    rules = replace(
        POWER, deck_size=6, deck_min=3, samples=2, opening_mode="none", mulligan="none"
    )
    deck = build_random_deck(rules, 0, GameRandom(21))
    rng = GameRandom(21)
    first, second = sample_deck(0, 1, 2), sample_deck(0, 2, 2)
    rng.shuffle(first)
    rng.shuffle(second)
    assert deck == [first[-1], second[-1], first[-2], second[-2], first[-3], second[-3]]


def test_imbalanced_deck_draws_unevenly_from_samples() -> None:
    rules = replace(POWER, deck_size=120, samples=3, sampling="imbalanced")
    deck = build_random_deck(rules, 0, GameRandom(8))
    assert len(deck) == 120 and len(set(deck)) == 120
    tags = [sample_of(card) for card in deck]
    assert set(tags) == {1, 2, 3}
    assert tags != [i % 3 + 1 for i in range(120)]
    assert all(count <= 54 for count in Counter(tags).values())


def test_imbalanced_deck_can_exhaust_samples() -> None:
    """With N = S × 54 every card of every sample is taken: emptied samples are skipped."""
    rules = replace(POWER, deck_size=162, samples=3, sampling="imbalanced")
    deck = build_random_deck(rules, 1, GameRandom(2))
    assert sorted(deck) == sorted(all_samples(1, 3))


def test_pooled_karavane_deck() -> None:
    sizes = set()
    for seed in range(40):
        deck = build_random_deck(KARAVANE, 0, GameRandom(seed))
        assert 30 <= len(deck) <= 108
        assert len(set(deck)) == len(deck)
        assert {sample_of(card) for card in deck} <= {1, 2}
        sizes.add(len(deck))
    assert len(sizes) > 10  # the size really is drawn


def test_pooled_full_supply_mixes_samples() -> None:
    rules = replace(KARAVANE, deck_size=108)
    deck = build_random_deck(rules, 0, GameRandom(4))
    assert sorted(deck) == sorted(all_samples(0, 2))
    tags = [sample_of(card) for card in deck]
    assert tags != sorted(tags)


def test_random_size_is_the_first_draw() -> None:
    for seed in range(10):
        expected = GameRandom(seed).randint(30, 108)
        assert len(build_random_deck(KARAVANE, 0, GameRandom(seed))) == expected


@pytest.mark.parametrize(
    "rules",
    [POWER, NV, FOXON, KARAVANE, replace(POWER, deck_size=90, samples=2, sampling="imbalanced")],
)
def test_same_seed_same_deck(rules: Rules) -> None:
    first = build_random_deck(rules, 0, GameRandom(99))
    assert build_random_deck(rules, 0, GameRandom(99)) == first
    assert build_random_deck(rules, 0, GameRandom(98)) != first


def test_no_jokers() -> None:
    deck = build_random_deck(replace(POWER, deck_size=52, jokers_per_sample=0), 0, GameRandom(1))
    assert all(rank_of(card) != JOKER for card in deck)
    assert len(deck) == 52


def small_hand(rules: Rules) -> Rules:
    """Opening hands of 3 cards make the rebuild rule bite: three random cards from a
    sample deck are all numerals only about 40% of the time."""
    return replace(rules, deck_min=3, opening_hand_size=3)


@settings(max_examples=150)
@given(seed=st.integers(0, 2**32), sampling=st.sampled_from(["balanced", "imbalanced", "pooled"]))
def test_rebuild_guarantees_three_numerals_in_the_opening_hand(seed: int, sampling: str) -> None:
    rules = replace(small_hand(POWER), sampling=sampling, samples=2, deck_size=60)
    deck = build_random_deck(rules, 0, GameRandom(seed))
    assert numerals(deck[-3:]) == 3  # the top three cards, dealt first


@given(seed=st.integers(0, 2**32))
def test_rebuild_with_the_default_hand(seed: int) -> None:
    deck = build_random_deck(POWER, 0, GameRandom(seed))
    assert numerals(deck[-8:]) >= 3


def test_without_rebuild_opening_hands_may_lack_numerals() -> None:
    """The counterpart of the rebuild test: the guarantee comes from rebuilding."""
    rules = replace(small_hand(POWER), mulligan="reshuffle")
    hands = [build_random_deck(rules, 0, GameRandom(seed))[-3:] for seed in range(30)]
    assert any(numerals(hand) < 3 for hand in hands)


def test_other_policies_rebuild_a_deck_with_fewer_than_three_numerals() -> None:
    tiny = replace(small_hand(POWER), mulligan="reshuffle", deck_size=3)
    for seed in range(30):
        assert numerals(build_random_deck(tiny, 0, GameRandom(seed))) == 3
    # Without an opening there is nothing to guarantee.
    free = replace(tiny, opening_mode="none", mulligan="none")
    decks = [build_random_deck(free, 0, GameRandom(seed)) for seed in range(30)]
    assert any(numerals(deck) < 3 for deck in decks)


def test_rebuild_with_a_hand_smaller_than_three_ends() -> None:
    rules = replace(POWER, opening_mode="none", deck_size=30, opening_hand_size=2)
    for seed in range(20):
        assert numerals(build_random_deck(rules, 0, GameRandom(seed))[-2:]) == 2


@pytest.mark.parametrize(
    "rules, expected",
    [
        (
            replace(POWER, deck_size=20),
            "A caravan deck must have between 30 and 162 cards (inclusive).",
        ),
        (
            replace(POWER, samples=5),
            "A caravan deck must sample from between 1 and 3 standard card decks (inclusive).",
        ),
        (replace(POWER, deck_size=60), INSUFFICIENT),
    ],
)
def test_builder_errors_use_library_wording(rules: Rules, expected: str) -> None:
    with pytest.raises(DeckError) as excinfo:
        build_random_deck(rules, 0, GameRandom(0))
    assert str(excinfo.value) == expected


def test_jokerless_by_construction() -> None:
    assert jokerless_by_construction(replace(FOXON, jokers_per_sample=0))
    assert not jokerless_by_construction(FOXON)
    # A random deck that happened to draw no Joker does not count.
    small = replace(FOXON, deck_size=30)
    decks = (build_random_deck(small, 0, GameRandom(seed)) for seed in range(200))
    deck = next(d for d in decks if all(rank_of(card) != JOKER for card in d))
    assert not jokerless_by_construction(small)
    # A deck file, on the other hand, is judged by what it lists, whatever the rules say.
    assert jokerless_by_construction(small, file_cards=deck)
    joker = sample_deck(0, 1, 1)[-1]
    assert not jokerless_by_construction(replace(FOXON, jokers_per_sample=0), [*deck, joker])


# --- deck files ----------------------------------------------------------------------------

FULL_DECK_LINES = [code(card) for card in sample_deck(0, 1, 2)]  # 52 cards and JO, JO


def write(tmp_path: Path, lines: list[str] | str, name: str = "deck.txt") -> str:
    path = tmp_path / name
    text = lines if isinstance(lines, str) else "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    return str(path)


def deck_error(path: str, rules: Rules = POWER) -> str:
    with pytest.raises(DeckError) as excinfo:
        read_deck_file(path, rules, 0)
    return str(excinfo.value)


def test_deck_file_in_file_order(tmp_path: Path) -> None:
    path = write(tmp_path, FULL_DECK_LINES)
    deck = read_deck_file(path, POWER, 1)
    assert deck == sample_deck(1, 1, 2)


def test_deck_file_syntax(tmp_path: Path) -> None:
    body = "\ufeff# my deck\r\n\r\n  10s  # ten of spades\r\nqh\r\nJo\r\n\t7D\r\n#\r\n" + "\n".join(
        FULL_DECK_LINES[:30]
    )
    deck = read_deck_file(write(tmp_path, body), POWER, 0)
    assert [identity(card) for card in deck[:4]] == ["10S@1", "QH@1", "JO@1.1", "7D@1"]
    assert len(deck) == 34


def test_kth_copy_gets_sample_k(tmp_path: Path) -> None:
    lines = ["QH", "7S", "qh", "QH", *FULL_DECK_LINES[:30]]
    deck = read_deck_file(write(tmp_path, lines), NV, 0)
    assert [identity(card) for card in deck[:4]] == ["QH@1", "7S@1", "QH@2", "QH@3"]
    assert identity(deck[4 + FULL_DECK_LINES.index("QH")]) == "QH@4"
    assert identity(deck[4 + FULL_DECK_LINES.index("7S")]) == "7S@2"


def test_joker_copies(tmp_path: Path) -> None:
    lines = ["JO"] * 6 + FULL_DECK_LINES[:30]
    deck = read_deck_file(write(tmp_path, lines), POWER, 0)
    assert [identity(card) for card in deck[:6]] == [
        "JO@1.1", "JO@1.2", "JO@2.1", "JO@2.2", "JO@3.1", "JO@3.2",
    ]
    assert len(set(deck)) == len(deck)


def test_deck_file_missing(tmp_path: Path) -> None:
    path = str(tmp_path / "none.txt")
    assert deck_error(path) == f"Cannot read deck file '{path}': No such file or directory."


def test_deck_file_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(b"7S \xe9\n")
    assert deck_error(str(path)) == (
        f"Cannot read deck file '{path}': the file is not valid UTF-8."
    )


@pytest.mark.parametrize("token", ["1S", "11H", "JK", "7X", "S7", "7 S", "10", "joker", "♠7"])
def test_unknown_card_names_line_and_token(tmp_path: Path, token: str) -> None:
    path = write(tmp_path, ["# header", "", "7S", f"  {token}  # comment", "8S"])
    assert deck_error(path) == f"Deck file '{path}', line 4: unknown card '{token}'."


@pytest.mark.parametrize("count", [29, 163, 0])
def test_card_count_out_of_bounds(tmp_path: Path, count: int) -> None:
    lines = (FULL_DECK_LINES * 4)[:count]
    path = write(tmp_path, lines)
    assert deck_error(path) == (
        f"Deck file '{path}' has {count} cards; "
        "a deck must have between 30 and 162 cards (inclusive)."
    )


def test_card_count_uses_deck_bounds_not_deck_size(tmp_path: Path) -> None:
    path = write(tmp_path, FULL_DECK_LINES[:30])
    assert len(read_deck_file(path, replace(POWER, deck_size=54), 0)) == 30
    assert deck_error(path, replace(POWER, deck_min=31)) == (
        f"Deck file '{path}' has 30 cards; a deck must have between 31 and 162 cards (inclusive)."
    )


def test_too_many_copies(tmp_path: Path) -> None:
    # The first 30 cards of a sample deck include one 7S and one QH.
    lines = ["qh"] * 3 + ["7S"] * 5 + ["QH", *FULL_DECK_LINES[:30]]
    path = write(tmp_path, lines)
    # Both exceed 3; QH is listed first, so it is the one reported, with its total count.
    assert deck_error(path) == f"Deck file '{path}' has 5 copies of 'QH'; at most 3 are allowed."
    only_7s = write(tmp_path, ["7S"] * 4 + FULL_DECK_LINES[:30], "7s.txt")
    assert deck_error(only_7s) == (
        f"Deck file '{only_7s}' has 5 copies of '7S'; at most 3 are allowed."
    )
    assert len(read_deck_file(path, replace(NV, samples_max=6), 0)) == len(lines)


def test_too_many_jokers(tmp_path: Path) -> None:
    lines = FULL_DECK_LINES[:30] + ["JO"] * 7
    path = write(tmp_path, lines)
    assert deck_error(path) == f"Deck file '{path}' has 7 copies of 'JO'; at most 6 are allowed."
    one_each = replace(POWER, jokers_per_sample=1)
    path4 = write(tmp_path, FULL_DECK_LINES[:30] + ["JO"] * 4, "four.txt")
    assert deck_error(path4, one_each) == (
        f"Deck file '{path4}' has 4 copies of 'JO'; at most 3 are allowed."
    )
    assert deck_error(path4, replace(POWER, jokers_per_sample=0)) == (
        f"Deck file '{path4}' has 4 copies of 'JO'; at most 0 are allowed."
    )


def test_too_few_numerals(tmp_path: Path) -> None:
    faces = [*FACES, "JO", "JO"]
    lines = faces * 2 + ["7S", "8S"] + faces[:2]  # 32 cards, 2 numerals
    path = write(tmp_path, lines)
    assert deck_error(path) == f"Deck file '{path}' has fewer than 3 numeral cards."
    without_opening = replace(POWER, opening_mode="none")
    assert len(read_deck_file(path, without_opening, 0)) == 32
    assert len(read_deck_file(write(tmp_path, [*lines, "AS"], "ok.txt"), POWER, 0)) == 33


def test_deck_file_errors_come_in_order(tmp_path: Path) -> None:
    # Unknown card before the count: a short file with a bad token.
    short_bad = write(tmp_path, ["7S", "ZZ"], "a.txt")
    assert "line 2: unknown card 'ZZ'" in deck_error(short_bad)
    # Count before copies: a short file with too many copies.
    short_copies = write(tmp_path, ["QH"] * 5, "b.txt")
    assert "has 5 cards; a deck must have" in deck_error(short_copies)
    # Copies before numerals: all faces, one of them four times.
    copies_no_numerals = write(tmp_path, FACES * 3 + ["KC"], "c.txt")
    assert "has 4 copies of 'KC'" in deck_error(copies_no_numerals)


def test_shuffle_file_deck(tmp_path: Path) -> None:
    cards = read_deck_file(write(tmp_path, FULL_DECK_LINES), NV, 0)
    original = list(cards)
    shuffled = shuffle_file_deck(cards, NV, GameRandom(6))
    assert cards == original  # the input is left alone
    assert sorted(shuffled) == sorted(cards) and shuffled != cards
    # Without rebuild it is exactly one shuffle with the game RNG.
    expected = list(cards)
    GameRandom(6).shuffle(expected)
    assert shuffled == expected
    assert shuffle_file_deck(cards, NV, GameRandom(6)) == shuffled


# 30 cards with 6 numerals: an 8-card hand often holds fewer than 3 of them.
FEW_NUMERALS = FACES * 2 + ["AS", "2S", "3S", "4S", "5S", "6S"]


@given(seed=st.integers(0, 2**32))
def test_shuffle_file_deck_rebuild_guarantees_numerals(seed: int) -> None:
    cards = from_codes(FEW_NUMERALS)
    deck = shuffle_file_deck(cards, POWER, GameRandom(seed))
    assert numerals(deck[-8:]) >= 3  # the opening hand is the top (last) 8 cards
    assert sorted(deck) == sorted(cards)


def test_shuffle_file_deck_without_rebuild_may_deal_few_numerals() -> None:
    cards = from_codes(FEW_NUMERALS)
    hands = [shuffle_file_deck(cards, NV, GameRandom(seed))[-8:] for seed in range(20)]
    assert any(numerals(hand) < 3 for hand in hands)


def test_shuffle_file_deck_rebuild_with_fewer_than_three_numerals_ends() -> None:
    cards = from_codes(FACES * 2 + ["7S", "8S"])
    rules = replace(POWER, opening_mode="none")
    for seed in range(10):
        assert numerals(shuffle_file_deck(cards, rules, GameRandom(seed))[-8:]) == 2
