"""The launcher never replaces a record silently: it asks, and later games of one launch
take a free numbered file unless the player agreed to replace them."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cardtable.ui.tui import launcher, obsession_app
from cardtable.ui.tui.common import screen_text
from cardtable.ui.tui.launcher import Choice, LauncherApp, build_choice
from cardtable.ui.tui.record_question import ConfirmOverwrite

from .pilot import click_play

OBSESSION = {"game": "obsession", "seed": "1", "delay": "0", "players": "3", "humans": "0",
             "bot": "random", "run_kill": "4"}


def _fill(app: LauncherApp, record: Path) -> None:
    app.query_one("#game").value = "obsession"  # type: ignore[attr-defined]
    app.query_one("#humans").value = "0"  # type: ignore[attr-defined]
    app.query_one("#record").value = str(record)  # type: ignore[attr-defined]


def test_launcher_asks_before_replacing_a_record(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # short paths, shown whole on the screen
    record = Path("game.jsonl")
    record.write_text("an earlier game\n", encoding="utf-8")

    async def scenario() -> tuple[Choice | None, list[str]]:
        seen: list[str] = []
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            _fill(app, record)
            await pilot.pause()  # the form shows the game's column
            await click_play(app, pilot)
            await pilot.pause()
            assert isinstance(app.screen, ConfirmOverwrite)
            seen.append(screen_text(app))
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmOverwrite) and app.is_running
            seen.append(screen_text(app))
            await click_play(app, pilot)
            await pilot.pause()
            await pilot.press("escape")  # Esc answers the question; it does not leave
            await pilot.pause()
            assert app.is_running and not isinstance(app.screen, ConfirmOverwrite)
            await click_play(app, pilot)
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
        return app.return_value, seen

    choice, seen = asyncio.run(scenario())
    assert f"Record file '{record}' already exists." in seen[0] and "Replace it?" in seen[0]
    assert "The record files were kept: choose another record file." in seen[1]
    assert choice is not None and choice.record == str(record) and choice.overwrite
    assert record.read_text(encoding="utf-8") == "an earlier game\n"  # nothing written yet


def test_launcher_asks_about_the_numbered_records_of_later_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    record = Path("game.jsonl")
    Path("game-2.jsonl").write_text("the second game\n", encoding="utf-8")

    async def scenario() -> str:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            _fill(app, record)
            await pilot.pause()  # the form shows the game's column
            await click_play(app, pilot)
            await pilot.pause()
            assert isinstance(app.screen, ConfirmOverwrite)
            return screen_text(app)

    assert "Record file 'game-2.jsonl' already exists." in asyncio.run(scenario())


def test_a_new_record_starts_without_a_question(tmp_path: Path) -> None:
    async def scenario() -> Choice | None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            _fill(app, tmp_path / "new.jsonl")
            await pilot.pause()  # the form shows the game's column
            await click_play(app, pilot)
            await pilot.pause()
        return app.return_value

    choice = asyncio.run(scenario())
    assert choice is not None and not choice.overwrite


def test_later_games_never_replace_a_record_without_consent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "game.jsonl"
    recorded: list[str | None] = []

    def fake_play(*args: Any, **kwargs: Any) -> tuple[int, bool]:
        recorded.append(args[4])
        Path(str(args[4])).write_text("played\n", encoding="utf-8")
        return 0, False

    monkeypatch.setattr(obsession_app, "play_obsession", fake_play)
    choice = build_choice({**OBSESSION, "record": str(record)})
    (tmp_path / "game-2.jsonl").write_text("someone else's\n", encoding="utf-8")
    for game in (1, 2, 3):
        launcher.play_choice(choice, game)
    assert recorded == [str(record), str(tmp_path / "game-3.jsonl"),
                        str(tmp_path / "game-4.jsonl")]
    assert (tmp_path / "game-2.jsonl").read_text(encoding="utf-8") == "someone else's\n"
    # With the player's consent, the numbered files are the ones replaced.
    recorded.clear()
    launcher.play_choice(Choice(**{**choice.__dict__, "overwrite": True}), 2)
    assert recorded == [str(tmp_path / "game-2.jsonl")]


def test_launcher_refuses_to_record_onto_its_deck_or_rules_file(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    cards = [f"{rank}{suit}" for suit in "SHDC" for rank in
             ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    deck.write_text("\n".join(cards) + "\n", encoding="utf-8")
    base = {"game": "caravan", "seed": "1", "delay": "0", "preset": "power",
            "abc": "human", "def": "bot:normal"}
    with pytest.raises(ValueError, match="is the deck file; record to another file"):
        build_choice({**base, "deck": str(deck), "record": str(deck)})
    assert deck.read_text(encoding="utf-8").startswith("AS\n")
