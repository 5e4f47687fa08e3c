"""The rule bots never hand the game away while another legal move avoids it.

A move hands the game away when, once made, the other seat has won, or can win at once: some
reply with a card it could hold (any card of its decks the mover's observation does not
show) ends the game in its favour. The check here tries every such reply, on the real board.
"""

from __future__ import annotations

import pytest

from cardtable.games.caravan import cards as cardlib
from cardtable.games.caravan.bots import FACE_MASK, make_bot
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.deck import resolved_samples
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.games.caravan.state import CaravanState
from cardtable.games.caravan.worlds import seen_cards


def could_hold(game: CaravanState, seat: int) -> list[int]:
    """One card of each kind the other seat may hold, as ``seat`` sees the game."""
    other = 1 - seat
    rules = game.rules[other]
    pool: list[int] = []
    for tag in range(1, resolved_samples(rules, rules.deck_size) + 1):
        pool += cardlib.sample_deck(other, tag, rules.jokers_per_sample)
    for card in seen_cards(game.observation(seat), other):
        pool.remove(card)
    kinds: dict[int, int] = {}
    for card in pool:
        kinds.setdefault(card & FACE_MASK, card)
    return list(kinds.values())


def hands_away(game: CaravanState, code: int) -> bool:
    seat, other = game.turn, 1 - game.turn
    after = game.clone()
    after.apply_code(code)
    if after.result is not None:
        return SEATS[other] in after.result.winners
    if after.turn != other:
        return False
    after.hands[other] = could_hold(game, seat)
    after._moves = None
    for reply in after.legal_codes():
        world = after.clone()
        world.apply_code(reply)
        if world.result is not None and SEATS[other] in world.result.winners:
            return True
    return False


def check_game(preset: str, seed: int, bots: tuple[str, str], checked: list[int],
               first: int | None = None) -> CaravanState:
    game = CaravanState.new(SeatRules.preset(preset), seed, seed % 2 if first is None else first)
    players = [make_bot(bots[0], 0, seed), make_bot(bots[1], 1, seed)]
    while game.result is None:
        seat = game.turn
        code = players[seat].choose_code(game.observation(seat))
        if bots[seat] != "random" and not (game.in_opening(0) or game.in_opening(1)):
            if hands_away(game, code):
                safe = [move for move in game.legal_codes() if not hands_away(game, move)]
                assert not safe, (f"{bots[seat]} as {SEATS[seat]} ({preset}, seed {seed}, "
                                  f"ply {game.plies}) hands the game away with {code}; "
                                  f"{len(safe)} moves would not")
            checked.append(code)
        game.apply_code(code)
    return game


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("bots", [("normal", "random"), ("random", "normal"),
                                  ("normal", "normal"), ("friendly", "random")])
def test_a_rule_bot_never_hands_the_game_away_when_it_can_help_it(
        preset: str, bots: tuple[str, str]) -> None:
    checked: list[int] = []
    for seed in range(4):
        check_game(preset, seed, bots, checked)
    assert checked


def test_the_normal_bot_keeps_the_opponents_lane_open_on_seed_5() -> None:
    """``caravan --bvb --bot-abc normal --bot-def random --seed 5``: a King on the other
    seat's unsold F (20 to 24) gave it its second lane and the game."""
    game = check_game("power", 5, ("normal", "random"), [], first=0)
    assert game.result is not None and game.result.winners != ("DEF",)
