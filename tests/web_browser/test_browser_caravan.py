"""Two people play a whole Caravan game in two browsers, by clicking, while a third watches."""

from __future__ import annotations

import json
import re
from pathlib import Path
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

CHAT = "<b>hi</b> & <script>alert(1)</script>"


def seat_token(page: Any, table: str) -> tuple[str, str]:
    stored = json.loads(page.evaluate(f"localStorage.getItem('cardtable.seat.{table}')"))
    return stored["seat"], stored["token"]


def choose_name(page: Any, base: str, name: str) -> None:
    # An account: games between accounts are rated (a guest's are not).
    page.goto(base + "/account")
    page.fill("#sign-up-name", name)
    page.fill("#sign-up-password", "correct horse battery")
    page.click("#sign-up-form button[type=submit]")
    page.locator("#me b").filter(has_text=name).wait_for()


def test_two_people_play_a_whole_caravan_game_by_clicking(server: Any, browser: Any,
                                                          shots: Path) -> None:
    alice_context = browser.new_context(viewport={"width": 1280, "height": 900})
    bob_context = browser.new_context(viewport={"width": 1280, "height": 900})
    watcher_context = browser.new_context(viewport={"width": 1280, "height": 900})
    alice, bob, watcher = (context.new_page() for context in
                           (alice_context, bob_context, watcher_context))
    recorders = {"alice": Recorder("alice").attach(alice), "bob": Recorder("bob").attach(bob),
                 "watcher": Recorder("watcher").attach(watcher)}
    choose_name(alice, server.base, "Alice")
    choose_name(bob, server.base, "Bob")

    # Alice creates a table from the lobby's form: Caravan, power rules, ABC her, DEF a person.
    alice.goto(server.base + "/")
    alice.select_option('select[name="rules"]', "power")
    alice.locator("#create-form details summary").click()
    alice.select_option('select[name="abc.king_mode"]', "add")
    say_my_name(alice)
    alice.locator("#create-form button[type=submit]").click()
    alice.wait_for_url(re.compile(r"/tables/"))
    table = alice.url.rsplit("/", 1)[1]
    alice.locator("#status").filter(has_text="Waiting").wait_for()

    # Bob finds it among the open tables and sits down.
    bob.goto(server.base + "/")
    row = bob.locator(f'#open-tables tr[data-table="{table}"]')
    row.wait_for()
    assert "abc.king_mode=add" in row.inner_text() and "Alice" in row.inner_text()
    bob.screenshot(path=str(shots / "web-lobby.png"), full_page=True)
    row.locator("button.join").click()
    bob.wait_for_url(re.compile(rf"/tables/{table}$"))
    bob.locator("#seat-line").filter(has_text="You are DEF").wait_for()
    assert bob.get_attribute("#howto-link", "href") == "/howto/caravan/power"
    alice.locator("#players-line").filter(has_text="DEF Bob").wait_for()
    assert "ABC Alice" in alice.inner_text("#players-line")

    # A spectator opens the invite link; both players see them counted.
    watcher.goto(f"{server.base}/tables/{table}")
    watcher.locator("#seat-line").filter(has_text="watching").wait_for()
    alice.locator("#watching").filter(has_text="1 watching").wait_for()
    assert watcher.locator("#move-panel").is_hidden()
    assert watcher.locator("#board .hand").count() == 0

    # Chat is shown as text, never as markup.
    alice.fill("#chat-input", CHAT)
    alice.click("#chat-form button")
    bob.locator("#chat-lines li").filter(has_text="alert(1)").wait_for()
    assert CHAT in bob.locator("#chat-lines li").last.inner_text()
    assert bob.locator("#chat-lines li script, #chat-lines li b b").count() == 0
    watcher.locator("#chat-lines li").filter(has_text="alert(1)").wait_for()
    assert watcher.locator("#chat-form").is_hidden()  # spectators read the chat only

    players = {"ABC": (alice, recorders["alice"]), "DEF": (bob, recorders["bob"])}
    wait_for(alice, lambda: all(rec.latest() and rec.latest()["status"] == "playing"
                                for _page, rec in players.values()), "the game to start")

    # The notation box: an illegal move shows the terminal's message and changes nothing.
    mover = recorders["alice"].latest()["to_move"]
    page = players[mover][0]
    page.fill("#move-input", "D1")
    page.press("#move-input", "Enter")
    page.locator("#move-error").filter(
        has_text="A player cannot discard a card during the Start round.").wait_for()

    def choose(seat: str, frame: dict[str, Any]) -> str:
        return caravan_choice(frame["observation"], frame["legal"], seat)

    # Keyboard only: the same move box plays a legal move.
    frame = players[mover][1].latest()
    move = choose(mover, frame)
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")
    wait_for(page, lambda: players[mover][1].latest()["ply"] == frame["ply"] + 1,
             "the typed move")
    assert page.input_value("#move-input") == ""

    made = play_turns(players, choose, click_caravan_move, stop=lambda moves: moves >= 14)
    alice.screenshot(path=str(shots / "web-caravan-table.png"), full_page=True)
    # Each seat's box shows its counts from the frame, and the list of moves the latest one.
    view = recorders["alice"].latest()["observation"]
    for seat in ("ABC", "DEF"):
        alice.locator(f'.seat-box[data-seat="{seat}"]').filter(
            has_text=f"deck {view['deck_sizes'][seat]} · hand {view['hand_sizes'][seat]}",
        ).wait_for()
    alice.locator("#last-moves li").last.filter(has_text=view["history_text"][-1]).wait_for()
    watcher.locator("#board .caravan").first.wait_for()
    made += play_turns(players, choose, click_caravan_move)
    assert made >= 6

    for page in (alice, bob, watcher):
        page.locator("#status").filter(has_text="Game over").wait_for()
    result = recorders["watcher"].latest()["result"]
    assert result is not None and result["winners"]

    # Every frame and page each browser received: no hidden card, no other seat's token.
    tokens = dict([seat_token(alice, table), seat_token(bob, table)])
    assert set(tokens) == {"ABC", "DEF"}
    for name, seat in (("alice", "ABC"), ("bob", "DEF"), ("watcher", None)):
        assert check_no_leak(server.db_url, table, tokens, recorders[name], seat) > made / 2

    # The finished game: replay it step by step, forward and back.
    watcher.locator("#after-game a", has_text="Replay").click()
    watcher.wait_for_url(re.compile(r"/replay/"))
    watcher.locator("#replay-position").filter(has_text="The deal").wait_for()
    watcher.click("#replay-forward")
    watcher.click("#replay-forward")
    watcher.locator("#replay-position").filter(has_text="Move 2 of").wait_for()
    watcher.click("#replay-back")
    watcher.locator("#replay-position").filter(has_text="Move 1 of").wait_for()
    watcher.keyboard.press("End")
    watcher.locator("#replay-position").filter(has_text="Game over").wait_for()
    watcher.keyboard.press("Home")
    watcher.click("#replay-forward")
    # A finished game hides nothing: the replay shows every hand, as the terminal's does.
    for seat in ("ABC", "DEF"):
        assert watcher.locator(f'#hands [data-seat="{seat}"] .card').count() >= 5
    watcher.screenshot(path=str(shots / "web-replay.png"), full_page=True)
    assert check_no_leak(server.db_url, table, tokens, recorders["watcher"], None) > made / 2

    # The ratings moved for both accounts.
    watcher.goto(server.base + "/leaderboard")
    board = watcher.locator("#leaderboard tbody")
    board.locator("tr", has_text="Alice").wait_for()
    assert re.search(r"Alice\s+\S+\s+1", board.inner_text())
    assert re.search(r"Bob\s+\S+\s+1", board.inner_text())
    bob.goto(server.base + "/leaderboard")
    bob.locator("#leaderboard tbody tr", has_text="Alice").wait_for()
    bob.screenshot(path=str(shots / "web-leaderboard.png"), full_page=True)

    # Rematch: Alice asks, lands on a new table in her seat; Bob follows.
    alice.locator("#rematch").click()
    alice.wait_for_url(lambda url: f"/tables/{table}" not in url and "/tables/" in url)
    alice.locator("#seat-line").filter(has_text="You are ABC").wait_for()
    rematch = alice.url
    bob.goto(f"{server.base}/tables/{table}")
    bob.locator("#rematch").click()
    bob.wait_for_url(rematch)
    bob.locator("#seat-line").filter(has_text="You are DEF").wait_for()
    for page in (alice, bob):
        page.locator("#status").filter(has_text=re.compile("move")).wait_for()
    for name, recorder in recorders.items():
        assert recorder.page_errors() == [], name
