"""What the browser tests share: a recorder of everything a browser page receives, the no-leak
check of those frames and pages, and the moves a test player picks and clicks.

The no-leak check is the API tests' (``tests/web/webplay.py``): it rebuilds each game from the
database (rules, seed, seat kinds, stored moves) at the ply a frame was sent and lists what
the viewer may not see from the raw state (other seats' hands, every deck and draw pile,
hidden rows, hidden opening cards); no such card and no other seat's token may appear in any
frame or response a page receives.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardtable.web.store import Store
from web.webplay import LeakChecker

Json = dict[str, Any]
MOVE_TIMEOUT = 60.0


# --------------------------------------------------------------------------- recording


@dataclass
class Recorder:
    """Every WebSocket frame (parsed) and every document or API response body a page gets."""

    label: str
    frames: list[Json] = field(default_factory=list)
    bodies: list[tuple[str, str]] = field(default_factory=list)

    def attach(self, page: Any) -> Recorder:
        page.on("websocket", self._socket)
        page.on("response", self._response)
        page.on("pageerror", lambda error: self.bodies.append(("pageerror", str(error))))
        return self

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", self._frame)

    def _frame(self, payload: Any) -> None:
        text = payload if isinstance(payload, str) else payload.decode("utf-8")
        self.frames.append(json.loads(text))

    def _response(self, response: Any) -> None:
        if response.request.resource_type not in ("document", "fetch", "xhr"):
            return
        # A body gone with a navigation has nothing left to check.
        with contextlib.suppress(Exception):
            self.bodies.append((response.url, response.text()))

    def page_errors(self) -> list[str]:
        return [text for url, text in self.bodies if url == "pageerror"]

    def states(self) -> list[Json]:
        return [frame for frame in self.frames if frame.get("type") == "state"]

    def latest(self) -> Json | None:
        states = self.states()
        return states[-1] if states else None


def say_my_name(page: Any) -> None:
    """Fill in the lobby's "Your name" (a guest is asked for one before sitting down; a page
    whose browser has a name already ignores it). Each call gives a new name."""
    page.locator("#lobby-name").wait_for(state="attached")
    name = f"Guest {secrets.token_hex(3)}"
    page.eval_on_selector("#lobby-name", "(input, name) => { input.value = name; }", name)


def wait_for(page: Any, condition: Callable[[], bool], what: str,
             timeout: float = MOVE_TIMEOUT) -> None:
    """Let the page's events run until ``condition`` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(20)


# --------------------------------------------------------------------------- no leak


def check_no_leak(db_url: str, table: str, tokens: dict[str, str], recorder: Recorder,
                  viewer: str | None) -> int:
    """Check everything ``recorder`` received as ``viewer`` (a seat, or None for a spectator)
    with the API tests' leak checker (``tests/web/webplay.py``): every WebSocket frame in
    order, every page and API response for tokens, and each public view a response holds
    (the table's page data, a replay's frames) at its ply. Returns how many views were checked.
    """
    store = Store(db_url)
    try:
        frames = LeakChecker(store, table, viewer, tokens)
        for frame in recorder.frames:
            if frame.get("type") == "state" and frame.get("table") != table:
                continue
            if frame.get("type") == "state":
                assert frame["seat"] == viewer, (frame["seat"], viewer)
            frames.check(frame)
        checked = sum(1 for frame in recorder.frames if frame.get("type") == "state"
                      and frame.get("table") == table)
        for url, body in recorder.bodies:
            frames.check_text(body)
            if url.endswith(f"/api/tables/{table}"):
                data = json.loads(body)
                LeakChecker(store, table, None, tokens).check_page(data["observation"],
                                                                    data["ply"])
                checked += 1
            elif url.endswith(f"/api/tables/{table}/replay"):
                replay = LeakChecker(store, table, None, tokens)
                for ply, view in enumerate(json.loads(body)["frames"]):
                    replay.check_page(view, ply)
                    checked += 1
        return checked
    finally:
        store.close()


# --------------------------------------------------------------------------- playing


NUMERAL_VALUES = {"A": 1, **{str(n): n for n in range(2, 11)}}
PLAY = re.compile(r"^P(\d+)([A-F])(\d+)?$")
DISCARD = re.compile(r"^D(\d+)$")
CLEAR = re.compile(r"^C([A-F])(\d+)?$")


def caravan_choice(view: Json, legal: list[str], seat: str) -> str:
    """A move that ends the game soon: a numeral that brings one of our caravans towards a
    sale without going bust, else a discard (face cards first), else the first legal move."""
    caravans = {caravan["name"]: caravan for caravan in view["caravans"]}
    hand = view["hand"]
    best: tuple[int, str] | None = None
    for move in legal:
        match = PLAY.match(move)
        if not match or match.group(3):
            continue
        card = hand[int(match.group(1)) - 1]["card"]
        caravan = caravans[match.group(2)]
        value = NUMERAL_VALUES.get(card[:-1])
        if value is None or caravan["owner"] != seat or caravan["value"] is None:
            continue
        if caravan["sold"]:
            continue
        total = caravan["value"] + value
        score = 100 + total if 21 <= total <= 26 else total if total < 21 else -1
        if score >= 0 and (best is None or score > best[0]):
            best = (score, move)
    if best is not None:
        return best[1]
    discards = [move for move in legal if DISCARD.match(move)]
    faces = [move for move in discards
             if NUMERAL_VALUES.get(hand[int(move[1:]) - 1]["card"][:-1]) is None]
    if faces or discards:
        return (faces or discards)[0]
    return legal[0]


def click_caravan_move(page: Any, move: str) -> None:
    """Play ``move`` with the mouse: a hand card, then a caravan, a card in one, or a button."""
    board = page.locator("#board")
    match = PLAY.match(move)
    if match:
        board.locator(f'.hand .card[data-index="{match.group(1)}"]').click()
        caravan = board.locator(f'.caravan[data-caravan="{match.group(2)}"]')
        if match.group(3):
            caravan.locator(f'.slot[data-slot="{match.group(3)}"] > .card').first.click()
        else:
            caravan.locator(".caravan-head b").click()  # the caravan's name: not a button
        return
    match = DISCARD.match(move)
    if match:
        board.locator(f'.hand .card[data-index="{match.group(1)}"]').click()
        board.locator("#discard").click()
        return
    match = CLEAR.match(move)
    if match:
        if match.group(2):
            board.locator(f'.hand .card[data-index="{match.group(2)}"]').click()
        board.locator(f'.clear-controls button[data-clear="{match.group(1)}"]').click()
        board.locator("#confirm-clear").click()  # clearing asks to be confirmed
        return
    raise AssertionError(f"no click for the move {move!r}")


def click_obsession_move(page: Any, move: str) -> None:
    """Select the cards of ``move`` (``play 9C 9H``, ``swap 3C 5D KS``) and press the play
    button, or click a hidden card (``blind 2``)."""
    mine = page.locator("#board .mine")
    kind, *words = move.split()
    if kind == "blind":
        mine.locator(f'[aria-label="hidden card {words[0]}"]').click()
        return
    used: dict[str, int] = {}
    for word in words:
        text, _hash, copy = word.partition("#")
        nth = int(copy) - 1 if copy else used.get(text, 0)
        used[text] = nth + 1
        mine.locator(f'button.card[data-card="{text}"]').nth(nth).click()
    mine.locator("#play-selected").click()


def _moved(recorder: Recorder, before: int, ply: int) -> Callable[[], bool]:
    """True once a state frame after the first ``before`` is past ``ply``."""
    return lambda: any(frame["ply"] > ply for frame in recorder.states()[before:])


def play_turns(players: dict[str, tuple[Any, Recorder]], choose: Callable[[str, Json], str],
               click: Callable[[Any, str], None], *, max_moves: int = 2000,
               stop: Callable[[int], bool] | None = None) -> int:
    """Play every human turn by clicking until the game is over (or ``stop(moves)``); bots play
    on the server. Returns how many moves the people made."""
    any_page = next(iter(players.values()))[0]
    made = 0
    while made < max_moves:
        latest = {seat: recorder.latest() for seat, (_page, recorder) in players.items()}
        if all(frame is not None and frame.get("result") for frame in latest.values()):
            return made
        if stop is not None and stop(made):
            return made
        mover = next((seat for seat, frame in latest.items()
                      if frame and frame["to_move"] == seat and frame["legal"]
                      and not frame.get("result")), None)
        if mover is None:
            any_page.wait_for_timeout(20)
            continue
        page, recorder = players[mover]
        frame = latest[mover]
        assert frame is not None
        move = choose(mover, frame)
        assert move in frame["legal"], (move, frame["legal"])
        moved = _moved(recorder, len(recorder.states()), frame["ply"])
        click(page, move)
        try:
            wait_for(page, moved, f"{mover}'s move {move}")
        except AssertionError as error:
            raise AssertionError(f"{error}; the page says {page.inner_text('#move-error')!r}") \
                from None
        made += 1
    raise AssertionError(f"the game did not end in {max_moves} moves")
