"""The other pages in a real browser: how to play, the lobby's refusals, Austerity tables (a
person against a bot, a table of bots watched), the leaderboard's names and its answers in any
order, a phone's width."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardtable.games.caravan.rules import PRESETS
from cardtable.web import games

from .harness import Recorder, check_no_leak, play_turns, say_my_name, wait_for

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize(("game", "preset"), [
    *(("caravan", name) for name in PRESETS), ("obsession", None), ("austerity", None)])
def test_how_to_play_pages_show_the_terminal_help(server: Any, browser: Any, shots: Path,
                                                  game: str, preset: str | None) -> None:
    page = browser.new_page()
    page.goto(server.base + "/howto")
    link = f"/howto/{game}" + (f"/{preset}" if preset else "")
    page.click(f'a[href="{link}"]')
    page.wait_for_url(re.compile(f"{link}$"))
    text = " ".join(page.inner_text("main").split())
    for line in games.howto(game, preset)["lines"]:
        assert " ".join(line.split()) in text, line
    if preset == "foxon":
        page.screenshot(path=str(shots / "web-howto.png"), full_page=True)
    page.close()


def test_unknown_how_to_play_page_is_a_404(server: Any, browser: Any) -> None:
    page = browser.new_page()
    answer = page.goto(server.base + "/howto/caravan/nonsense")
    assert answer is not None and answer.status == 404
    assert "Unknown preset" in page.inner_text("body")
    page.close()


def test_the_lobby_shows_the_servers_refusal(server: Any, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server.base + "/")
    page.locator("#create-form details summary").click()
    page.fill('input[name="abc.max_faces"]', "0")
    say_my_name(page)
    page.locator("#create-form button[type=submit]").click()
    page.locator("#create-error").filter(
        has_text="Invalid value '0' for rule field 'max_faces'").wait_for()
    assert "/tables/" not in page.url
    page.close()


def test_a_leaderboard_name_is_checked_and_kept(server: Any, browser: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.base + "/leaderboard")
    page.fill("#name-input", "<Zed>")
    page.click("#name-form button[type=submit]")
    page.locator("#name-error").filter(has_text="A name is 1 to 20").wait_for()
    page.fill("#name-input", "Zed")
    page.click("#name-form button[type=submit]")
    page.locator("#me b").filter(has_text="Zed").wait_for()
    page.goto(server.base + "/")
    page.locator("#me b").filter(has_text="Zed").wait_for()
    other = browser.new_context().new_page()
    other.goto(server.base + "/leaderboard")
    other.fill("#name-input", "Zed")
    other.click("#name-form button[type=submit]")
    other.locator("#name-error").filter(has_text="taken").wait_for()
    context.close()
    other.context.close()


ANSWERS_READ = """
window.boardsRead = 0;
const readJson = Response.prototype.json;
Response.prototype.json = function () {
  const reading = readJson.call(this);
  // Counted a task later, once the page's own code has taken the answer (its awaits are
  // microtasks, which all run before the next task).
  if (this.url.includes("/api/leaderboard/")) {
    reading.finally(() => setTimeout(() => { window.boardsRead += 1; }, 0));
  }
  return reading;
};
"""


def test_the_leaderboard_shows_the_game_chosen_last_whatever_order_the_answers_come_in(
        server: Any, browser: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(ANSWERS_READ)
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/api/leaderboard/**", hold_the_first)
    page.goto(server.base + "/leaderboard")
    wait_for(page, lambda: bool(held), "the page to ask for the first board")
    games = page.eval_on_selector_all("#board-game option",
                                      "(options) => options.map((option) => option.value)")
    first = page.eval_on_selector("#board-game", "(select) => select.value")
    chosen = next(game for game in games if game != first)
    assert held[0].request.url.endswith(f"/api/leaderboard/{first}")
    page.select_option("#board-game", chosen)
    page.wait_for_function("() => window.boardsRead === 1")
    board = page.locator("#leaderboard tbody")
    assert "No rated games yet" in board.inner_text()
    # The first board's answer comes last, naming somebody: the page drops it.
    stale = {"game": first, "players": [
        {"name": "Stale", "rating": 1500, "mu": 25.0, "sigma": 8.3, "games": 1}]}
    held[0].fulfill(status=200, content_type="application/json", body=json.dumps(stale))
    page.wait_for_function("() => window.boardsRead === 2")
    assert "Stale" not in board.inner_text()
    assert "No rated games yet" in board.inner_text()
    assert page.eval_on_selector("#board-game", "(select) => select.value") == chosen
    context.close()


def create_from_lobby(page: Any, base: str, game: str, seats: list[str]) -> str:
    page.goto(base + "/")
    page.select_option("#create-game", game)
    if game != "caravan":
        players = page.locator(f'fieldset[data-game="{game}"] input[name="players"]')
        players.fill(str(len(seats)))
        players.dispatch_event("change")
    choices = page.locator("#seat-choices select")
    assert choices.count() == len(seats)
    for index, kind in enumerate(seats):
        choices.nth(index).select_option(kind)
    say_my_name(page)
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/"))
    return str(page.url.rsplit("/", 1)[1])


def click_austerity_move(page: Any, move: str) -> None:
    if move.startswith("purchase"):
        index = move[len("purchase"):].split(":")[0]
        page.locator(f'#board button.market-card[data-index="{index}"]').click()
    else:
        page.locator("#board button.take").filter(
            has_text="Take a wild" if move == "wild" else re.compile(r"^Take [PBYR]{3}$")
        ).first.click()


def test_a_person_plays_austerity_against_a_bot(server: Any, browser: Any, shots: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    recorder = Recorder("austerity").attach(page)
    table = create_from_lobby(page, server.base, "austerity", ["human", "bot:shenzi"])
    page.locator("#seat-line").filter(has_text="You are A").wait_for()
    bought: list[str] = []

    def choose(seat: str, frame: dict[str, Any]) -> str:
        legal: list[str] = frame["legal"]
        purchases = [move for move in legal if move.startswith("purchase")]
        move = purchases[0] if purchases else legal[0]
        if move.startswith("purchase"):
            bought.append(move)
        return move

    players = {"A": (page, recorder)}
    made = play_turns(players, choose, click_austerity_move,
                      stop=lambda moves: len(bought) >= 2 or moves >= 12)
    page.screenshot(path=str(shots / "web-austerity-table.png"), full_page=True)
    assert made >= 3 and bought
    points = page.locator('#board tr[data-seat="A"] td').nth(1).inner_text()
    assert int(points) >= 0
    token = page.evaluate(f"JSON.parse(localStorage.getItem('cardtable.seat.{table}')).token")
    assert check_no_leak(server.db_url, table, {"A": token}, recorder, "A") >= made
    assert recorder.page_errors() == []


def test_a_table_of_bots_is_watched_to_the_end(server: Any, browser: Any) -> None:
    page = browser.new_page()
    recorder = Recorder("watcher").attach(page)
    table = create_from_lobby(page, server.base, "austerity",
                              ["bot:shenzi", "bot:banzai", "bot:ed"])
    page.locator("#seat-line").filter(has_text="watching").wait_for()
    page.locator("#status").filter(has_text="Game over").wait_for()
    assert page.locator("#board tbody tr").count() == 3
    assert check_no_leak(server.db_url, table, {}, recorder, None) >= 1
    params = page.evaluate(f"fetch('/api/tables/{table}').then((r) => r.json())")["params"]
    assert params["deal"] == "shuffled"


def test_pages_fit_a_phones_width(server: Any, browser: Any, shots: Path) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto(server.base + "/")
    page.locator("#open-tables tbody tr").first.wait_for()
    width = "document.documentElement.scrollWidth <= window.innerWidth + 1"
    assert page.evaluate(width)
    table = create_from_lobby(page, server.base, "caravan", ["human", "bot:normal"])
    recorder = Recorder("phone").attach(page)
    page.reload()
    page.locator("#board .hand .card").first.wait_for()
    wait_for(page, lambda: bool(recorder.latest() and recorder.latest()["legal"]), "a move")
    page.locator("#board .hand .card").first.tap()
    assert page.evaluate(width)
    page.screenshot(path=str(shots / "web-phone.png"), full_page=True)
    watched = []
    for game, seats in (("obsession", ["bot:random"] * 6), ("austerity", ["bot:shenzi"] * 4)):
        watched.append(create_from_lobby(page, server.base, game, seats))
        # Bots without a delay may end the game before the page draws: a finished
        # Obsession board can hold no card at all, so wait for the board itself.
        page.locator(f"#board .{game}-board").wait_for()
        assert page.evaluate(width), game
    for path in ("/howto/caravan/foxon", "/leaderboard", f"/tables/{table}",
                 *(f"/replay/{other}" for other in watched)):
        page.goto(server.base + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate(width), path
    context.close()


def test_a_turn_timer_counts_down_on_the_table(server: Any, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server.base + "/")
    page.select_option('select[name="turn_timer"]', "60")
    page.locator("#seat-choices select").nth(1).select_option("bot:random")
    say_my_name(page)
    page.locator("#create-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/"))
    timer = page.locator("#timer")
    timer.filter(has_text=re.compile(r"^ · [01]:\d\d left$")).wait_for()
    first = timer.inner_text()
    wait_for(page, lambda: timer.inner_text() != first, "the timer to count down")
    page.close()


def test_a_private_table_without_spectators_is_joined_by_its_link(server: Any,
                                                                  browser: Any) -> None:
    alice = browser.new_context().new_page()
    alice.goto(server.base + "/")
    alice.uncheck('input[name="spectators"]')
    alice.check('input[name="private"]')
    say_my_name(alice)
    alice.locator("#create-form button[type=submit]").click()
    alice.wait_for_url(re.compile(r"/tables/"))
    table = alice.url.rsplit("/", 1)[1]
    alice.locator("#invite[open]").wait_for()
    link = alice.input_value("#invite-link")
    assert link == f"{server.base}/tables/{table}"

    bob = browser.new_context().new_page()
    recorder = Recorder("bob").attach(bob)
    bob.goto(server.base + "/")
    bob.locator("#open-tables tbody tr").first.wait_for()
    assert bob.locator(f'#open-tables tr[data-table="{table}"]').count() == 0
    bob.goto(link)
    bob.locator("#status").filter(has_text="This table has no spectators.").wait_for()
    assert recorder.states() == []
    bob.locator(".take-seat", has_text="Take seat DEF").click()
    bob.fill("#seat-name", "Bob")  # a guest is asked for a name when sitting down
    bob.click("#seat-name-sit")
    bob.locator("#seat-line").filter(has_text="You are DEF").wait_for()
    for page in (alice, bob):
        page.locator("#status").filter(has_text=re.compile("move")).wait_for()
    stored = f"JSON.parse(localStorage.getItem('cardtable.seat.{table}')).token"
    tokens = {"ABC": alice.evaluate(stored), "DEF": bob.evaluate(stored)}
    assert check_no_leak(server.db_url, table, tokens, recorder, "DEF") >= 1
    alice.context.close()
    bob.context.close()
