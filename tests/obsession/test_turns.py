"""Special effects, runs and kills, pick-ups, refills, phases, placings, next seat, guards."""

from __future__ import annotations

import pytest

from cardtable.engine.errors import IllegalAction
from cardtable.games.obsession.actions import Blind, Play
from cardtable.games.obsession.events import (
    BlindTurned,
    Ended,
    PickedUp,
    Played,
    Stalemate,
    TurnStarted,
    WentOut,
)
from cardtable.games.obsession.rules import Rules

from .helpers import blind, hand, lines, pile, play, position

DRAW = "2C 2D 2H 2S 3C 3D"


def _played(events: object) -> Played:
    return next(e for e in events if isinstance(e, Played))  # type: ignore[attr-defined]


# --- special faces -----------------------------------------------------------------------

def test_8_gives_the_same_player_an_extra_turn_and_allows_anything() -> None:
    game = position(hands={0: "8C 4D 9D"}, pile="KS", draw=DRAW)
    events = play(game, "8C")
    assert _played(events).effects == ("extra",)
    assert game.to_move == "P1" and game.active == 8
    play(game, "4D")  # a 4 on the 8
    assert game.to_move == "P2"


def test_10_kills_the_pile_and_the_same_player_plays_again_on_an_empty_pile() -> None:
    game = position(hands={0: "10C 4D 9D"}, pile="KS QS", draw=DRAW)
    events = play(game, "10C")
    assert _played(events).effects == ("kill", "extra")
    assert game.pile == [] and game.active == 0 and len(game.killed) == 3
    assert "*** Killed pile" in lines(events, [False] * 4)
    assert game.to_move == "P1"


def test_joker_reverses_the_direction_and_the_turn_passes_normally() -> None:
    game = position(5, hands={0: "R 9C", 4: "KD", 1: "QD"}, pile="9S", draw=DRAW)
    events = play(game, "R")
    assert game.direction == -1 and game.to_move == "P5"
    assert "*** Direction reversed!" in lines(events, [False] * 5)


def test_effects_happen_once_per_play_however_many_copies() -> None:
    game = position(5, hands={0: "R R 9C"}, pile="9S", draw=DRAW)
    play(game, "R R")
    assert game.direction == -1  # two jokers in one play reverse once
    game = position(hands={0: "8C 8D 9C"}, pile="5S", draw=DRAW)
    events = play(game, "8C 8D")
    assert _played(events).effects == ("extra",) and game.to_move == "P1"


def test_2_3_and_7_have_no_effect_of_their_own() -> None:
    for card in ("2C", "3C", "7C"):
        game = position(hands={0: card + " KD KH"}, pile="5S", draw=DRAW)
        events = play(game, card)
        assert _played(events).effects == () and game.direction == 1
        assert game.to_move != "P1"


def test_a_10_never_stays_on_the_pile() -> None:
    game = position(hands={0: "10C 10D 9C"}, pile="7S", draw=DRAW)
    play(game, "10C 10D")
    assert game.pile == []


# --- runs and kills ------------------------------------------------------------------------

def test_run_of_four_identical_faces_kills_and_gives_an_extra_turn() -> None:
    game = position(hands={0: "5C 5D KD"}, pile="5H 5S 9C", draw=DRAW)
    events = play(game, "5C 5D")
    assert _played(events).effects == ("kill", "extra") and game.pile == []
    assert game.to_move == "P1"


def test_runs_continue_across_players() -> None:
    # E3: 6H 6C on top (run 2); P2 plays one 6 (run 3), P3 completes the run and plays again.
    game = position(hands={1: "6D 6S 9C", 2: "6H KC KD"}, pile="6H 6C 7S", to_move=1, draw=DRAW)
    play(game, "6D")
    assert game.run == 3 and game.to_move == "P3"
    events = play(game, "6H")
    assert "kill" in _played(events).effects and game.to_move == "P3"


def test_a_joker_breaks_a_run_of_another_face() -> None:
    game = position(hands={0: "6D KC KD"}, pile="6H R 6C 6S", draw=DRAW)
    assert game.run == 1
    play(game, "6D")
    assert game.run == 2 and game.pile


def test_jokers_form_runs_of_their_own() -> None:
    game = position(5, hands={0: "R R 5D"}, pile="R R 9C", draw=DRAW)
    events = play(game, "R R")
    assert _played(events).effects == ("reverse", "kill", "extra")


def test_run_kill_length_is_an_option() -> None:
    game = position(hands={1: "6D 6S 9C"}, pile="6H 6C 7S", to_move=1, draw=DRAW,
                    rules=Rules(players=4, run_kill=3))
    events = play(game, "6D")
    assert "kill" in _played(events).effects and game.to_move == "P2"
    game = position(2, hands={0: "6D 9S"}, pile="6H", draw=DRAW, rules=Rules(players=2, run_kill=2))
    assert "kill" in _played(play(game, "6D")).effects


def test_default_run_kill_is_4_for_every_player_count_including_two() -> None:
    game = position(2, hands={0: "6D 6S 9C"}, pile="6H", draw=DRAW)
    assert "kill" not in _played(play(game, "6D 6S")).effects  # run 3 of 4
    assert Rules(players=2).run_kill == 4


def test_effect_first_joker_run_reverses_and_kills() -> None:
    # E5: P1 plays R R R on R 9C; reversed, killed, plays again; after 5D the next seat is P5.
    game = position(5, hands={0: "R R R 5D 9D"}, pile="R 9C", draw=DRAW)
    events = play(game, "R R R")
    text = lines(events, [False] * 5)
    assert text.index("*** Direction reversed!") < text.index("*** Killed pile")
    assert game.to_move == "P1" and game.direction == -1
    play(game, "5D")
    assert game.to_move == "P5"


def test_kill_first_joker_run_kills_without_reversing() -> None:
    rules = Rules(players=5, kill_order="kill-first")
    game = position(5, hands={0: "R R R 5D 9D"}, pile="R 9C", draw=DRAW, rules=rules)
    events = play(game, "R R R")
    assert _played(events).effects == ("kill", "extra") and game.direction == 1
    play(game, "5D")
    assert game.to_move == "P2"


def test_kill_first_still_applies_face_effects_when_nothing_is_killed() -> None:
    rules = Rules(players=4, kill_order="kill-first")
    game = position(hands={0: "R 5D 9D", 3: "KC"}, pile="9C", draw=DRAW, rules=rules)
    assert _played(play(game, "R")).effects == ("reverse",)
    game = position(hands={0: "8C 5D 9D"}, pile="9C", draw=DRAW, rules=rules)
    assert _played(play(game, "8C")).effects == ("extra",)


def test_extra_turns_chain_without_limit() -> None:
    game = position(hands={0: "8C 8D 10C 10D KC"}, pile="9C", draw="")
    for card in ("8C", "10C", "8D", "10D"):
        play(game, card)
        assert game.to_move == "P1"
    play(game, "KC")


# --- forced play and pick-up -------------------------------------------------------------------

def test_no_voluntary_pick_up_when_a_card_is_legal() -> None:
    game = position(hands={0: "4C 9D"}, pile="9C", draw=DRAW)
    assert [tuple(a.cards) for a in game.legal_actions() if isinstance(a, Play)]
    assert all(isinstance(a, Play) for a in game.legal_actions())


def test_pick_up_is_automatic_and_removes_the_3s() -> None:
    # E4: pile 3H R 3C QS 6D, P2 holds nothing playable on a 3.
    game = position(hands={0: "3H KD KH", 1: "4S 9H KC", 2: "QC"}, pile="R 3C QS 6D",
                    draw=DRAW)
    events = play(game, "3H")
    assert PickedUp(3, 1, 3, 2) in events
    assert ("*** No valid moves, picked up 3 cards (2 threes on the pile left the game)"
            in lines(events, [False] * 4))
    assert hand(game, 1) == ["4S", "6D", "9H", "QS", "KC", "R"]  # 6 cards, no refill
    assert game.pile == [] and game.to_move == "P3"


def test_pick_up_of_only_3s_reports_zero_cards_and_why() -> None:
    game = position(hands={0: "3H 5C 5D", 1: "4S 9H KC"}, draw=DRAW)
    events = play(game, "3H")
    assert ("*** No valid moves, picked up 0 cards (the 3 on the pile left the game)"
            in lines(events, [False] * 4))
    assert game.removed and hand(game, 1) == ["4S", "9H", "KC"]


def test_the_turn_ends_at_once_after_a_pick_up_without_refill() -> None:
    game = position(hands={0: "AC 5C 5D", 1: "4S"}, draw=DRAW)
    play(game, "AC")
    assert hand(game, 1) == ["4S", "AC"] and game.to_move == "P3"


# --- refill ----------------------------------------------------------------------------------

def test_refill_draws_up_to_three_cards_after_a_play() -> None:
    game = position(hands={0: "6C 6D 9C"}, pile="5S", draw="KD QD JD")
    events = play(game, "6C 6D")
    assert _played(events).drew == 2 and hand(game, 0) == ["9C", "QD", "KD"]
    assert lines(events, [True, False, False, False])[2:4] == [
        "*** Drew a KD from the draw pile", "*** Drew a QD from the draw pile"]


def test_a_hand_of_three_or_more_draws_nothing() -> None:
    game = position(hands={0: "6C 9C 9D KC KD"}, pile="5S", draw="QD")
    assert _played(play(game, "6C")).drew == 0 and len(game.draw) == 1


def test_refill_stops_when_the_draw_pile_runs_out() -> None:
    game = position(hands={0: "6C 6D 9C"}, pile="5S", draw="QD")
    assert _played(play(game, "6C 6D")).drew == 1 and hand(game, 0) == ["9C", "QD"]


def test_refill_cards_are_shown_only_to_a_human_owner() -> None:
    game = position(hands={0: "6C 6D 9C"}, pile="5S", draw="KD QD JD")
    events = play(game, "6C 6D")
    assert not any("Drew" in line for line in lines(events, [False] * 4))


# --- phases --------------------------------------------------------------------------------

def test_visible_row_is_played_only_when_the_hand_is_empty() -> None:
    game = position(hands={0: "9C"}, visible={0: "5C 5H"}, pile="4S", draw="")
    with pytest.raises(IllegalAction):
        play(game, "5C")
    play(game, "9C")
    assert game.source(0) == "visible"


def test_visible_sets_go_down_together_straight_from_the_row() -> None:
    # E2: pile 7S R 9D (active 7), P4 has visible 5C 5H AD.
    game = position(hands={0: "KC"}, visible={3: "5C 5H AD"}, pile="7S R 9D", to_move=3)
    sets = sorted(tuple(t) for t in game.legal_plays())
    assert len(sets) == 3
    events = play(game, "5C 5H")
    assert [c for c in pile(game)[:2]] == ["5H", "5C"] and game.to_move == "P1"
    assert lines(events, [False] * 4)[0] == "*** Drawing from visible cards (1 left)"


def test_nothing_legal_in_the_visible_row_picks_up_and_keeps_the_row() -> None:
    game = position(hands={2: "5S"}, visible={3: "9C KH AD"}, pile="R 9D", to_move=2)
    game = position(hands={2: "7S 4C"}, visible={3: "9C KH AD"}, pile="R 9D", to_move=2)
    events = play(game, "7S")
    assert "*** No valid moves, picked up 3 cards" in lines(events, [False] * 4)
    assert hand(game, 3) == ["7S", "9D", "R"] and len(game.visible[3]) == 3
    assert game.pile == [] and game.source(3) == "hand"


def test_blind_attempt_with_a_legal_card_plays_it_at_once() -> None:
    # E6: P3 (human) has only hidden 4C 8H KS; the pile is JD.
    game = position(hands={0: "9C 9D"}, hidden={2: "4C 8H KS"}, pile="JD", to_move=2,
                    humans=[False, False, True, False])
    assert game.legal_actions() == [Blind(1), Blind(2), Blind(3)]
    events = blind(game, 2)
    text = lines(events, game.humans)
    assert text[:2] == ["*** Drew an 8H from your hidden cards", "*** Played an 8H"]
    assert game.to_move == "P3" and [c for c in game.hidden[2]] and len(game.hidden[2]) == 2
    blind(game, 2)
    assert pile(game)[0] == "KS" and game.to_move == "P4"


def test_blind_attempt_with_an_illegal_card_picks_up_on_top_of_it() -> None:
    game = position(hands={0: "9C 9D"}, hidden={2: "4C 8H KS"}, pile="JD", to_move=2,
                    humans=[False, False, True, False])
    events = blind(game, 1)
    assert isinstance(events[0], BlindTurned)
    assert "*** No valid moves, picked up 1 card" in lines(events, game.humans)
    assert hand(game, 2) == ["4C", "JD"] and len(game.hidden[2]) == 2
    assert game.source(2) == "hand" and game.plays == 2


def test_blind_3_and_joker_are_always_legal() -> None:
    for card in ("3C", "R"):
        game = position(hands={0: "9C"}, hidden={1: card + " 5D"}, pile="AS", to_move=1)
        events = blind(game, 1)
        assert any(isinstance(e, Played) for e in events)


def test_bot_blind_attempt_prints_the_count_left() -> None:
    game = position(hands={0: "9C"}, hidden={1: "8C 5D 6D"}, pile="4S", to_move=1)
    assert lines(blind(game, 3), [False] * 4)[0] == "*** Drawing from hidden cards (2 left)"


def test_blind_index_out_of_range_is_refused() -> None:
    game = position(hands={0: "9C"}, hidden={1: "8C 5D"}, pile="4S", to_move=1)
    with pytest.raises(IllegalAction, match="Invalid card selection"):
        blind(game, 3)
    with pytest.raises(IllegalAction, match="Invalid selection"):
        game.apply(Play((game.hidden[1][0],)))


# --- going out, placings, next seat ------------------------------------------------------------

def test_going_out_prints_wins_and_play_goes_on_until_one_seat_is_left() -> None:
    game = position(3, hands={0: "KC", 1: "AC", 2: "5C 5D"}, pile="9S")
    events = play(game, "KC")
    assert WentOut(0, 1) in events
    assert "*** Player 1 goes out in 1st place and wins!" in lines(events, [False] * 3)
    assert not game.over and game.to_move == "P2"
    events = play(game, "AC")
    ended = events[-1]
    assert isinstance(ended, Ended) and ended.placings == (0, 1, 2) and not ended.stalemate
    assert game.result is not None and game.result.winners == ("P1",)
    assert lines(events, [False] * 3)[-8:] == [
        "", "=================", "1. Player 1", "2. Player 2", "3. Player 3",
        "=================", "=== Game Over ===", "================="]


def test_an_extra_turn_is_dropped_when_the_player_goes_out() -> None:
    # E7: P2's last card is 10S; it goes out and the next to move is P3 (not P4).
    game = position(5, hands={1: "10S", 2: "9C", 3: "9D", 4: "9H", 0: "9S"}, pile="KD",
                    to_move=1)
    events = play(game, "10S")
    assert _played(events).effects == ("kill",)
    assert WentOut(1, 1) in events and game.to_move == "P3"


def test_next_seat_after_going_out_in_reverse_skips_nobody() -> None:
    # E7, later: reverse direction, P2 gone; P1 goes out and P5 moves next.
    game = position(5, hands={0: "KC", 2: "AC", 3: "AD", 4: "AH"}, pile="9S", direction=-1,
                    out=[1])
    play(game, "KC")
    assert game.to_move == "P5"


def test_next_seat_after_going_out_forward_skips_seats_already_out() -> None:
    game = position(5, hands={0: "KC", 3: "AD", 4: "AH"}, pile="9S", out=[1, 2])
    play(game, "KC")
    assert game.to_move == "P4"


def test_with_two_seats_left_a_joker_changes_nothing_in_practice() -> None:
    game = position(4, hands={0: "R 9C", 2: "KD"}, pile="9S", out=[1, 3])
    play(game, "R")
    assert game.to_move == "P3"


def test_out_check_needs_an_empty_draw_pile() -> None:
    game = position(hands={0: "KC 4D 4H"}, pile="9S", draw="5C")
    play(game, "KC")
    assert not game.out[0]


# --- termination guards --------------------------------------------------------------------

def test_play_cap_ends_the_game_as_a_stalemate_ranked_by_cards_left() -> None:
    game = position(3, hands={0: "KC KD 9C", 1: "5C", 2: "5D 5H"}, pile="9S",
                    rules=Rules(players=3, max_plays=2))
    events = play(game, "9C")
    assert Stalemate("cap", 2, 2) in events and game.over
    assert game.placings == [1, 0, 2]  # 1 card, then 2 cards (P1 before P3 on the tie)
    text = lines(events, [False] * 3)
    assert "*** Stalemate after 2 plays" in text
    assert "1. Player 2 (stalemate, 1 card left)" in text
    assert "2. Player 1 (stalemate, 2 cards left)" in text
    result = game.result
    assert result is not None and result.details["stalemate"] is True
    assert result.reason == "cap"


def test_stalemate_keeps_the_places_of_seats_already_out() -> None:
    game = position(3, hands={0: "KC", 1: "5C 5S", 2: "5D"}, pile="9S",
                    rules=Rules(players=3, max_plays=2))
    events = play(game, "KC")
    assert game.placings == [0, 2, 1]
    text = lines(events, [False] * 3)
    assert "1. Player 1" in text and "2. Player 3 (stalemate, 1 card left)" in text


def test_repetition_ends_a_bots_only_game_once_the_position_is_seen_r_times() -> None:
    game = position(2, hands={0: "9C 9D", 1: "4C"}, pile="", rules=Rules(players=2,
                                                                         repeat_limit=1))
    events = play(game, "9C")
    assert Stalemate("repetition", 2, 1) in events
    assert "*** Stalemate: position repeated 1 times" in lines(events, [False, False])


def test_repetition_is_not_checked_with_humans_or_a_draw_pile_or_when_off() -> None:
    for kwargs in ({"humans": [True, False]}, {"draw": "5C 5D 5H"},
                   {"rules": Rules(2, repeat_limit=0)}):
        args = {"hands": {0: "9C 9D", 1: "4C KC"}, "rules": Rules(players=2, repeat_limit=1)}
        args.update(kwargs)
        game = position(2, **args)  # type: ignore[arg-type]
        play(game, "9C")
        assert not game.over


def test_position_key_compares_faces_not_suits() -> None:
    first = position(2, hands={0: "9C 4D", 1: "KC"}, pile="5S")
    second = position(2, hands={0: "9H 4S", 1: "KD"}, pile="5C")
    third = position(2, hands={0: "9H 5S", 1: "KD"}, pile="5C")
    assert first._position_key(0) == second._position_key(0) != third._position_key(0)


def test_turn_headers_start_each_turn_but_not_extra_plays() -> None:
    game = position(hands={0: "8C 5D 9D"}, pile="KS", draw=DRAW)
    events = play(game, "8C")
    assert not any(isinstance(e, TurnStarted) for e in events)
    events = play(game, "5D")
    assert TurnStarted(1) in events
