"""The legality of a turn is worked out once (``turn_moves``): the mover's observation and
the game's validation share it, and it never changes what the rules allow or refuse.

- the record goes to the seat to move only, and a new observation of the mover (after an
  edit of the game, say) starts a new one;
- a move the turn's record does not allow still gets the refusal of ``legality.move_error``,
  with the state unchanged;
- counted, picked and checked moves agree with the Python rules move by move, in random games
  under every preset, and the summary of a caravan after a numeral play is the one
  ``board.summarize`` gives (hypothesis).
"""

from __future__ import annotations

import pytest
from helpers import cards, move, position, random_bots_game, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.games.caravan import legality
from cardtable.games.caravan.board import ASC, summarize, summary_with_numeral
from cardtable.games.caravan.errors import IllegalMove
from cardtable.games.caravan.legality import legal_codes, move_error
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, pack
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.state import CaravanState


def test_only_the_seat_to_move_gets_the_turns_record() -> None:
    game = CaravanState.new(SeatRules.both(PRESETS["power"]), seed=3)
    mover = game.turn
    waiting = game.observation(1 - mover)
    assert waiting._moves is None
    observed = game.observation(mover)
    assert observed._moves is not None and observed._moves is game._moves
    observed.legal_count()
    assert game.observation(1 - mover)._moves is None
    assert game._moves is observed._moves  # the other seat's observation leaves it alone


def test_an_edit_after_an_observation_is_seen_by_the_next_one() -> None:
    game = position(board={"A": "10S 10H 9S", "D": "10S 10H 9S"}, abc="2H", def_="3H")
    first = game.observation(0)
    assert first.legal_count() == len(legal_codes(game.table()))
    game.turn = 1
    second = game.observation(1)
    assert second._moves is not first._moves
    assert [second.legal_at(i) for i in range(second.legal_count())] == legal_codes(game.table())


def test_a_refused_move_gets_the_rules_message_after_the_moves_were_listed() -> None:
    game = position(board={"A": "5S 7D", "D": "5H"}, abc="6C 8C KS", def_="3H")
    observed = game.observation(0)
    assert observed.legal_count() == len(legal_codes(game.table()))
    before = snapshot(game)
    direction = legality.direction_refusal(0, 7, 2, ASC)  # Caravan A: ascending from 7D
    for text, message in (("P1A", direction), ("P2D", legality.NUMERAL_NOT_OWN),
                          ("P3A", legality.FACE_NEEDS_SLOT),
                          ("P4A", legality.HAND_OUT_OF_RANGE), ("P1A1", legality.NUMERAL_SLOT)):
        code = move(game, text).code
        assert not observed.is_legal(code)
        with pytest.raises(IllegalMove) as refused:
            game.apply_code(code)
        assert str(refused.value) == message
        assert snapshot(game) == before
    game.apply_code(move(game, "P2A").code)
    assert game._moves is None


def test_a_numeral_with_a_slot_is_refused_by_the_core_and_the_rules_alike() -> None:
    # A slot after a numeral play names nothing a numeral takes: both refuse it.
    game = position(board={"A": "5S"}, abc="7S", def_="3H")
    observed = game.observation(0)
    observed.legal_count()
    assert not observed.is_legal(pack(PLAY, 0, 1, 4))
    with pytest.raises(IllegalMove, match="A numeral card takes no slot"):
        game.apply_code(pack(PLAY, 0, 1, 4))
    event = game.apply_code(pack(PLAY, 0, 1))
    assert event.code == pack(PLAY, 0, 1)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(ranks=st.lists(st.integers(1, 10), max_size=6), card=st.integers(1, 10),
       suit=st.integers(0, 3))
def test_a_numeral_plays_summary_is_summarize(preset: str, ranks: list[int], card: int,
                                              suit: int) -> None:
    rules = PRESETS[preset]
    caravan = tuple((numeral, ()) for numeral in cards(" ".join(
        f"{'A' if rank == 1 else rank}{'SHDC'[(rank + index) % 4]}"
        for index, rank in enumerate(ranks))))
    played = cards(f"{'A' if card == 1 else card}{'SHDC'[suit]}")[0]
    for held in (None, 1, 2):
        before = summarize(caravan, held, rules)
        after = summarize((*caravan, (played, ())), None, rules)
        assert summary_with_numeral(before, played, rules) == after


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), discard_mulligan=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_the_turns_record_agrees_with_the_rules(preset: str, discard_mulligan: bool,
                                                seed: int) -> None:
    game, bots = random_bots_game(preset, discard_mulligan, seed)
    while game.result is None and game.plies < 300:
        mover = game.turn
        observed = game.observation(mover)
        table = game.table()
        listed = legal_codes(table)
        assert observed.legal_count() == len(listed)
        assert [observed.legal_at(i) for i in range(len(listed))] == listed
        hand = len(game.hands[mover])
        candidates = [pack(DISCARD, 0, position) for position in range(hand + 2)]
        candidates += [pack(CLEAR, caravan, position) for caravan in range(6)
                       for position in range(2)]
        candidates += [pack(PLAY, caravan, position, slot) for caravan in range(6)
                       for position in range(1, hand + 1) for slot in range(3)]
        for code in candidates:
            assert observed.is_legal(code) is (move_error(table, code) is None), code
        game.apply_code(bots[mover].choose_code(observed))
        for index in range(6):
            assert game.summaries[index] == summarize(
                game.caravans[index], game.held[index], game.rules[index // 3])
