"""The generic table page in a real browser: a game the server knows only through its
description (the tiny test game, registered in the server's process) is created from the
lobby, played by clicking its legal-move buttons against a bot, watched by a spectator, and
replayed. Every frame each page receives is checked: no hidden card, the legal moves only to
the seat to move."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, running_server
from .harness import Recorder, play_turns, say_my_name, wait_for
from .tiny_game import DECK, NAME, SEATS, TinyGame, hidden_ids

SERVER_SCRIPT = Path(__file__).with_name("tiny_game_server.py")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from running_server(tmp_path_factory, program=(str(SERVER_SCRIPT),))


def truth_at(params: dict[str, Any], seed: int, moves: list[str], ply: int) -> Any:
    state = TinyGame(params.get("rounds", 2)).new_state(seed)
    for move in moves[:ply]:
        state.apply(move)
    return state


def check_frames(server: Server, table: str, recorder: Recorder, viewer: str | None) -> int:
    """Every state frame ``viewer``'s page got, against the game replayed from the database."""
    from cardtable.web.store import Store

    store = Store(server.db_url)
    try:
        row = store.table(table)
        assert row is not None
        moves = [move for _seat, move in store.moves(table)]
    finally:
        store.close()
    checked = 0
    for frame in recorder.states():
        assert frame["seat"] == viewer
        state = truth_at(row.params, row.seed, moves, frame["ply"])
        text = str(frame)
        for card in hidden_ids(state, viewer):
            assert f"'{card}'" not in text, (viewer, frame)
        if frame["result"] is None and frame["to_move"] != viewer:
            assert frame["legal"] == [], (viewer, frame)
        checked += 1
    return checked


def click_move(page: Any, move: str) -> None:
    page.locator("#board .legal-moves button.move", has_text=re.compile(f"^{move}$")).click()


def test_a_person_plays_the_generic_page_to_the_end(server: Server, browser: Any,
                                                   shots: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    recorder = Recorder("north").attach(page)
    page.goto(server.base + "/")
    page.select_option("#create-game", NAME)
    page.locator(f'fieldset[data-game="{NAME}"]').wait_for()
    page.fill(f'fieldset[data-game="{NAME}"] input[name="rounds"]', "3")
    choices = page.locator("#seat-choices select")
    assert choices.count() == 2
    assert [label.split()[0] for label in
            page.locator("#seat-choices label").all_inner_texts()] == list(SEATS)
    choices.nth(1).select_option("bot:random")
    say_my_name(page)
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/"))
    table = page.url.rsplit("/", 1)[1]
    page.locator("#seat-line").filter(has_text="You are North").wait_for()
    assert page.inner_text("#table-title") == f"Tiny duel · table {table}"

    # The seat's view laid out: keys and values, the card as its text, whose turn it is.
    board = page.locator("#board")
    board.locator("dl.view").first.wait_for()
    wait_for(page, lambda: bool(recorder.latest() and recorder.latest()["legal"]), "my turn")
    latest = recorder.latest()
    assert latest is not None
    mine = latest["observation"]["your_card"]["card"]
    assert mine in DECK
    assert board.locator('dd[data-key="your_card"] .card-text').inner_text() == mine
    assert "your card" in board.locator("dt").all_inner_texts()
    assert "North (you) to move." in board.inner_text()
    assert sorted(board.locator(".legal-moves button.move").all_inner_texts()) == [
        "hold", "raise"]
    assert "{" not in board.inner_text()  # laid out, not a JSON dump
    page.screenshot(path=str(shots / "web-generic-table.png"), full_page=True)

    # A spectator sees the public view: no card, no moves.
    watcher = browser.new_page()
    watched = Recorder("watcher").attach(watcher)
    watcher.goto(f"{server.base}/tables/{table}")
    watcher.locator("#seat-line").filter(has_text="watching").wait_for()
    watcher.locator("#board dl.view").first.wait_for()
    assert watcher.locator("#board .legal-moves").count() == 0
    assert watcher.locator("#board .card-text").count() == 0

    made = play_turns({"North": (page, recorder)}, lambda seat, frame: "raise", click_move)
    assert made == 3
    page.locator("#status").filter(has_text="Game over").wait_for()
    final = recorder.latest()
    assert final is not None and final["result"]["reason"] == "showdown"
    moves = page.locator("#last-moves li").all_inner_texts()
    assert moves[0] == "North: raise" and len(moves) == 6
    assert all(re.fullmatch(r"(North|South): (raise|hold)", line) for line in moves)
    # At the end both cards are shown, as text.
    assert page.locator("#board .card-text").count() >= 2
    watcher.locator("#status").filter(has_text="Game over").wait_for()
    assert check_frames(server, table, recorder, "North") > made
    assert check_frames(server, table, watched, None) >= 1
    assert recorder.page_errors() == [] and watched.page_errors() == []

    # The replay: the deal, every move, every seat's view.
    page.locator("#after-game a", has_text="Replay").click()
    page.wait_for_url(re.compile(rf"/replay/{table}$"))
    replay = page.locator("#replay-page")
    wait_for(page, lambda: replay.get_attribute("data-position") == "0", "the replay")
    assert page.inner_text("#hands-title") == "Every seat's view"
    for seat in SEATS:
        assert page.locator(f'#hands .seat-view[data-seat="{seat}"] .card-text').count() >= 1
    page.click("#replay-last")
    wait_for(page, lambda: replay.get_attribute("data-position") == "6", "the end")
    assert "Game over" in page.inner_text("#replay-position")
    assert recorder.page_errors() == []
    watcher.close()
    page.close()


def test_the_how_to_page_of_a_game_without_a_page_of_its_own(server: Server,
                                                            browser: Any) -> None:
    page = browser.new_page()
    page.goto(server.base + "/howto")
    page.click(f'a[href="/howto/{NAME}"]')
    page.wait_for_url(re.compile(f"/howto/{NAME}$"))
    text = page.inner_text("main")
    assert "How to play Tiny duel" in text and "Moves: raise or hold." in text
    assert "legal moves are buttons" in text
    page.close()
