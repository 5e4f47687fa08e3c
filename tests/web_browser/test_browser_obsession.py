"""A person plays a whole Obsession game against three bots, by clicking cards."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from .harness import Recorder, check_no_leak, click_obsession_move, play_turns, say_my_name

CYCLE_AFTER = 300
"""Moves of the person after which they stop always playing the first legal move."""


def obsession_choice(seat: str, frame: dict[str, Any]) -> str:
    """The first legal move: the deal's first choice, then the lowest cards (blind plays and
    plays from the visible row included)."""
    legal: list[str] = frame["legal"]
    return legal[0]


def test_a_person_plays_a_whole_obsession_game_against_bots(server: Any, browser: Any,
                                                           shots: Path) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    recorder = Recorder("player").attach(page)
    page.goto(server.base + "/")
    page.select_option("#create-game", "obsession")
    page.fill('fieldset[data-game="obsession"] input[name="players"]', "4")
    page.dispatch_event('fieldset[data-game="obsession"] input[name="players"]', "change")
    seats = page.locator("#seat-choices select")
    assert seats.count() == 4
    for index in (1, 2, 3):
        seats.nth(index).select_option("bot:obsessed")
    say_my_name(page)
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/"))
    table = page.url.rsplit("/", 1)[1]
    page.locator("#seat-line").filter(has_text="You are P1").wait_for()

    kinds: set[str] = set()
    chosen = [0]
    varied = random.Random(7)

    def choose(seat: str, frame: dict[str, Any]) -> str:
        # The first legal move each time; after CYCLE_AFTER moves, one at random (seeded), as
        # a person does who sees the game go round (one deal, played so against these bots,
        # went on past 2,000 of the person's moves).
        chosen[0] += 1
        move = (obsession_choice(seat, frame) if chosen[0] <= CYCLE_AFTER
                else varied.choice(frame["legal"]))
        kinds.add(move.split()[0])
        if len(kinds) == 1 and move.startswith("swap"):
            page.screenshot(path=str(shots / "web-obsession-swap.png"), full_page=True)
        return move

    players = {"P1": (page, recorder)}
    made = play_turns(players, choose, click_obsession_move, stop=lambda moves: moves >= 6)
    page.screenshot(path=str(shots / "web-obsession-table.png"), full_page=True)
    made += play_turns(players, choose, click_obsession_move)
    page.locator("#status").filter(has_text="Game over").wait_for()
    assert {"swap", "play"} <= kinds, kinds
    assert made >= 5

    stored = json.loads(page.evaluate(f"localStorage.getItem('cardtable.seat.{table}')"))
    assert stored["seat"] == "P1"
    assert check_no_leak(server.db_url, table, {"P1": stored["token"]}, recorder, "P1") > made

    # The replay: every hand at the deal, the end with the placings.
    page.locator("#after-game a", has_text="Replay").click()
    page.locator("#replay-position").filter(has_text="The deal").wait_for()
    assert page.locator('#hands [data-seat="P2"] .card').count() == 3
    page.keyboard.press("End")
    page.locator("#replay-position").filter(has_text="Game over").wait_for()
    assert recorder.page_errors() == []
