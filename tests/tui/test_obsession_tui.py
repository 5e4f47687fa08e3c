"""The Obsession screen driven by key presses and clicks against bots (``delay`` 0)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from cardtable.games.obsession.actions import Action, Blind, Swap
from cardtable.games.obsession.bots import make_bot
from cardtable.games.obsession.cards import FACE
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.rules import Rules
from cardtable.ui.tui.common import ConfirmQuit, HelpScreen, screen_text
from cardtable.ui.tui.obsession_app import ObsessionApp, PassScreen

from .snapshot import check_snapshot


def selection_text(observation: Observation, action: Action) -> str:
    """The numbers a person would type for ``action``."""
    if isinstance(action, Blind):
        return str(action.index)
    cards = action.visible if isinstance(action, Swap) else action.cards
    pool = list(observation.pool)
    numbers = []
    for card in cards:
        index = pool.index(card)
        pool[index] = -1
        numbers.append(str(index + 1))
    return " ".join(numbers)


async def settle(app: ObsessionApp, pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def type_line(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    for key in text:
        await pilot.press("space" if key == " " else key)
    await pilot.press("enter")


def test_digit_keys_toggle_cards() -> None:
    async def scenario() -> None:
        app = ObsessionApp(Rules(players=2), ("human", "obsessed"), 4, 0.0, ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            for key in "1321":
                await pilot.press(key)
            assert app.command_text() == "3 2"  # 1 on, 3 on, 2 on, 1 off
            await pilot.press("backspace", "backspace", "backspace")
            await pilot.press("7")  # beyond the 6 cards of the swap: typed, for the grammar
            assert app.command_text() == "7"

    asyncio.run(scenario())


async def play_out(app: ObsessionApp, pilot, snap_mid: str | None = None,  # type: ignore[no-untyped-def]
                   limit: int = 3000) -> None:
    helpers = {seat: make_bot("obsessed", 5, seat) for seat in range(app.game.players)}
    decisions = 0
    while not app.game.over:
        await settle(app, pilot)
        if app.game.over:
            break
        if isinstance(app.screen, PassScreen):
            await pilot.press("enter")
            await pilot.pause()
            continue
        assert app.is_human_turn(), "the screen waits for a human"
        seat = app.game.current
        observation = app.game.observe(seat)
        await type_line(pilot, selection_text(observation, helpers[seat].choose(observation)))
        decisions += 1
        if decisions == 6 and snap_mid is not None:
            await settle(app, pilot)
            check_snapshot(snap_mid, screen_text(app))
        if decisions >= limit:
            return


def test_whole_game_with_errors_and_record(tmp_path: Path) -> None:
    record = tmp_path / "obsession.jsonl"

    async def scenario() -> None:
        app = ObsessionApp(Rules(players=3), ("human", "obsessed", "random"), 11, 0.0,
                           str(record), ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            check_snapshot("obsession_start_80x24", screen_text(app))
            await type_line(pilot, "9")
            app.query_one("#command").value = "1 1 2"  # as if pasted
            await pilot.press("enter")
            await type_line(pilot, "12")  # a digit key toggles a card: 1 then 2
            await settle(app, pilot)
            assert app.messages[-3:] == ["!!! Invalid card selection",
                                         "!!! Duplicate card selection",
                                         "!!! You must select 3 cards"]
            await type_line(pilot, "4 5 6")
            await settle(app, pilot)
            # Find a mixed-face selection if the hand allows one: "Invalid selection".
            hand = app.game.observe(0).pool
            faces = [FACE[card] for card in hand]
            if app.is_human_turn() and len(set(faces)) > 1:
                first = 1
                other = next(i for i, face in enumerate(faces, 1) if face != faces[0])
                await type_line(pilot, f"{first} {other}")
                await settle(app, pilot)
                assert app.messages[-1] == "!!! Invalid selection"
            await play_out(app, pilot, snap_mid="obsession_mid_80x24")
            assert app.game.over
            assert "=== Game Over ===" in app.messages
            check_snapshot("obsession_end_80x24", screen_text(app))
            await pilot.press("escape")
            await pilot.pause()
        assert app.return_value == 0

    asyncio.run(scenario())
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["t"] == "header" and lines[-1]["t"] == "end"


def test_click_selects_cards() -> None:
    async def scenario() -> None:
        app = ObsessionApp(Rules(players=2), ("human", "obsessed"), 4, 0.0, ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            cards = app.query_one("#cards")
            _, width = cards.cells()
            for number in (1, 2, 3):
                await pilot.click("#cards", offset=(1 + (number - 1) * width, 1))
            await pilot.click("#cards", offset=(1 + 1 * width, 1))  # unselect 2
            await pilot.pause()
            assert app.command_text() == "1 3"
            await pilot.click("#cards", offset=(1 + 3 * width, 1))
            await pilot.press("enter")
            await settle(app, pilot)
            assert app.game.phase != 0 or app.game.current != 0  # the swap went through

    asyncio.run(scenario())


def test_hot_seat_hides_hands_between_turns() -> None:
    async def scenario() -> None:
        app = ObsessionApp(Rules(players=3), ("human", "human", "random"), 2, 0.0,
                           ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert isinstance(app.screen, PassScreen)
            assert app.viewer is None
            await pilot.press("enter")
            await pilot.pause()
            assert app.viewer == 0
            seen = set()
            for _ in range(12):
                await play_out(app, pilot, limit=1)
                await settle(app, pilot)
                if isinstance(app.screen, PassScreen):
                    assert app.viewer is None
                    assert app.query_one("#cards").cells()[0] == []
                    seen.add(app.screen.seat)
            assert seen == {0, 1}

    asyncio.run(scenario())


def test_quit_mid_game(tmp_path: Path) -> None:
    record = tmp_path / "quit.jsonl"

    async def scenario() -> None:
        app = ObsessionApp(Rules(players=4), ("human", "obsessed", "obsessed", "obsessed"), 1,
                           0.0, str(record), ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            await pilot.press("y")
            await pilot.pause()
        assert app.return_value == 0

    asyncio.run(scenario())
    last = json.loads(record.read_text().splitlines()[-1])
    assert last == {"t": "abandoned", "reason": "quit"}


def test_help_and_too_small() -> None:
    async def scenario() -> None:
        app = ObsessionApp(Rules(players=4), ("human", "obsessed", "obsessed", "random"), 1,
                           0.0, ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            check_snapshot("obsession_help_80x24", screen_text(app))
            await pilot.press("escape")
            await pilot.pause()
            await pilot.resize_terminal(70, 22)
            await pilot.pause()
            text = screen_text(app)
            assert "Terminal too small" in text and "Width:  70 / 80" in text
            check_snapshot("obsession_too_small_70x22", text)

    asyncio.run(scenario())


def test_ten_bots_wide() -> None:
    async def scenario() -> None:
        app = ObsessionApp(Rules(players=10), ("random",) * 10, 5, 0.0)
        async with app.run_test(size=(120, 36)) as pilot:
            for _ in range(3000):
                await settle(app, pilot)
                if app.game.over:
                    break
            assert app.game.over
            check_snapshot("obsession_bots10_end_120x36", screen_text(app))

    asyncio.run(scenario())


def test_an_unexpected_error_shows_the_error_screen() -> None:
    async def scenario() -> None:
        app = ObsessionApp(Rules(players=2), ("human", "random"), 4, 0.0, ascii_only=True)

        def broken(line: str) -> None:
            raise RuntimeError("something broke")

        app.submit = broken  # type: ignore[method-assign]
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "1 2 3")
            await pilot.pause()
            text = screen_text(app)
            assert "something broke" in text and "Press Esc to exit." in text
            await pilot.press("escape")
            await pilot.pause()
        assert app.return_value == 1

    asyncio.run(scenario())
