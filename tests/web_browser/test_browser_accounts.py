"""Accounts in a real browser: two people sign up on the account page (one signs out and back
in, a wrong password shown first), play a game against each other in two browsers, find it
rated on the leaderboard and listed on their person page, and open its replay from there."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Server, running_server
from .harness import Recorder, play_turns, say_my_name
from .tiny_game import NAME

SERVER_SCRIPT = Path(__file__).with_name("tiny_game_server.py")
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # The tiny test game: a rated game is two clicks long.
    yield from running_server(tmp_path_factory, program=(str(SERVER_SCRIPT),))


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(base + "/account")
    page.fill("#sign-up-name", name)
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up-form button[type=submit]")
    page.locator("#signed-in-name").filter(has_text=name).wait_for()
    page.locator("#me").filter(has_text=f"Signed in as {name}").wait_for()


def click_move(page: Any, move: str) -> None:
    page.locator("#board .legal-moves button.move", has_text=re.compile(f"^{move}$")).click()


def test_two_accounts_play_a_rated_game_and_find_it_on_their_pages(
        server: Server, browser: Any, shots: Path) -> None:
    ann_context = browser.new_context(viewport={"width": 1280, "height": 900})
    bob_context = browser.new_context(viewport={"width": 1280, "height": 900})
    ann, bob = ann_context.new_page(), bob_context.new_page()
    recorders = {"ann": Recorder("ann").attach(ann), "bob": Recorder("bob").attach(bob)}

    sign_up(ann, server.base, "Ann")
    assert ann.locator("#sign-up-form").is_hidden()
    assert ann.get_attribute("#me a", "href") == "/people/Ann"
    # Signing out ends the session; a wrong password is refused; the right one signs in.
    ann.click("#sign-out")
    ann.locator("#sign-in-form").wait_for()
    assert "Ann" not in ann.inner_text("#me")
    ann.fill("#sign-in-name", "Ann")
    ann.fill("#sign-in-password", "not the password")
    ann.click("#sign-in-form button[type=submit]")
    ann.locator("#sign-in-error").filter(has_text="Wrong name or password.").wait_for()
    ann.screenshot(path=str(shots / "web-account.png"), full_page=True)
    ann.fill("#sign-in-password", PASSWORD)
    ann.click("#sign-in-form button[type=submit]")
    ann.locator("#signed-in-name").filter(has_text="Ann").wait_for()
    sign_up(bob, server.base, "Bob")
    # The name is taken now, whatever its case.
    other = browser.new_context().new_page()
    other.goto(server.base + "/account")
    other.fill("#sign-up-name", "ANN")
    other.fill("#sign-up-password", PASSWORD)
    other.click("#sign-up-form button[type=submit]")
    other.locator("#sign-up-error").filter(has_text="The name 'ANN' is taken.").wait_for()
    other.context.close()

    # Ann opens a table of the tiny game for two people; Bob joins it from the lobby.
    ann.goto(server.base + "/")
    ann.select_option("#create-game", NAME)
    ann.locator(f'fieldset[data-game="{NAME}"]').wait_for()
    ann.fill(f'fieldset[data-game="{NAME}"] input[name="rounds"]', "1")
    ann.locator("#seat-choices select").nth(1).select_option("human")
    say_my_name(ann)
    ann.locator("#create-form button[type=submit]").click()
    ann.wait_for_url(re.compile(r"/tables/"))
    table = ann.url.rsplit("/", 1)[1]
    bob.goto(server.base + "/")
    row = bob.locator(f'#open-tables tr[data-table="{table}"]')
    row.wait_for()
    assert "Ann" in row.inner_text()
    row.locator("button.join").click()
    bob.wait_for_url(re.compile(rf"/tables/{table}$"))
    bob.locator("#seat-line").filter(has_text="You are South").wait_for()

    players = {"North": (ann, recorders["ann"]), "South": (bob, recorders["bob"])}
    assert play_turns(players, lambda seat, frame: "raise", click_move) == 2
    for page in (ann, bob):
        page.locator("#status").filter(has_text="Game over").wait_for()
    result = recorders["ann"].latest()
    assert result is not None and result["result"] is not None
    winner = {"North": "Ann", "South": "Bob"}[result["result"]["winners"][0]]

    # The leaderboard lists both accounts, the winner first; a name leads to its page.
    bob.goto(server.base + "/leaderboard")
    bob.select_option("#board-game", NAME)
    board = bob.locator("#leaderboard tbody")
    board.locator("tr", has_text="Ann").wait_for()
    board.locator("tr", has_text="Bob").wait_for()
    assert board.locator("tr").first.locator("a").inner_text() == winner
    assert re.search(r"Ann\s+\S+\s+1", board.inner_text())
    bob.locator("#name-form").wait_for(state="hidden")  # no guest's name for an account
    board.locator("a", has_text="Ann").click()
    bob.wait_for_url(re.compile(r"/people/Ann$"))
    assert bob.inner_text("#person-name") == "Ann"
    games = bob.locator("#games tbody tr")
    assert games.count() == 1
    assert "South Bob" in games.first.inner_text()
    assert bob.locator("#ratings tbody tr").count() == 1
    assert bob.locator("figure.rating-chart svg polyline, figure.rating-chart svg circle"
                       ).count() >= 1
    bob.screenshot(path=str(shots / "web-person.png"), full_page=True)
    games.first.locator("a.replay-link").click()
    bob.wait_for_url(re.compile(rf"/replay/{table}$"))
    bob.locator("#replay-page").wait_for()
    for name, recorder in recorders.items():
        assert recorder.page_errors() == [], name
    ann_context.close()
    bob_context.close()


def test_a_phone_sees_the_person_page(server: Server, browser: Any, shots: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_up(page, server.base, "Cy")
    page.click("#me a")
    page.wait_for_url(re.compile(r"/people/Cy$"))
    page.locator("#games, .person .hint").first.wait_for()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1, width
    page.screenshot(path=str(shots / "web-person-phone.png"), full_page=True)
    context.close()
