"""The leak checker itself: it must catch a leak, else the games' checks prove nothing."""

from __future__ import annotations

import pytest
from webplay import LeakChecker, Server

from cardtable.web import serialize


def test_checker_catches_another_hand_a_deck_and_a_token(sqlite_server: Server) -> None:
    server = sqlite_server
    table, tokens = server.create("caravan", ["human", "human"])
    state = server.hub.tables[table].state
    checker = LeakChecker(server.store, table, "ABC", tokens)
    honest = serialize.seat_view("caravan", state, "ABC")
    checker.check_page(honest, 0)
    with pytest.raises(AssertionError, match="hidden cards"):
        checker.check_page(serialize.seat_view("caravan", state, "DEF"), 0)
    from webplay import caravan_id

    deck_card = {"card": "?", "id": caravan_id(state.decks[0][0])}
    with pytest.raises(AssertionError, match="hidden cards"):
        checker.check_page({**honest, "extra": [deck_card]}, 0)
    with pytest.raises(AssertionError, match="token"):
        checker.check_text(f"... {tokens['DEF']} ...")
    spectator = LeakChecker(server.store, table, None, tokens)
    spectator.check_page(serialize.public_view("caravan", state), 0)
    with pytest.raises(AssertionError):
        spectator.check_page(honest, 0)


def test_checker_catches_hidden_rows_and_the_draw_pile(sqlite_server: Server) -> None:
    server = sqlite_server
    table, tokens = server.create("obsession", ["human", "human", "human"])
    state = server.hub.tables[table].state
    checker = LeakChecker(server.store, table, "P1", tokens)
    honest = serialize.seat_view("obsession", state, "P1")
    checker.check_page(honest, 0)
    for cards in (state.hidden[0], state.hands[1], state.draw[:1]):
        leak = [{"card": "x", "id": f"o{card}"} for card in cards]
        with pytest.raises(AssertionError, match="hidden cards"):
            checker.check_page({**honest, "extra": leak}, 0)
