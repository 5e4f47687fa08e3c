"""The table's affordability index (used by the simulator) answers exactly as a fresh scan.

``Table.track_affordability`` keeps, per market card, the players' shortfalls and a mask of who
can afford it; the strategies read it instead of scanning every player. These tests play whole
games with many players and check, before every turn, the index against ``wilds_needed`` and
every strategy's decision against the same strategy on an untracked copy of the table.
"""

from __future__ import annotations

import copy

import pytest
from austerity_support import DECKS

from cardtable.games.austerity.codec import action_line, newcard_line
from cardtable.games.austerity.deck import load_deck
from cardtable.games.austerity.rules import Game, Table
from cardtable.games.austerity.simulate import play_game
from cardtable.games.austerity.strategies import STRATEGIES

NAMES = ("ed", "shenzi", "banzai")


def untracked(table: Table) -> Table:
    plain = copy.deepcopy(table)
    plain.affordable = None
    plain.shortfalls = []
    return plain


@pytest.mark.parametrize("count", [2, 3, 7, 26])
@pytest.mark.parametrize("deck_name", ["medium.deck", "large.deck"])
def test_index_and_decisions_match_a_fresh_scan(count: int, deck_name: str) -> None:
    deck = load_deck(str(DECKS / deck_name))
    lineup = [NAMES[i % 3] for i in range(count)]
    for tokens in (2, 5):
        game = Game(deck, tokens, 12, count)
        table = game.table
        table.track_affordability()
        game.opening()
        for _turn in range(3000):
            assert table.affordable is not None
            for index, card in enumerate(table.market):
                assert table.shortfalls[index] == [
                    table.wilds_needed(player, card) for player in range(count)]
                assert table.affordable[index] == sum(
                    1 << player for player in range(count)
                    if table.wilds_needed(player, card) <= table.wilds[player])
            plain = untracked(table)
            for name in NAMES:
                assert STRATEGIES[name](table, game.current) == \
                    STRATEGIES[name](plain, game.current)
            player = game.current
            game.play(STRATEGIES[lineup[player]](table, player))
            if game.finished:
                break


def test_simulated_games_are_unchanged_by_the_index() -> None:
    """The simulator keeps the index; the hub's game does not. Their transcripts agree."""
    deck = load_deck(str(DECKS / "large.deck"))
    lineup = [NAMES[i % 3] for i in range(11)]
    lines: list[str] = []
    play_game(deck, 4, 15, lineup, transcript=lines)
    game = Game(deck, 4, 15, len(lineup))
    replay: list[str] = []
    replay.extend(newcard_line(card) for card in game.opening())
    while not game.finished:
        player = game.current
        action = STRATEGIES[lineup[player]](game.table, player)
        assert game.is_valid(action)
        drawn = game.play(action)
        replay.append(action_line(player, action))
        if drawn is not None:
            replay.append(newcard_line(drawn))
    assert lines[:len(replay)] == replay
