"""Following a game: the last move is said in words above the board and its cards are marked
on it, in every game, for a seat ("You", "your") and for a spectator; the history panel lists
the moves in words; a new move is animated, except under prefers-reduced-motion."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .follow import DESKTOP, PHONE, my_turn, new_table, settled, shown_last_move, type_move
from .harness import Recorder, caravan_choice, check_no_leak, wait_for


def marked_ids(page: Any) -> list[str]:
    return list(page.evaluate(
        "() => [...document.querySelectorAll('#board .last-moved')]"
        ".map((node) => node.dataset.id || node.dataset.index)"))


def history_panel(page: Any) -> list[str]:
    return list(page.locator("#last-moves li").all_inner_texts())


def watch(browser: Any, base: str, table: str, viewport: dict[str, int]) -> tuple[Any, Recorder]:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    recorder = Recorder("watcher").attach(page)
    page.goto(f"{base}/tables/{table}")
    page.locator("#seat-line").filter(has_text="watching").wait_for()
    return page, recorder


def test_caravan_last_move_is_said_and_its_cards_marked(server: Any, browser: Any,
                                                        shots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    recorder = Recorder("ABC").attach(page)
    table, tokens = new_table(page, server.base, {
        "game": "caravan", "seats": ["human", "bot:random"], "claim": ["ABC"]})
    page.locator("#seat-line").filter(has_text="You are ABC").wait_for()
    seen_bot_play = False
    for _turn in range(12):
        frame = my_turn(page, recorder, "ABC")
        if frame.get("result"):
            break
        if frame["ply"] >= 2:
            last = shown_last_move(page, recorder)
            assert last["seat"] == "DEF" and last["text"].startswith("DEF ")
            assert "You" not in last["text"]
            marked = marked_ids(page)
            assert set(last["cards"]) <= set(marked)
            if last["cards"] and " played " in last["text"]:
                seen_bot_play = True
                assert page.locator('#board .seat-box[data-seat="DEF"].last-mover').count() == 1
            words = frame["observation"]["history_text"]
            assert history_panel(page)[-len(words):] == words
            if seen_bot_play and frame["ply"] >= 4:
                break
        move = caravan_choice(frame["observation"], frame["legal"], "ABC")
        after = type_move(page, recorder, move)
        # The bot may have answered already: our move is in the history, in words.
        said = after["observation"]["history_text"]
        assert any(text.startswith("You ") for text in said), said
        page.locator("#last-moves li").filter(has_text="You ").first.wait_for()
    assert seen_bot_play
    settled(page)
    page.screenshot(path=str(shots / "web-last-move-caravan.png"), full_page=True)

    # A spectator on a phone: the same move, named by its seat, never "you".
    phone, watcher = watch(browser, server.base, table, PHONE)
    last = shown_last_move(phone, watcher)
    assert "You" not in last["text"] and "your" not in last["text"]
    assert phone.locator("#last-move").is_visible()
    settled(phone)
    phone.screenshot(path=str(shots / "web-last-move-caravan-phone.png"), full_page=True)
    assert check_no_leak(server.db_url, table, tokens, recorder, "ABC") >= 1
    assert check_no_leak(server.db_url, table, tokens, watcher, None) >= 1
    assert recorder.page_errors() == [] and watcher.page_errors() == []
    context.close()
    phone.context.close()


def test_obsession_last_move_is_said_and_the_pile_cards_marked(server: Any, browser: Any,
                                                               shots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    recorder = Recorder("P1").attach(page)
    table, tokens = new_table(page, server.base, {
        "game": "obsession", "params": {"players": 3},
        "seats": ["human", "bot:random", "bot:random"], "claim": ["P1"]})
    page.locator("#seat-line").filter(has_text="You are P1").wait_for()
    marked_pile = False
    for _turn in range(60):
        frame = my_turn(page, recorder, "P1")
        if frame.get("result"):
            break
        last = frame["observation"]["last_move"]
        if last is not None:
            last = shown_last_move(page, recorder)
            words = frame["observation"]["history_text"]
            assert history_panel(page)[-len(words):] == words
            if last["cards"] and last["seat"] != "P1":
                assert set(last["cards"]) <= set(marked_ids(page))
                assert page.locator("#board .pile-box .card.last-moved").count() >= 1
                assert page.locator(
                    f'#board .player[data-seat="{last["seat"]}"].last-mover').count() == 1
                marked_pile = True
                break
        type_move(page, recorder, frame["legal"][0])
    assert marked_pile
    settled(page)
    page.screenshot(path=str(shots / "web-last-move-obsession.png"), full_page=True)
    phone, watcher = watch(browser, server.base, table, PHONE)
    last = shown_last_move(phone, watcher)
    assert "You" not in last["text"]
    settled(phone)
    phone.screenshot(path=str(shots / "web-last-move-obsession-phone.png"), full_page=True)
    assert check_no_leak(server.db_url, table, tokens, recorder, "P1") >= 1
    assert check_no_leak(server.db_url, table, tokens, watcher, None) >= 1
    assert recorder.page_errors() == [] and watcher.page_errors() == []
    context.close()
    phone.context.close()


def test_austerity_last_move_is_said_and_marked(server: Any, browser: Any,
                                                shots: Path) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    recorder = Recorder("A").attach(page)
    table, tokens = new_table(page, server.base, {
        "game": "austerity", "params": {"players": 2, "deal": "shuffled", "points": 30},
        "seats": ["human", "bot:shenzi"], "claim": ["A"]})
    page.locator("#seat-line").filter(has_text="You are A").wait_for()
    bought = False
    for _turn in range(30):
        frame = my_turn(page, recorder, "A")
        if frame.get("result"):
            break
        if frame["ply"] >= 1:
            last = shown_last_move(page, recorder)
            assert last["seat"] == "B"
            page.locator('#board tr[data-seat="B"].last-mover').wait_for()
            words = frame["observation"]["history_text"]
            assert history_panel(page)[-len(words):] == words
            if last["text"].startswith("B bought a ") and last["market"] is not None:
                assert marked_ids(page) == [str(last["market"])]
                bought = True
                break
        # Take tokens while we can, so that the bot has the market to itself.
        takes = [move for move in frame["legal"] if move.startswith("take")]
        after = type_move(page, recorder, (takes or frame["legal"])[0])
        assert any(text.startswith("You took") for text in
                   after["observation"]["history_text"])
        page.locator("#last-moves li").filter(has_text="You took").first.wait_for()
    assert bought
    settled(page)
    page.screenshot(path=str(shots / "web-last-move-austerity.png"), full_page=True)
    phone, watcher = watch(browser, server.base, table, PHONE)
    last = shown_last_move(phone, watcher)
    assert not last["text"].startswith("You")
    settled(phone)
    phone.screenshot(path=str(shots / "web-last-move-austerity-phone.png"), full_page=True)
    assert check_no_leak(server.db_url, table, tokens, recorder, "A") >= 1
    assert recorder.page_errors() == [] and watcher.page_errors() == []
    context.close()
    phone.context.close()


def animation_after_a_move(browser: Any, base: str, reduced: bool) -> str:
    """The animation a new last move gets, in a browser that asks for reduced motion or not."""
    context = browser.new_context(viewport=DESKTOP,
                                  reduced_motion="reduce" if reduced else "no-preference")
    page = context.new_page()
    recorder = Recorder("A").attach(page)
    new_table(page, base, {"game": "austerity", "params": {"players": 2, "points": 30},
                           "seats": ["human", "bot:ed"], "claim": ["A"]})
    page.locator("#seat-line").filter(has_text="You are A").wait_for()
    frame = my_turn(page, recorder, "A")
    # Found on opening, a last move is not animated (there is none yet at the deal).
    assert page.locator("#last-move.fresh").count() == 0
    type_move(page, recorder, frame["legal"][-1])  # a wild; the bot answers at once
    my_turn(page, recorder, "A")
    shown_last_move(page, recorder)
    page.locator("#last-move.fresh").wait_for()
    wait_for(page, lambda: page.locator("#board .last-mover").count() == 1, "the mover marked")
    name = str(page.evaluate(
        "() => getComputedStyle(document.getElementById('last-move')).animationName"))
    assert recorder.page_errors() == []
    context.close()
    return name


def test_a_new_last_move_is_animated_unless_motion_is_reduced(server: Any,
                                                              browser: Any) -> None:
    assert animation_after_a_move(browser, server.base, reduced=False) == "last-move-flash"
    assert animation_after_a_move(browser, server.base, reduced=True) == "none"
