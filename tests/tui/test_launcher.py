"""The launcher: the form builds a game choice; the loop plays, plays again, comes back."""

from __future__ import annotations

import asyncio

import pytest

from cardtable.ui.tui import launcher
from cardtable.ui.tui.common import screen_text
from cardtable.ui.tui.launcher import Choice, LauncherApp, build_choice

from .snapshot import check_snapshot


def test_form_builds_a_caravan_choice() -> None:
    async def scenario() -> Choice | None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            check_snapshot("launcher_80x24", screen_text(app))
            app.query_one("#seed").value = "12"
            app.query_one("#preset").value = "nv"
            app.query_one("#def").value = "bot:random"
            await pilot.click("#play")
            await pilot.pause()
        return app.return_value

    choice = asyncio.run(scenario())
    assert choice is not None and choice.game == "caravan" and choice.seed == 12
    assert choice.caravan_players == ("human", "bot:random")
    assert choice.caravan_rules is not None and choice.caravan_rules.abc.max_numerals is None


def test_form_reports_bad_values_and_esc_leaves() -> None:
    async def scenario() -> Choice | None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.query_one("#game").value = "obsession"
            app.query_one("#players").value = "12"
            await pilot.click("#play")
            await pilot.pause()
            assert "Players must be from 2 to 10." in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
        return app.return_value

    assert asyncio.run(scenario()) is None


def test_build_choice_for_obsession() -> None:
    choice = build_choice({"game": "obsession", "seed": "", "delay": "0", "players": "5",
                           "humans": "2", "bot": "random", "run_kill": "3"})
    assert choice.obsession_seats == ("human", "human", "random", "random", "random")
    assert choice.obsession_rules is not None and choice.obsession_rules.run_kill == 3
    with pytest.raises(ValueError, match="Unknown rules preset"):
        build_choice({"game": "caravan", "preset": "nope", "abc": "human",
                      "def": "bot:normal"})


def test_loop_plays_again_then_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    choice = build_choice({"game": "obsession", "seed": "3", "delay": "0", "players": "2",
                           "humans": "0", "bot": "random", "run_kill": "4"})
    answers = [choice, None]
    monkeypatch.setattr(LauncherApp, "run", lambda self: answers.pop(0))
    played: list[int | None] = []
    numbers: list[int] = []

    def fake_play(picked: Choice, game: int = 1) -> tuple[int, bool]:
        played.append(picked.seed)
        numbers.append(game)
        return 0, len(played) == 1  # play again once, then back to the launcher

    monkeypatch.setattr(launcher, "play_choice", fake_play)
    assert launcher.main() == 0
    assert played == [3, None] and answers == []
    assert numbers == [1, 2]  # the second game gets its own record file


def test_record_files_of_later_games_are_numbered() -> None:
    assert launcher.numbered("game.jsonl", 1) == "game.jsonl"
    assert launcher.numbered("game.jsonl", 2) == "game-2.jsonl"
    assert launcher.numbered("runs.v2/game", 3) == "runs.v2/game-3"
    assert launcher.numbered("/tmp/x/rec", 2) == "/tmp/x/rec-2"


def test_build_choice_checks_record_and_deck_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    base = {"game": "caravan", "seed": "1", "delay": "0", "preset": "power",
            "abc": "human", "def": "bot:normal"}
    with pytest.raises(ValueError, match=r"Cannot open record file '.*': No such file"):
        build_choice({**base, "record": str(tmp_path / "missing" / "game.jsonl")})
    with pytest.raises(ValueError, match="Cannot read deck file"):
        build_choice({**base, "deck": str(tmp_path / "none.txt")})
    deck = tmp_path / "deck.txt"
    deck.write_text("\n".join(["7S", "8S", "9S"] * 3) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="has 9 cards; a deck must have between 30 and 162"):
        build_choice({**base, "deck": str(deck)})
    cards = [f"{rank}{suit}" for suit in "SHDC" for rank in
             ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    deck.write_text("\n".join(cards) + "\n", encoding="utf-8")
    choice = build_choice({**base, "deck": str(deck), "record": str(tmp_path / "g.jsonl")})
    assert choice.caravan_decks is not None
    assert [len(cards) for cards in choice.caravan_decks if cards is not None] == [52, 52]
    assert choice.record == str(tmp_path / "g.jsonl")
    obsession = build_choice({"game": "obsession", "seed": "", "delay": "0", "players": "3",
                              "humans": "0", "bot": "random", "run_kill": "4",
                              "record": str(tmp_path / "o.jsonl")})
    assert obsession.record == str(tmp_path / "o.jsonl")
