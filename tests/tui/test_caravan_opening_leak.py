"""No seat sees the other seat's face-down opening on the full screen (specification §4: a
simultaneous opening is played face down).

Like the web leak checker (``tests/web/webplay.py``), every message the Messages panel was
given and the text of every widget on the screen are checked after each step of the whole
opening, under every preset, against a bot and at a hot seat: a card the seat's own
observation hides may appear nowhere, unless the seat sees a card of the same rank and suit
somewhere it may (its own hand, an open caravan card, a discard pile).
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.cards import code
from cardtable.games.caravan.observation import HIDDEN_CARD
from cardtable.games.caravan.rules import PRESETS, SeatRules
from cardtable.ui.tui.caravan_app import CaravanApp
from cardtable.ui.tui.common import PassScreen, screen_text
from counts import count

from .pilot import TYPED_MOVES, enter_line

CARD = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AJQK])[SHDC](?![0-9A-Z])")
"""A card as the ASCII screen writes it (``6H``, ``10S``)."""

TIMEOUT = 60.0


def card_words(text: str) -> set[str]:
    return set(CARD.findall(text))


def hidden_and_seen(app: CaravanApp, seat: int) -> tuple[set[str], set[str]]:
    """The cards ``seat``'s observation hides from it (the other seat's face-down opening),
    and the cards it may see, by their text."""
    game = app.game
    view = game.observation(seat)
    hidden: set[str] = set()
    seen = {code(card) for card in view.hand}
    for real, shown in zip(game.caravans, view.caravans, strict=True):
        for (card, faces), (shown_card, shown_faces) in zip(real, shown, strict=True):
            (hidden if shown_card == HIDDEN_CARD else seen).add(code(card))
            seen.update(code(face) for face in shown_faces if face != HIDDEN_CARD)
            hidden.update(code(face) for face in faces if HIDDEN_CARD in shown_faces)
    for pile in view.piles:
        seen.update(code(card) for card in pile if card != HIDDEN_CARD)
    return hidden - seen, seen


def check(app: CaravanApp, seats: list[int], checked: list[str]) -> None:
    """Every message and the whole screen, as each of ``seats`` sees them now."""
    screen = screen_text(app)
    for seat in seats:
        hidden, _seen = hidden_and_seen(app, seat)
        if not hidden:
            continue
        for message in app.messages:
            leaked = card_words(message) & hidden
            assert not leaked, f"seat {seat} is told {sorted(leaked)}: {message!r}"
            checked.append(message)
        leaked = card_words(screen) & hidden
        assert not leaked, f"seat {seat} is shown {sorted(leaked)}:\n{screen}"


def in_opening(app: CaravanApp) -> bool:
    game = app.game
    return game.result is None and any(
        rules.opening_mode != "none" and placed < 3
        for rules, placed in zip(game.rules, game.placed, strict=True))


async def until(pilot, condition, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.01)


def watchers(app: CaravanApp) -> list[int]:
    """The seats looking at the screen now: the human (against a bot); at a hot seat the
    seat holding the keyboard, or both while the screen asks to pass it."""
    humans = [seat for seat, kind in enumerate(app.players) if kind == "human"]
    if len(humans) == 1:
        return humans
    if isinstance(app.screen, PassScreen) or app.seated is None:
        return [0, 1]
    return [app.seated]


async def play_opening(app: CaravanApp, pilot) -> list[str]:  # type: ignore[no-untyped-def]
    """Play the opening as the humans (with the normal bot's choices), checking each step."""
    helpers = {seat: make_bot("normal", seat, 11 + seat) for seat in (0, 1)}
    checked: list[str] = []
    moves = 0
    while in_opening(app):
        await until(pilot, lambda: (
            not in_opening(app) or isinstance(app.screen, PassScreen)
            or (app.is_human_turn() and app.human_answer is not None)), "the human's turn")
        check(app, watchers(app), checked)
        if not in_opening(app):
            break
        if isinstance(app.screen, PassScreen):
            await pilot.press("enter")
            await until(pilot, lambda: not isinstance(app.screen, PassScreen), "the hand-over")
            continue
        seat = app.game.turn
        before = len(app.game.history)
        move = helpers[seat].choose(app.game.observation(seat))
        await enter_line(app, pilot, move.notation, typed=moves < TYPED_MOVES)
        await until(pilot, lambda moved=before: len(app.game.history) > moved, "the move")
        await pilot.pause()
        check(app, watchers(app), checked)
        moves += 1
        assert moves < 40
    check(app, watchers(app), checked)
    return checked


TABLES = {
    "human-first": (("human", "bot:normal"), 0),
    "bot-first": (("human", "bot:normal"), 1),
    "bot-as-abc": (("bot:normal", "human"), 0),
    "hot-seat-abc-first": (("human", "human"), 0),
    "hot-seat-def-first": (("human", "human"), 1),
}


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_no_seat_sees_the_other_seats_face_down_opening(preset: str, table: str) -> None:
    players, first = TABLES[table]
    rules = SeatRules.preset(preset)
    hidden_opening = rules.of(0).opening_mode == "simultaneous"
    seeds = (5, 6, 7)[:count(1, 3)] if hidden_opening else (5,)

    async def scenario(seed: int) -> int:
        app = CaravanApp(rules, players, seed, first, 0.0, None, None, True)
        async with app.run_test(size=(100, 40)) as pilot:
            checked = await play_opening(app, pilot)
            return len(checked)

    checked = sum(asyncio.run(scenario(seed)) for seed in seeds)
    if hidden_opening and (players[first] != "human" or players == ("human", "human")):
        assert checked  # the face-down opening was on the screen, and was looked at
