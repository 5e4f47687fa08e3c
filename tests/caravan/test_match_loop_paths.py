"""Property: the match loop's quick paths (facts read once in ``Game.table`` and
``Observation.of``, the code taken apart inline in ``Game.apply_code``, the usual draw without
``_draw``, the random bot picking from the core's list) agree with the plain definitions,
move by move, in random games under every preset (hypothesis)."""

from __future__ import annotations

import random

from helpers import random_bots_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.games.caravan.legality import count_legal, legal_codes, nth_legal, python_legal_parts
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, pack, unpack
from cardtable.games.caravan.rules import PRESETS
from cardtable.games.caravan.state import CaravanState


def check_table_and_observation(game: CaravanState) -> None:
    for seat in (0, 1):
        table = game.table(seat)
        assert table.opening == game.in_opening(seat)
        assert table.discard_mulligan == game._discard_mulligan(seat)
        obs = game.observation(seat)
        assert obs.opening == (game.in_opening(0), game.in_opening(1))
        assert obs.discard_mulligan == game._discard_mulligan(seat)
        assert obs.placed == tuple(game.placed)
        assert obs.moves_made == tuple(game.moves_made)
        assert obs.hand == tuple(game.hands[seat])
        assert obs.piles == (tuple(game.piles[0]), tuple(game.piles[1]))
        assert obs.deck_sizes == (len(game.decks[0]), len(game.decks[1]))
        if not game.opening_hidden():
            assert obs.history == game.history
            assert obs.caravans == tuple(game.caravans)
            assert obs.summaries == tuple(game.summaries)


def canonical(code: int, card_was_numeral: bool, restarts: bool) -> int:
    kind, caravan, position, slot = unpack(code)
    if kind == PLAY:
        return pack(PLAY, caravan, position, 0 if card_was_numeral else slot)
    if kind == DISCARD:
        return pack(DISCARD, 0, position)
    return pack(CLEAR, caravan, position if restarts else 0)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), discard_mulligan=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_match_loop_paths_agree_with_plain_definitions(
    preset: str, discard_mulligan: bool, seed: int
) -> None:
    game, bots = random_bots_game(preset, discard_mulligan, seed)
    while game.result is None and game.plies < 400:
        check_table_and_observation(game)
        mover = game.turn
        obs = game.observation(mover)
        # The random bot picks the move the canonical list has at the same random index.
        state = bots[mover].rng.getstate()
        code = bots[mover].choose_code(obs)
        picker = random.Random()
        picker.setstate(state)
        listed = legal_codes(obs.table())
        assert code == listed[picker.randrange(len(listed))]
        parts = python_legal_parts(obs.table())
        assert nth_legal(parts, listed.index(code)) == code
        assert count_legal(parts) == len(listed)
        hand = game.hands[mover]
        position = unpack(code)[2]
        numeral = 1 <= position <= len(hand) and hand[position - 1] & 15 <= 10
        restarts = game.rules[mover].clear_policy == "destroy_restart"
        deck_before = len(game.decks[mover])
        event = game.apply_code(code)
        assert event.code == canonical(code, numeral, restarts)
        assert game.history[-1].code == event.code
        # The draw: never more cards than the deck and discards held, hand never above size.
        if not game.in_opening(mover) and not event.shuffles and deck_before:
            assert len(game.hands[mover]) <= max(game.rules[mover].hand_size, len(hand))
