"""The game's part of cardtable's RL environments: OpenSpiel's information state tensor, the
mask from the observation, the chips as rewards."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from cardtable.engine.protocol import Result  # noqa: E402

from kuhn_poker.rl import PART  # noqa: E402
from kuhn_poker.state import KuhnState  # noqa: E402

J, Q, K = 0, 1, 2


@pytest.mark.parametrize(("cards", "history", "seat", "expected"), [
    ((K, Q), "", 0, [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]),
    ((K, Q), "b", 1, [0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0]),
    ((J, Q), "pb", 0, [1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0]),
    ((J, Q), "pbb", 1, [0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1]),
])
def test_the_vector_is_openspiels_information_state(cards: tuple[int, int], history: str,
                                                    seat: int, expected: list[int]) -> None:
    encoder = PART.encoder(None)
    vector = encoder.encode(KuhnState(cards, history).observation(seat))
    assert vector.tolist() == expected
    assert encoder.size == len(encoder.names) == 11
    assert (encoder.low <= vector).all() and (vector <= encoder.high).all()


def test_the_mask_is_the_seats_and_the_rewards_are_the_chips() -> None:
    encoder = PART.encoder(None)
    state = KuhnState((J, Q), "p")
    assert encoder.legal_mask(state.observation(1)).tolist() == [1, 1]
    assert encoder.legal_mask(state.observation(0)).tolist() == [0, 0]
    assert PART.rewards(None, Result(("P2",), "showdown", {"chips": [-2, 2]})) == [-2.0, 2.0]
    assert PART.rewards(None, Result(("P1",), "forfeit", {"seat": "P2"})) == [1.0, -1.0]
    assert PART.render(KuhnState((J, Q), "pb"), 0).splitlines() == [
        "=== P1", "Your card: J", "Betting: P1 checks, P2 bets", "Pot: 3 chips",
        "P1 to act (facing a bet)"]
