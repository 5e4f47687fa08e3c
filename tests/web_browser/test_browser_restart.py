"""Quick match pairs two people; the server is stopped and started again mid-game, and both
players' pages reconnect by themselves and finish the game."""

from __future__ import annotations

import json
import re
from typing import Any

from .harness import (
    Recorder,
    caravan_choice,
    check_no_leak,
    click_caravan_move,
    play_turns,
    say_my_name,
    wait_for,
)


def quick_match(page: Any, base: str, game: str) -> str:
    page.goto(base + "/")
    page.select_option("#quick-game", game)
    say_my_name(page)
    page.click("#quick-match")
    page.wait_for_url(re.compile(r"/tables/"))
    return str(page.url.rsplit("/", 1)[1])


def test_both_players_finish_a_game_after_a_server_restart(server: Any, browser: Any) -> None:
    alice = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    recorders = {"ABC": Recorder("alice").attach(alice), "DEF": Recorder("bob").attach(bob)}
    table = quick_match(alice, server.base, "caravan")
    alice.locator("#status").filter(has_text="Waiting").wait_for()
    assert quick_match(bob, server.base, "caravan") == table
    alice.locator("#seat-line").filter(has_text="You are ABC").wait_for()
    bob.locator("#seat-line").filter(has_text="You are DEF").wait_for()
    players = {"ABC": (alice, recorders["ABC"]), "DEF": (bob, recorders["DEF"])}

    def choose(seat: str, frame: dict[str, Any]) -> str:
        return caravan_choice(frame["observation"], frame["legal"], seat)

    before = play_turns(players, choose, click_caravan_move, stop=lambda moves: moves >= 8)
    ply = max(recorder.latest()["ply"] for recorder in recorders.values())
    sockets = {seat: len(recorder.states()) for seat, recorder in recorders.items()}

    server.restart()
    for seat, recorder in recorders.items():
        page = players[seat][0]
        wait_for(page, lambda rec=recorder, n=sockets[seat]: len(rec.states()) > n,
                 f"{seat}'s page to reconnect", timeout=30)
        # A fresh socket's first state frame: the same position the game was left in.
        resumed = recorder.states()[sockets[seat]]
        assert resumed["ply"] == ply and resumed["status"] == "playing", resumed

    after = play_turns(players, choose, click_caravan_move)
    assert before == 8 and after > 0
    for page in (alice, bob):
        page.locator("#status").filter(has_text="Game over").wait_for()

    tokens = {}
    for page in (alice, bob):
        stored = json.loads(page.evaluate(f"localStorage.getItem('cardtable.seat.{table}')"))
        tokens[stored["seat"]] = stored["token"]
    for seat, recorder in recorders.items():
        assert check_no_leak(server.db_url, table, tokens, recorder, seat) > before + after
        assert recorder.page_errors() == []
