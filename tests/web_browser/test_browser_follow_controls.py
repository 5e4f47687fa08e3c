"""Following a game, its controls: Caravan's clear is a control of its own that asks to be
confirmed; at the end the move controls and the invite go and Rematch, New game and Replay
come; Obsession's result names seats and places; a guest is asked for a name when sitting
down, and no page logs a 404; the Austerity how-to speaks to a player."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .follow import DESKTOP, my_turn, new_table, settled, type_move
from .harness import Recorder, caravan_choice, wait_for


def test_caravan_clear_sits_apart_and_asks_for_confirmation(server: Any, browser: Any,
                                                            shots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    recorder = Recorder("ABC").attach(page)
    new_table(page, server.base, {"game": "caravan", "params": {"rules": "nv"},
                                  "seats": ["human", "bot:random"], "claim": ["ABC"]})
    page.locator("#seat-line").filter(has_text="You are ABC").wait_for()
    clears: list[str] = []
    for _turn in range(40):
        frame = my_turn(page, recorder, "ABC")
        assert not frame.get("result")
        clears = [move for move in frame["legal"] if re.fullmatch(r"C[ABC]", move)]
        if clears:
            break
        type_move(page, recorder, caravan_choice(frame["observation"], frame["legal"], "ABC"))
    assert clears, "no caravan could be cleared"
    name = clears[0][1]
    ply = frame["ply"]

    # No clear inside the caravans (where a click plays a card); the control is apart.
    controls = page.locator("#board .clear-controls")
    controls.wait_for()
    assert page.locator("#board .caravan button", has_text="Clear").count() == 0
    assert page.evaluate("() => document.querySelector('#board .clear-controls')"
                         ".closest('.caravan, .caravan-row') === null")
    # A first click only asks; Cancel goes back; nothing is sent meanwhile.
    controls.locator(f'button[data-clear="{name}"]').click()
    page.locator("#confirm-clear").filter(has_text=f"Confirm clear {name}").wait_for()
    settled(page)
    page.screenshot(path=str(shots / "web-caravan-clear.png"), full_page=True)
    page.click("#cancel-clear")
    controls.locator(f'button[data-clear="{name}"]').wait_for()
    assert page.locator("#confirm-clear").count() == 0
    assert recorder.latest()["ply"] == ply  # type: ignore[index]
    # Asked and confirmed: the caravan is cleared, and the move says so.
    controls.locator(f'button[data-clear="{name}"]').click()
    page.click("#confirm-clear")
    wait_for(page, lambda: recorder.latest()["ply"] > ply, "the clear")  # type: ignore[index]
    page.locator("#last-moves li").filter(
        has_text=re.compile(rf"^You cleared your caravan {name}")).first.wait_for()
    assert recorder.page_errors() == []
    context.close()


def test_the_end_of_a_game_offers_rematch_new_game_and_replay(server: Any,
                                                              browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    recorder = Recorder("A").attach(page)
    # A target of 0 points: the game ends after one round.
    new_table(page, server.base, {"game": "austerity", "params": {"players": 2, "points": 0},
                                  "seats": ["human", "bot:ed"], "claim": ["A"]})
    page.locator("#seat-line").filter(has_text="You are A").wait_for()
    assert page.locator("#move-panel").is_visible()
    frame = my_turn(page, recorder, "A")
    type_move(page, recorder, frame["legal"][0])
    page.locator("#status").filter(has_text="Game over").wait_for()
    after = page.locator("#after-game")
    for label in ("Rematch", "New game", "Replay"):
        after.locator("a, button", has_text=label).first.wait_for()
    assert page.locator("#move-panel").is_hidden()
    assert page.locator("#invite").is_hidden()
    assert page.locator("#board button").count() == 0  # no move to make any more
    assert page.get_attribute("#new-game", "href") == "/#create-form"
    after.locator("a", has_text="Replay").click()
    page.wait_for_url(re.compile(r"/replay/"))
    page.locator("#replay-position").filter(has_text="The deal").wait_for()
    page.keyboard.press("End")
    page.locator("#replay-position").filter(has_text="Game over").wait_for()
    # The replay says each step in words too.
    assert re.search(r"Move \d+ of \d+: (A|B) (took|bought)",
                     page.inner_text("#replay-position"))
    assert recorder.page_errors() == []
    context.close()


def test_obsessions_result_names_seats_and_places(server: Any, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    recorder = Recorder("watcher").attach(page)
    new_table(page, server.base, {"game": "obsession", "params": {"players": 3},
                                  "seats": ["bot:random"] * 3})
    page.locator("#seat-line").filter(has_text="watching").wait_for()
    status = page.locator("#status").filter(has_text="Game over")
    status.wait_for(timeout=120_000)
    text = status.inner_text()
    assert re.fullmatch(r"Game over: 1st P\d, 2nd P\d, 3rd P\d \(\w+\)\.", text.strip()) or \
        re.fullmatch(r"Game over: (1st P\d(, 2nd P\d)?; )?P\d.* still holding cards \(\w+\)\.",
                     text.strip()), text
    assert "[" not in text
    assert recorder.page_errors() == []
    context.close()


def test_a_guest_is_asked_for_a_name_when_sitting_down(server: Any, browser: Any) -> None:
    alice = browser.new_context(viewport=DESKTOP).new_page()
    table, _tokens = new_table(alice, server.base, {
        "game": "caravan", "seats": ["human", "human"], "claim": ["ABC"], "name": "Alice"})
    alice.locator("#seat-line").filter(has_text="You are ABC").wait_for()

    bob = browser.new_context(viewport=DESKTOP).new_page()
    problems: list[str] = []
    bob.on("console", lambda message: problems.append(message.text)
           if message.type == "error" else None)
    bob.on("requestfailed", lambda request: problems.append(f"failed {request.url}"))
    bob.on("response", lambda response: problems.append(f"{response.status} {response.url}")
           if response.status >= 400 else None)
    bob.goto(f"{server.base}/tables/{table}")
    bob.locator(".take-seat", has_text="Take seat DEF").click()
    form = bob.locator("#seat-name-form")
    form.wait_for()
    assert bob.locator("#seat-line").inner_text().strip() == "You are watching."
    bob.fill("#seat-name", "Bob Follows")
    bob.click("#seat-name-sit")
    bob.locator("#seat-line").filter(has_text="You are DEF").wait_for()
    alice.locator("#players-line").filter(has_text="DEF Bob Follows").wait_for()
    assert "a person" not in alice.inner_text("#players-line")

    # Named once, Bob sits at the next table at once.
    other, _tokens = new_table(alice, server.base, {
        "game": "caravan", "seats": ["human", "human"], "claim": ["ABC"], "name": "Alice"})
    bob.goto(f"{server.base}/tables/{other}")
    bob.locator(".take-seat", has_text="Take seat DEF").click()
    bob.locator("#seat-line").filter(has_text="You are DEF").wait_for()
    assert bob.locator("#seat-name-form").count() == 0
    assert problems == [], problems
    alice.context.close()
    bob.context.close()


def test_the_austerity_how_to_speaks_to_a_player(server: Any, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server.base + "/howto/austerity")
    main = page.locator("main")
    headings = main.locator("h2").all_inner_texts()
    assert headings[:4] == ["The goal", "Your turn: do one of three things",
                            "Costs and discounts", "The end"], headings
    text = " ".join(main.inner_text().split())
    for words in ("Take three tokens", "Take a wild", "Buy a card", "one token cheaper",
                  "with wilds only for what you are missing", "the round is played to its end"):
        assert words in text, words
    # The protocol's words come last, for those who type moves, not first.
    assert text.index("take1,1,1,0") > text.index("The end")
    page.close()
