"""What both game screens share: focus after "Terminal too small", the keys that leave
(Esc, Ctrl+Q, Ctrl+C), the message log after a resize, the result line printed after the
screen closes, ASCII borders and a screen without any colour."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from rich.color import ColorType
from textual import events
from textual.geometry import Size
from textual.widgets import Checkbox, RichLog

from cardtable.games.caravan.rules import SeatRules
from cardtable.games.obsession.rules import Rules
from cardtable.ui.tui.austerity_app import AusterityApp, build_table
from cardtable.ui.tui.caravan_app import CaravanApp
from cardtable.ui.tui.common import ConfirmQuit, HelpScreen, TableApp, screen_text
from cardtable.ui.tui.launcher import LauncherApp
from cardtable.ui.tui.obsession_app import ObsessionApp
from cardtable.ui.tui.result_lines import result_lines

POWER = SeatRules.preset("power")
OBSESSION_SEATS = ("human", "obsessed", "obsessed", "obsessed")


def caravan(players: tuple[str, str] = ("human", "bot:normal"), seed: int = 7,
            record: str | None = None, ascii_only: bool = True) -> CaravanApp:
    return CaravanApp(POWER, players, seed, 0, 0.0, None, record, ascii_only)


def obsession(record: str | None = None, seats: tuple[str, ...] = OBSESSION_SEATS,
              ascii_only: bool = True) -> ObsessionApp:
    return ObsessionApp(Rules(players=len(seats)), seats, 1, 0.0, record, ascii_only)


def austerity(ascii_only: bool = True) -> AusterityApp:
    return AusterityApp(build_table("shenzi,banzai,ed", "", "5", "15"), 5.0, ascii_only)


def make(game: str, ascii_only: bool) -> TableApp:
    if game == "caravan":
        return caravan(ascii_only=ascii_only)
    if game == "obsession":
        return obsession(ascii_only=ascii_only)
    return austerity(ascii_only)


async def settle(app: TableApp, pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def until_over(app: TableApp, pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(400):
        await settle(app, pilot)
        if app.game_over():
            return
    raise AssertionError("the game never ended")


async def shrink_and_grow(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.resize_terminal(70, 24)
    await pilot.pause()
    await pilot.resize_terminal(80, 24)
    await pilot.pause()
    await pilot.pause()


# ------------------------------------------------------------------------------ focus


def test_caravan_typing_works_after_the_terminal_was_too_small() -> None:
    async def scenario() -> None:
        app = caravan()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await shrink_and_grow(pilot)
            assert "Terminal too small" not in screen_text(app)
            for key in "P1A":
                await pilot.press(key)
            await pilot.press("enter")
            await settle(app, pilot)
            assert "YOU entered: P1A" in app.messages

    asyncio.run(scenario())


def test_keys_typed_as_the_terminal_grows_back_are_not_lost() -> None:
    """The screen shows again at once, the command line takes the focus back only after the
    next layout: keys typed in between wait for it (a real terminal's typist met this)."""
    async def scenario() -> None:
        app = caravan()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.resize_terminal(70, 24)
            await pilot.pause()
            size = Size(80, 24)
            app._driver._size = size  # type: ignore[union-attr]
            app.post_message(events.Resize(size, size))
            for key in "P1A":
                app.post_message(events.Key(key, key))
            app.post_message(events.Key("enter", "\r"))
            await settle(app, pilot)
            assert "YOU entered: P1A" in app.messages

    asyncio.run(scenario())


def test_keys_typed_while_the_command_line_has_no_focus_go_to_it() -> None:
    """Whatever took the focus (a click elsewhere, a resize), what is typed goes to the
    enabled command line."""
    async def scenario() -> None:
        app = caravan()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            app.screen.set_focus(None)
            await pilot.press("P", "1", "A", "enter")
            await settle(app, pilot)
            assert "YOU entered: P1A" in app.messages

    asyncio.run(scenario())


def test_obsession_typing_works_after_the_terminal_was_too_small() -> None:
    async def scenario() -> None:
        app = obsession()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await shrink_and_grow(pilot)
            await pilot.press("9", "enter")
            await settle(app, pilot)
            assert "!!! Invalid card selection" in app.messages

    asyncio.run(scenario())


# ------------------------------------------------------------------------------- keys


@pytest.mark.parametrize("key", ["ctrl+c", "ctrl+q"])
def test_ctrl_keys_ask_before_quitting(key: str, tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"

    async def scenario() -> int | None:
        app = caravan(record=str(record))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            assert "Quit this game?" in screen_text(app)
            assert "ctrl+q" not in screen_text(app).lower()
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmQuit) and app.game.result is None
            await pilot.press(key)
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
        return app.return_value

    status = asyncio.run(scenario())
    last = json.loads(record.read_text().splitlines()[-1])
    if key == "ctrl+c":
        assert status == 130
        assert last["cause"] == "interrupt"
    else:
        assert status == 0
        assert last["cause"] == "quit"


def test_ctrl_c_twice_interrupts_obsession_and_records_why(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"

    async def scenario() -> tuple[int | None, tuple[list[str], list[str]]]:
        app = obsession(str(record))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("ctrl+c")  # closes the help and asks
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            await pilot.press("ctrl+c")  # pressed again: quits
            await pilot.pause()
        return app.return_value, result_lines(app)

    status, (out, err) = asyncio.run(scenario())
    assert status == 130
    assert out == [] and err == ["!!! Interrupted"]
    last = json.loads(record.read_text().splitlines()[-1])
    assert last == {"type": "result", "winners": [], "reason": "abandoned", "cause": "interrupt",
                    "details": last["details"]}


def test_esc_at_the_question_keeps_playing_and_ctrl_c_after_the_end_leaves_with_0() -> None:
    async def scenario() -> int | None:
        app = caravan(players=("bot:normal", "bot:random"), seed=3)
        async with app.run_test(size=(80, 24)) as pilot:
            await until_over(app, pilot)
            await pilot.press("ctrl+c")
            await pilot.pause()
        return app.return_value

    assert asyncio.run(scenario()) == 0

    async def asking() -> None:
        app = caravan()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("ctrl+c")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmQuit)
            assert app.game.result is None

    asyncio.run(asking())


# --------------------------------------------------------------------- what is shown


def test_the_log_is_wrapped_again_and_scrolled_to_the_end_after_a_resize() -> None:
    async def scenario() -> None:
        app = caravan(players=("bot:normal", "bot:random"), seed=3)
        async with app.run_test(size=(80, 24)) as pilot:
            await until_over(app, pilot)
            last = app.messages[-1]
            long = next(m for m in reversed(app.messages[-6:]) if 26 < len(m) < 40)
            await pilot.resize_terminal(120, 30)
            await pilot.pause()
            await pilot.pause()
            log = app.query_one("#log", RichLog)
            width = log.scrollable_content_region.width
            assert width >= 40
            assert all(line.cell_length <= width for line in log.lines)
            text = screen_text(app)
            assert long in text  # one line now that there is room
            assert last in text  # the newest line is in view
            assert log.scroll_y == log.max_scroll_y

    asyncio.run(scenario())


def test_result_lines_after_the_screen_closes() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        app = caravan(players=("bot:normal", "bot:random"), seed=3)
        async with app.run_test(size=(80, 24)) as pilot:
            await until_over(app, pilot)
        return result_lines(app)

    out, err = asyncio.run(scenario())
    assert err == [] and len(out) == 1
    assert out[0] in ("WINNER: BOT1", "WINNER: BOT2", "DRAW")

    async def bots() -> tuple[list[str], list[str]]:
        app = obsession(seats=("random", "random", "random"))
        async with app.run_test(size=(80, 24)) as pilot:
            await until_over(app, pilot)
        return result_lines(app)

    out, err = asyncio.run(bots())
    assert err == []
    assert out[0] == "=================" and out[-2] == "=== Game Over ==="
    assert [line[:3] for line in out[1:4]] == ["1. ", "2. ", "3. "]

    async def quitting() -> tuple[list[str], list[str]]:
        app = caravan()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("escape", "y")
            await pilot.pause()
        return result_lines(app)

    assert asyncio.run(quitting()) == (["Game abandoned."], [])


# ------------------------------------------------------------------- text and colour

BOX_DRAWING = range(0x2500, 0x25A0)
"""Box drawing and block elements: borders, separators, scrollbar thumbs."""


def non_ascii_borders(text: str) -> set[str]:
    return {char for char in text if ord(char) in BOX_DRAWING}


@pytest.mark.parametrize("game", ["caravan", "obsession", "austerity"])
def test_ascii_replaces_every_border(game: str) -> None:
    async def scenario() -> None:
        app = make(game, True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            text = screen_text(app)
            assert non_ascii_borders(text) == set()
            assert "+-" in text
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            assert non_ascii_borders(screen_text(app)) == set()
            await pilot.press("n", "question_mark")
            await pilot.pause()
            assert non_ascii_borders(screen_text(app)) == set()

    asyncio.run(scenario())

    async def symbols() -> None:  # without --ascii the borders are drawn as before
        app = caravan(ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert "╭" in screen_text(app)

    asyncio.run(symbols())


def coloured_segments(app: TableApp | LauncherApp) -> list[str]:
    """Text of every segment drawn with a foreground or background colour."""
    found = []
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            style = segment.style
            if style is None:
                continue
            for colour in (style.color, style.bgcolor):
                if colour is not None and colour.type != ColorType.DEFAULT:
                    found.append(segment.text)
    return found


@pytest.mark.parametrize("game", ["caravan", "obsession", "austerity"])
def test_no_color_draws_no_colour_at_all(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

    async def scenario() -> None:
        app = make(game, False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert coloured_segments(app) == []
            await pilot.press("escape")
            await pilot.pause()
            assert coloured_segments(app) == []

    asyncio.run(scenario())


def test_no_color_in_the_launcher(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

    async def scenario() -> None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert coloured_segments(app) == []
            assert " ▐ ▌ ASCII" in screen_text(app)  # the mark, not a colour, says "off"
            app.query_one("#ascii", Checkbox).value = True
            await pilot.pause()
            assert " ▐X▌ ASCII" in screen_text(app)

    asyncio.run(scenario())
