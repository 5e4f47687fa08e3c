"""The generic terminal table on the full screen, and the launcher's form of a game without a
terminal table of its own: a game the test registers, known to cardtable only through its
description."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from textual.widgets import Input

from cardtable.engine.game_registry import description
from cardtable.ui.seat_kinds import seated
from cardtable.ui.tui.common import ConfirmQuit, TableApp, screen_text
from cardtable.ui.tui.generic_app import GenericApp
from cardtable.ui.tui.launcher import Choice, LauncherApp, build_choice
from cardtable.ui.tui.result_lines import result_lines, tally_entry
from generic_table.nim import registered

from .pilot import click_play, type_line, until


@pytest.fixture(autouse=True)
def nim() -> Iterator[None]:
    with registered():
        yield


def test_a_person_plays_a_bot_by_number_and_by_notation() -> None:
    table = seated(description("test_nim"), {"stones": 4}, ["human", "take-one"])

    async def scenario() -> GenericApp:
        app = GenericApp(table, seed=7, delay=0.0, ascii_only=True, offer_again=True,
                         bots={1: table.bots(7)["B"]})
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "pile: 4" in text and "Moves: 1. take 1   2. take 2" in text
            assert "A: your move" in text
            await type_line(pilot, "9")
            assert app.messages[-1] == "!!! There is no move 9: choose 1 to 2, or type a move."
            assert "!!! There is no move 9" in screen_text(app)
            await type_line(pilot, "2")
            await until(pilot, lambda: app.game.pile == 1, "the bot's move")
            assert "B: take 1" in app.messages
            await type_line(pilot, "take 1")
            await until(pilot, app.game_over, "the end of the game")
            assert "Winner: A (last stone). Press Esc to exit." in screen_text(app)
            assert app.messages[-3:] == ["Winner: A (last stone)", "left: 0",
                                         "Press Esc to exit. Ctrl+R: play again."]
            await pilot.press("escape")
        return app

    app = asyncio.run(scenario())
    assert app.return_value == 0
    assert result_lines(app) == (["Winner: A (last stone)", "left: 0"], [])
    assert tally_entry(app) == (["A", "take-one"], ["A"])


def test_leaving_a_game_in_progress_asks_first_and_says_it_was_abandoned() -> None:
    table = seated(description("test_nim"), {}, ["human", "take-one"])

    async def scenario() -> GenericApp:
        app = GenericApp(table, seed=1, delay=0.0, ascii_only=True,
                         bots={1: table.bots(1)["B"]})
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            await pilot.press("y")
            await pilot.pause()
        return app

    app = asyncio.run(scenario())
    assert app.return_value == 0 and result_lines(app) == (["Game abandoned."], [])
    assert tally_entry(app) is None


def test_bots_only_show_the_public_view_and_play_to_the_end() -> None:
    table = seated(description("test_nim"), {"stones": 3}, ["take-one", "take-one"])

    async def scenario() -> GenericApp:
        bots = {table.seats.index(seat): bot for seat, bot in table.bots(3).items()}
        app = GenericApp(table, seed=3, delay=0.0, ascii_only=True, bots=bots)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, app.game_over, "the end of the game")
            assert "the game shows nothing public" in screen_text(app)
        return app

    app = asyncio.run(scenario())
    assert app.messages[1:4] == ["A: take 1", "B: take 1", "A: take 1"]


def test_the_launcher_offers_the_game_with_a_form_from_its_description() -> None:
    async def scenario() -> Choice | None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.query_one("#game").value = "test_nim"
            await pilot.pause()
            text = screen_text(app)
            assert "Test Nim" in text and "Stones" in text and "human" in text
            assert "Rules preset" not in text
            app.query_one("#g-test_nim-stones", Input).value = "99"
            await click_play(app, pilot)
            await pilot.pause()
            assert "Stones must be an integer from 1 to 20 (got '99')" in screen_text(app)
            app.query_one("#g-test_nim-stones", Input).value = "3"
            await click_play(app, pilot)
            await pilot.pause()
        return app.return_value

    choice = asyncio.run(scenario())
    assert choice is not None and choice.game == "test_nim"
    assert choice.table.seating.kinds == ("human", "take-one")
    assert choice.table.seating.game.pile == 3


def test_a_launcher_choice_of_the_game_plays_on_the_generic_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.ui.tui import launcher

    choice = build_choice({"game": "test_nim", "seed": "2", "delay": "0",
                           "g-test_nim-seat-0": "take-one", "g-test_nim-seat-1": "take-one",
                           "g-test_nim-stones": "2"})
    played: list[GenericApp] = []

    def run_to_end(self: TableApp, *args: object, **kwargs: object) -> int:
        async def scenario() -> None:
            async with self.run_test(size=(80, 24)) as pilot:
                await until(pilot, self.game_over, "the end of the game")
        asyncio.run(scenario())
        assert isinstance(self, GenericApp)
        played.append(self)
        return 0

    monkeypatch.setattr(TableApp, "run", run_to_end)
    assert launcher.play_choice(choice) == (0, False)
    assert played[0].result is not None and played[0].result.winners == ("B",)
