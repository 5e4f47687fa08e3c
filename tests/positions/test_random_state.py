"""The generator's state as text: exact after any number of draws, refused when malformed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.engine.randomness import GameRandom


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**63), shuffles=st.lists(st.integers(0, 120), max_size=40))
def test_the_state_text_restores_the_generator_exactly(seed, shuffles):
    rng = GameRandom(seed)
    for size in shuffles:
        rng.shuffle(list(range(size)))
    text = rng.state_text(seed)
    assert text.startswith("+")
    again = GameRandom.from_state_text(seed, text)
    assert [again.randrange(1000) for _ in range(50)] == [rng.randrange(1000) for _ in range(50)]


def test_a_generator_from_another_seed_is_written_whole():
    rng = GameRandom("elsewhere")
    rng.randrange(10)
    text = rng.state_text(5)
    assert text.startswith("mt:")
    again = GameRandom.from_state_text(5, text)
    assert again.randrange(10**9) == rng.randrange(10**9)


@pytest.mark.parametrize("text", ["", "+", "+01", "+x", "+99999999999", "mt:", "mt:AAAA",
                                  "mt:!!", "zz", "+-3"])
def test_malformed_state_texts_are_refused(text):
    with pytest.raises(ValueError):
        GameRandom.from_state_text(1, text)


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**63), draws=st.integers(0, 2000))
def test_a_generator_made_on_first_use_is_the_seeded_one_after_its_draws(seed, draws):
    drawn = random.Random(seed)
    for _ in range(draws):
        drawn.getrandbits(32)
    eager = GameRandom(_rng=drawn)
    lazy = GameRandom.after_draws(seed, draws)
    assert lazy.state_text(seed) == eager.state_text(seed) == f"+{draws}"
    before = GameRandom.after_draws(seed, draws)
    early_clone = before.clone()  # cloned while still to be made
    deck, again, reference = list(range(60)), list(range(60)), list(range(60))
    before.shuffle(deck)
    early_clone.shuffle(again)
    eager.shuffle(reference)
    assert deck == again == reference
    late_clone = before.clone()  # cloned once made: each goes on alike, independently
    assert [late_clone.randrange(99) for _ in range(5)] == [before.randrange(99) for _ in range(5)]
