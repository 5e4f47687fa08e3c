"""Each rule of Kuhn poker as OpenSpiel plays it, through the state protocol."""

from __future__ import annotations

from collections import Counter

import pytest
from cardtable.engine.errors import (
    GameParamsError,
    IllegalAction,
    NotationError,
    PositionError,
    UnknownSeat,
)

from kuhn_poker.game import KuhnGame
from kuhn_poker.rules import Action
from kuhn_poker.state import KuhnState

J, Q, K = 0, 1, 2
GAME = KuhnGame.load()


def played(cards: tuple[int, int], *words: str) -> KuhnState:
    state = KuhnState(cards)
    for word in words:
        state.apply(state.parse_action(word))
    return state


def test_player_0_acts_first_and_the_seats_alternate() -> None:
    state = KuhnState((K, J))
    assert state.seats == ("P1", "P2")
    assert state.to_move == "P1"
    state.apply(Action.PASS)
    assert state.to_move == "P2"
    state.apply(Action.BET)
    assert state.to_move == "P1"


@pytest.mark.parametrize(("history", "cards", "winners", "reason", "chips"), [
    # check, check: showdown for the antes
    ("pp", (K, J), ("P1",), "showdown", [1, -1]),
    ("pp", (J, Q), ("P2",), "showdown", [-1, 1]),
    # check, bet, fold: the bettor takes the folder's ante, whatever the cards
    ("pbp", (K, J), ("P2",), "fold", [-1, 1]),
    # check, bet, call: showdown for 2 each
    ("pbb", (Q, K), ("P2",), "showdown", [-2, 2]),
    ("pbb", (K, Q), ("P1",), "showdown", [2, -2]),
    # bet, fold
    ("bp", (J, K), ("P1",), "fold", [1, -1]),
    # bet, call
    ("bb", (J, Q), ("P2",), "showdown", [-2, 2]),
    ("bb", (K, J), ("P1",), "showdown", [2, -2]),
])
def test_every_ending(history: str, cards: tuple[int, int], winners: tuple[str, ...],
                      reason: str, chips: list[int]) -> None:
    state = played(cards, *("bet" if letter == "b" else "pass" for letter in history))
    result = state.result
    assert result is not None
    assert state.to_move is None and state.legal_actions() == []
    assert (result.winners, result.reason, result.details["chips"]) == (winners, reason, chips)
    assert result.details["history"] == history
    assert sum(result.details["chips"]) == 0


def test_a_showdown_shows_both_cards_and_a_fold_shows_none() -> None:
    shown = played((Q, K), "bet", "call")
    assert shown.result is not None and shown.result.details["cards"] == ["Q", "K"]
    assert shown.observation("P1").other_card == "K"
    folded = played((Q, K), "bet", "fold")
    assert folded.result is not None and "cards" not in folded.result.details
    assert folded.observation("P1").other_card is None
    assert folded.observation("P2").other_card is None


@pytest.mark.parametrize("history", ["", "p", "b", "pb"])
def test_both_actions_are_legal_until_the_end(history: str) -> None:
    state = KuhnState((J, Q), history)
    assert state.result is None
    assert state.legal_actions() == [Action.PASS, Action.BET]
    assert state.legal_mask() == b"\x01\x01"


def test_no_action_after_the_end_and_the_state_is_unchanged() -> None:
    state = played((J, Q), "pass", "pass")
    with pytest.raises(IllegalAction, match=r"^The game is over: no more actions\.$"):
        state.apply(Action.BET)
    assert state.history == "pp"
    assert state.legal_mask() == b"\x00\x00"


@pytest.mark.parametrize("action", [2, -1, "bet", None, True, 1.0])
def test_what_is_not_an_action_is_refused(action: object) -> None:
    state = KuhnState((J, Q))
    with pytest.raises(IllegalAction, match=r"^Not an action of Kuhn poker"):
        state.apply(action)  # type: ignore[arg-type]
    assert state.history == ""


def test_openspiel_action_ids_are_accepted() -> None:
    state = KuhnState((J, Q))
    state.apply(1)  # type: ignore[arg-type]
    assert state.history == "b"


@pytest.mark.parametrize(("text", "history", "action"), [
    ("pass", "", Action.PASS), ("bet", "", Action.BET), (" P ", "", Action.PASS),
    ("b", "p", Action.BET), ("BET", "pb", Action.BET), ("check", "", Action.PASS),
    ("check", "p", Action.PASS), ("call", "b", Action.BET), ("fold", "pb", Action.PASS),
    ("call", "pb", Action.BET),
])
def test_notation(text: str, history: str, action: Action) -> None:
    assert KuhnState((J, Q), history).parse_action(text) is action


@pytest.mark.parametrize(("text", "history", "message"), [
    ("raise", "", "Unknown action 'raise' (allowed: pass, bet; also check, call, fold)."),
    ("", "", "Unknown action '' (allowed: pass, bet; also check, call, fold)."),
    ("fold", "", "There is no bet to fold: check (pass) or bet."),
    ("call", "p", "There is no bet to call: check (pass) or bet."),
    ("check", "b", "You face a bet: call (bet) or fold (pass)."),
])
def test_bad_notation_is_refused_in_one_line(text: str, history: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        KuhnState((J, Q), history).parse_action(text)
    assert str(caught.value) == message


def test_action_text_is_the_canonical_word() -> None:
    state = KuhnState((J, Q), "b")
    assert [state.action_text(action) for action in state.legal_actions()] == ["pass", "bet"]
    assert state.action_text(state.parse_action("call")) == "bet"


def test_seats_by_name_or_index() -> None:
    state = KuhnState((J, Q))
    assert state.seat_number("P2") == state.seat_number(1) == 1
    assert state.observation(0) == state.observation("P1")
    for seat in ("P3", 2, -1, "1", True):
        with pytest.raises(UnknownSeat, match=r"^Unknown seat .* \(allowed: P1, P2 or an index "
                                              r"0\.\.1\)\.$"):
            state.seat_number(seat)


def test_an_observation_holds_the_own_card_and_the_history_only() -> None:
    state = played((K, Q), "pass", "bet")
    seen = state.observation("P2")
    assert (seen.seat, seen.card, seen.history, seen.to_move, seen.other_card) == (
        "P2", "Q", "pb", "P1", None)
    assert seen.legal_actions() == [] and state.observation("P1").legal_actions() == list(Action)


def test_the_game_takes_no_parameter() -> None:
    with pytest.raises(GameParamsError) as caught:
        KuhnGame.load(players=3)
    assert str(caught.value) == "Unknown parameter 'players' for kuhn_poker (it takes none)."


def test_the_seed_deals_the_same_cards_and_every_deal_comes() -> None:
    assert GAME.new_state(7).cards == GAME.new_state(7).cards
    deals = Counter(GAME.new_state(seed).cards for seed in range(600))
    assert set(deals) == {(a, b) for a in range(3) for b in range(3) if a != b}
    assert all(count > 60 for count in deals.values())  # 100 expected each


def test_action_indices_are_openspiel_action_ids() -> None:
    state = GAME.new_state(1)
    assert GAME.num_actions() == 2
    assert [state.action_index(action) for action in state.legal_actions()] == [0, 1]
    assert state.index_action(1) is Action.BET
    for index in (2, -1, "0"):
        with pytest.raises(ValueError, match=r"out of range 0\.\.1"):
            state.index_action(index)  # type: ignore[arg-type]


def test_positions_round_trip_and_refuse_in_one_line() -> None:
    state = played((Q, J), "pass", "bet")
    text = state.to_position()
    assert text == "kuhn_poker/1 QJ pb"
    assert GAME.state_from_position(text) == state
    assert GAME.state_from_position("kuhn_poker/1 KJ -") == KuhnState((K, J))
    for bad, message in [
        ("", "expected 3 fields, got 0"),
        ("chess/1 QJ -", "position field 'game': expected kuhn_poker/1, got 'chess/1'"),
        ("kuhn_poker/1 QQ -", "position field 'cards': both seats hold Q"),
        ("kuhn_poker/1 QA -", "position field 'cards': expected two of J, Q, K (P1's first), "
                              "got 'QA'"),
        ("kuhn_poker/1 QJ ppb", "position field 'history': not a betting history of Kuhn "
                                "poker (p and b letters, as far as the game's end): 'ppb'"),
    ]:
        with pytest.raises(PositionError) as caught:
            GAME.state_from_position(bad)
        assert str(caught.value) == message


def test_sampled_worlds_keep_what_the_seat_sees() -> None:
    state = played((K, J), "bet")
    worlds = {state.sample_world("P2", seed).cards for seed in range(40)}
    assert worlds == {(K, J), (Q, J)}
    seen = state.observation("P2")
    assert {GAME.sample_world(seen, seed).cards for seed in range(40)} == worlds
    over = played((K, J), "bet", "call")
    assert {over.sample_world("P1", seed).cards for seed in range(10)} == {(K, J)}
