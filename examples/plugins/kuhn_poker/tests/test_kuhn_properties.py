"""Properties over every game: any deal, any sequence of actions legal or not."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kuhn_poker.game import KuhnGame
from kuhn_poker.rules import Action
from kuhn_poker.state import KuhnState

GAME = KuhnGame.load()
CANDIDATES = [Action.PASS, Action.BET, 0, 1, 2, -1, None, "bet", 1.5, True]
"""Actions and things that are not: each is tried at every step."""

seeds = st.integers(min_value=0, max_value=2**63)
choices = st.lists(st.integers(min_value=0, max_value=1), min_size=0, max_size=4)


def snapshot(state: KuhnState) -> tuple[object, ...]:
    return (state.cards, state.history, state.to_move, state.result, state.legal_actions(),
            state.to_position(), state.observation(0), state.observation(1))


def play(seed: int, picks: list[int]) -> list[KuhnState]:
    """The states of a game dealt from ``seed`` in which the ``picks``-th legal actions are
    taken (until the game ends)."""
    state = GAME.new_state(seed)
    states = [state.clone()]
    for pick in picks:
        if state.result is not None:
            break
        state.apply(state.legal_actions()[pick])
        states.append(state.clone())
    return states


@given(seeds, choices)
def test_every_legal_action_applies_and_every_other_is_refused_unchanged(
        seed: int, picks: list[int]) -> None:
    from cardtable.engine.errors import IllegalAction

    for state in play(seed, picks):
        legal = state.legal_actions()
        for candidate in CANDIDATES:
            trial = state.clone()
            before = snapshot(trial)
            is_legal = (type(candidate) in (Action, int) and candidate in legal)
            try:
                trial.apply(candidate)  # type: ignore[arg-type]
            except IllegalAction as error:
                assert not is_legal, error
                assert snapshot(trial) == before
                assert "\n" not in str(error) and str(error)
            else:
                assert is_legal, candidate
                assert len(trial.history) == len(state.history) + 1


@given(seeds, choices)
def test_observations_never_show_the_other_card_before_a_showdown(
        seed: int, picks: list[int]) -> None:
    for state in play(seed, picks):
        showdown = state.result is not None and state.result.reason == "showdown"
        for seat in state.seats:
            seen = state.observation(seat)
            other = state.cards[1 - state.seat_number(seat)]
            assert seen.card == "JQK"[state.cards[state.seat_number(seat)]]
            assert seen.other_card == ("JQK"[other] if showdown else None)
            # What a seat sees is the same whatever the other card is.
            for card in {0, 1, 2} - {state.cards[state.seat_number(seat)]}:
                cards = list(state.cards)
                cards[1 - state.seat_number(seat)] = card
                twin = KuhnState((cards[0], cards[1]), state.history)
                if not showdown:
                    assert twin.observation(seat) == seen


@given(seeds, choices)
def test_chips_sum_to_zero_and_follow_the_winner(seed: int, picks: list[int]) -> None:
    state = play(seed, [*picks, 0, 0, 0])[-1]
    result = state.result
    assert result is not None
    chips = result.details["chips"]
    assert sum(chips) == 0 and abs(chips[0]) in (1, 2)
    assert result.winners == (state.seats[0 if chips[0] > 0 else 1],)
    for seat in state.seats:
        assert state.observation(seat).chips() == tuple(chips)


@given(seeds, choices, st.integers(min_value=0, max_value=1))
def test_clones_are_independent(seed: int, picks: list[int], pick: int) -> None:
    for state in play(seed, picks):
        if state.result is not None:
            continue
        before = snapshot(state)
        copy = state.clone()
        copy.apply(copy.legal_actions()[pick])
        assert snapshot(state) == before
        state.apply(state.legal_actions()[1 - pick])
        assert copy.history[-1] != state.history[-1]


@given(seeds, choices)
def test_positions_round_trip(seed: int, picks: list[int]) -> None:
    for state in play(seed, picks):
        text = state.to_position()
        again = GAME.state_from_position(text)
        assert snapshot(again) == snapshot(state) and again.to_position() == text


@given(seeds, choices, seeds)
def test_worlds_agree_with_the_observation(seed: int, picks: list[int], world_seed: int) -> None:
    for state in play(seed, picks):
        for seat in state.seats:
            seen = state.observation(seat)
            for world in (state.sample_world(seat, world_seed),
                          GAME.sample_world(seen, world_seed)):
                assert world.observation(seat) == seen
                assert world.legal_actions() == state.legal_actions()
