"""The launcher: the form builds a game choice; the loop plays, plays again, comes back."""

from __future__ import annotations

import asyncio
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import Input, Select
from textual.widgets._select import SelectCurrent

from cardtable.games.austerity.deck import parse_deck
from cardtable.games.austerity.simulate import play_game
from cardtable.ui.tui import launcher
from cardtable.ui.tui.austerity_app import AusterityApp, build_table
from cardtable.ui.tui.common import ConfirmQuit, TableApp, screen_text
from cardtable.ui.tui.launcher import Choice, LauncherApp, build_choice
from cardtable.ui.tui.result_lines import result_lines
from cardtable.ui.tui.tally import WinTally

from .pilot import click_play, until
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
            await click_play(app, pilot)
            await pilot.pause()
        return app.return_value

    choice = asyncio.run(scenario())
    assert choice is not None and choice.game == "caravan" and choice.seed == 12
    assert choice.table.players == ("human", "bot:random")
    assert choice.table.rules.abc.max_numerals is None


def test_form_reports_bad_values_and_esc_leaves() -> None:
    async def scenario() -> Choice | None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.query_one("#game").value = "obsession"
            await pilot.pause()  # the form shows the game's column
            app.query_one("#players").value = "12"
            await click_play(app, pilot)
            await pilot.pause()
            assert "Players must be an integer from 2 to 10 (got '12')" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
        return app.return_value

    assert asyncio.run(scenario()) is None


def test_build_choice_for_obsession() -> None:
    choice = build_choice({"game": "obsession", "seed": "", "delay": "0", "players": "5",
                           "humans": "2", "bot": "random", "run_kill": "3"})
    assert choice.table.seats == ("human", "human", "random", "random", "random")
    assert choice.table.rules.run_kill == 3
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

    def fake_play(picked: Choice, game: int = 1, tally: object = None) -> tuple[int, bool]:
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
    assert choice.table.decks is not None
    assert [len(cards) for cards in choice.table.decks if cards is not None] == [52, 52]
    assert choice.record == str(tmp_path / "g.jsonl")
    obsession = build_choice({"game": "obsession", "seed": "", "delay": "0", "players": "3",
                              "humans": "0", "bot": "random", "run_kill": "4",
                              "record": str(tmp_path / "o.jsonl")})
    assert obsession.record == str(tmp_path / "o.jsonl")


def test_help_mentions_the_launcher() -> None:
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "--help"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    assert "no arguments" in done.stdout and "launcher" in done.stdout
    assert "Austerity" in done.stdout


def disabled(app: LauncherApp, *ids: str) -> list[bool]:
    return [app.query_one(f"#{name}", Widget).disabled for name in ids]


def shown(app: LauncherApp, *ids: str) -> list[bool]:
    return [app.query_one(f"#{name}", Widget).display for name in ids]


def test_only_the_chosen_games_column_shows_and_the_others_fields_are_off() -> None:
    async def scenario() -> None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            columns = ("column-g-caravan", "column-g-obsession", "column-g-austerity")
            assert shown(app, *columns, "programs") == [True, False, False, True]
            assert disabled(app, "abc", "preset", "deck") == [False] * 3
            assert disabled(app, "players", "humans", "lineup", "tokens") == [True] * 4
            app.query_one("#game").value = "obsession"
            await pilot.pause()
            assert shown(app, *columns, "programs") == [False, True, False, True]
            assert disabled(app, "abc", "preset", "lineup", "points") == [True] * 4
            assert disabled(app, "players", "humans", "bot", "seed", "record") == [False] * 5
            assert "Run-kill" in screen_text(app) and "Rules preset" not in screen_text(app)
            app.query_one("#game").value = "austerity"
            await pilot.pause()
            assert shown(app, *columns, "programs") == [False, False, True, False]
            assert disabled(app, "abc", "players", "seed", "record") == [True] * 4
            assert disabled(app, "lineup", "austerity_deck", "tokens", "delay") == [False] * 4
            assert "Austerity" in screen_text(app)

    asyncio.run(scenario())


def test_build_choice_for_austerity(tmp_path: Path) -> None:
    base = {"game": "austerity", "delay": "0", "lineup": "shenzi, banzai,ed",
            "austerity_deck": "", "tokens": "5", "points": "15"}
    choice = build_choice(base)
    assert choice.table.lineup == ("shenzi", "banzai", "ed")
    assert choice.table.deck_name == "medium.deck" and len(choice.table.deck) == 20
    assert choice.next_game().table.lineup == ("banzai", "ed", "shenzi")
    assert len(build_choice({**base, "lineup": ",".join(["ed"] * 26)}).table.lineup) == 26
    for lineup in ("ed", ",".join(["ed"] * 27)):
        with pytest.raises(ValueError, match="Austerity needs 2 to 26 players"):
            build_choice({**base, "lineup": lineup})
    with pytest.raises(ValueError) as refused:
        build_choice({**base, "lineup": "shenzi,bob"})
    assert str(refused.value) == "Unknown bot 'bob' for austerity (bots: shenzi, banzai, ed)."
    with pytest.raises(ValueError, match=r"Cannot access deck file: '.*none\.deck'"):
        build_choice({**base, "austerity_deck": str(tmp_path / "none.deck")})
    bad = tmp_path / "bad.deck"
    bad.write_text("X:1:1,0,0,0\n", encoding="utf-8")
    with pytest.raises(ValueError, match="Invalid deck file contents"):
        build_choice({**base, "austerity_deck": str(bad)})
    with pytest.raises(ValueError, match="Tokens must be a whole number"):
        build_choice({**base, "tokens": "99999999999"})
    deck = tmp_path / "two.deck"
    deck.write_text("B:1:1,0,0,0\nY:0:0,3,0,2\n", encoding="utf-8")
    table = build_choice({**base, "austerity_deck": str(deck), "points": "1"}).table
    assert len(table.deck) == 2 and table.points == 1


def test_austerity_screen_plays_the_hubs_game_and_counts_wins() -> None:
    table = build_table("shenzi,banzai,ed", "", "5", "15")
    transcript: list[str] = []
    expected = play_game(list(table.deck), 5, 15, table.lineup, transcript=transcript)

    async def scenario() -> AusterityApp:
        app = AusterityApp(table, 0.0, ascii_only=True, offer_again=True,
                           tally=WinTally(1, {"shenzi": 0, "banzai": 1, "ed": 0}))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, app.game_over, "the end of the game")
            await pilot.pause()
            text = screen_text(app)
            assert "Winner(s) A: A shenzi." in text
            assert "Wins over 2 games: banzai 1, shenzi 1, ed 0" in text
            assert "Ctrl+R: play again." in text
            await pilot.press("ctrl+r")
            await pilot.pause()
        return app

    app = asyncio.run(scenario())
    assert app.messages[:-1] == [line.rstrip("\n") for line in transcript]
    assert expected.winners == (0,) and app.winners() == ["shenzi"]
    assert app.again and app.return_value == 0
    assert result_lines(app) == (["Winner(s) A"], [])
    tally = WinTally()
    TableApp.last_closed = app
    launcher.count_win(tally)
    assert tally.line() == "Wins over 1 game: shenzi 1, banzai 0, ed 0"
    assert TableApp.last_closed is None


def test_austerity_asks_before_quitting_a_game_in_progress() -> None:
    table = build_table("ed,ed", "", "5", "15")

    async def scenario() -> int | None:
        app = AusterityApp(table, 5.0, ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            await pilot.press("y")
            await pilot.pause()
        return app.return_value

    assert asyncio.run(scenario()) == 130


def test_the_tally_is_kept_across_games_and_shown_on_the_launcher(
        monkeypatch: pytest.MonkeyPatch) -> None:
    choice = build_choice({"game": "austerity", "delay": "0", "lineup": "shenzi,ed",
                           "austerity_deck": "", "tokens": "5", "points": "15"})
    answers = [choice, None]
    shown: list[str] = []

    def fake_form(self: LauncherApp) -> Choice | None:
        shown.append("" if self.tally is None else self.tally.line())
        return answers.pop(0)

    monkeypatch.setattr(LauncherApp, "run", fake_form)
    lineups: list[tuple[str, ...]] = []

    def fake_play(picked: Choice, game: int = 1,
                  tally: WinTally | None = None) -> tuple[int, bool]:
        lineups.append(picked.table.lineup)
        app = AusterityApp(picked.table, 0.0)
        app.game.finished = True  # as if played: the seat A program wins (0 points each)
        TableApp.last_closed = app
        return 0, len(lineups) < 3

    monkeypatch.setattr(launcher, "play_choice", fake_play)
    assert launcher.main() == 0
    assert lineups == [("shenzi", "ed"), ("ed", "shenzi"), ("shenzi", "ed")]
    assert shown == ["", "Wins over 3 games: ed 3, shenzi 3"]


def test_packaged_deck_is_the_medium_test_deck() -> None:
    from importlib.resources import files

    packaged = (files("cardtable.games.austerity") / "decks" / "medium.deck").read_bytes()
    tests_deck = Path(__file__).parents[1] / "austerity" / "decks" / "medium.deck"
    assert packaged == tests_deck.read_bytes() and parse_deck(packaged) is not None


@pytest.mark.parametrize(("key", "status"), [("ctrl+c", 130), ("ctrl+q", 0), ("escape", 0)])
def test_launcher_keys_leave(key: str, status: int, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> LauncherApp:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert "ctrl+q" not in screen_text(app).lower()
        return app

    form = asyncio.run(scenario())
    assert form.return_value is None and form.status == status


def test_back_on_the_launcher_every_field_is_as_the_player_left_it() -> None:
    async def choose() -> Choice | None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.query_one("#game").value = "obsession"
            await pilot.pause()  # the form shows the game's column
            app.query_one("#players").value = "6"
            app.query_one("#humans").value = "2"
            app.query_one("#bot").value = "random"
            app.query_one("#run_kill").value = "3"
            app.query_one("#seed").value = "12"
            await click_play(app, pilot)
            await pilot.pause()
        return app.return_value

    choice = asyncio.run(choose())
    assert choice is not None and len(choice.table.seats) == 6

    async def come_back(last: Choice) -> dict[str, object]:
        app = LauncherApp(last)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            values = app.values()
            await pilot.press("escape")
        return values

    values = asyncio.run(come_back(choice.next_game()))
    assert values["game"] == "obsession"
    assert (values["players"], values["humans"], values["bot"], values["run_kill"],
            values["seed"]) == ("6", "2", "random", "3", "12")


def test_austerity_keys_line_uses_the_separator_of_the_other_screens() -> None:
    table = build_table("shenzi,banzai,ed", "", "5", "15")

    async def scenario(ascii_only: bool) -> str:
        app = AusterityApp(table, 1000.0, ascii_only=ascii_only)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return screen_text(app)

    assert "Esc quit · ?/F1 help · Ctrl+R again" in asyncio.run(scenario(False))
    assert "Esc quit, ?/F1 help, Ctrl+R again" in asyncio.run(scenario(True))


LONG = "1" * 40 + "..."


@pytest.mark.parametrize(("field", "value", "message"), [
    ("seed", "1" * 5000, f"Seed must be an integer >= 0 (got '{LONG}')"),
    ("delay", "100000", "Bot delay must be a number of seconds from 0 to 86400 (got '100000')"),
    ("delay", "9" * 400, f"Bot delay must be a number of seconds from 0 to 86400 "
                         f"(got '{'9' * 40}...')"),
    ("players", "1" * 5000, f"Players must be an integer from 2 to 10 (got '{LONG}')"),
    ("humans", "1" * 5000, f"Humans must be an integer from 0 to 4 (got '{LONG}')"),
    ("run_kill", "1" * 5000, f"Run-kill must be an integer from 2 to 8 (got '{LONG}')"),
])
def test_launcher_refuses_seeds_and_delays_as_the_commands_do(field: str, value: str,
                                                              message: str) -> None:
    values = {"game": "obsession", "seed": "", "delay": "0", "players": "4", "humans": "1",
              "bot": "obsessed", "run_kill": "4", "record": "", field: value}
    with pytest.raises(ValueError) as refused:
        build_choice(values)
    assert str(refused.value) == message


@pytest.mark.parametrize("field", ["tokens", "points"])
def test_austerity_counts_of_thousands_of_digits_get_the_fields_message(field: str) -> None:
    values = {"game": "austerity", "delay": "0", "lineup": "shenzi,ed", "austerity_deck": "",
              "tokens": "5", "points": "15", field: "1" * 5000}
    with pytest.raises(ValueError) as refused:
        build_choice(values)
    assert str(refused.value) == f"{field.title()} must be a whole number from 0 to 2147483647."


def test_enter_in_a_text_field_starts_as_play_does() -> None:
    async def scenario() -> Choice | None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.query_one("#seed").focus()
            for key in "42":
                await pilot.press(key)
            await pilot.press("enter")
            await pilot.pause()
        return app.return_value

    choice = asyncio.run(scenario())
    assert choice is not None and choice.game == "caravan" and choice.seed == 42


@pytest.mark.parametrize("seed", ["٣", "-5", "+3", "1_000"])
def test_the_launcher_reads_a_seed_as_the_command_lines_do(seed: str) -> None:
    from cardtable.ui.tui.launcher import build_choice

    with pytest.raises(ValueError, match=r"^Seed must be an integer >= 0"):
        build_choice({"game": "caravan", "seed": seed})


def test_esc_on_an_open_list_closes_the_list_and_keeps_the_form() -> None:
    async def scenario() -> LauncherApp:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.query_one("#seed", Input).value = "12"
            game = app.query_one("#game", Select)
            game.focus()
            await pilot.press("enter")  # Enter on a drop-down opens its list
            await pilot.pause()
            assert game.expanded
            await pilot.press("escape")
            await pilot.pause()
            assert app.is_running and not game.expanded
            assert app.focused is game and app.values()["seed"] == "12"
            await pilot.press("escape")  # on the form itself Esc leaves, as before
            await pilot.pause()
        return app

    form = asyncio.run(scenario())
    assert form.return_value is None and form.status == 0


def test_the_hint_says_what_enter_does_where_the_keyboard_is() -> None:
    async def scenario() -> list[str]:
        app = LauncherApp()
        hints = []
        async with app.run_test(size=(80, 24)) as pilot:
            for target in ("#play", "#game", "#seed", "#ascii"):
                app.query_one(target).focus()
                await pilot.pause()
                hints.append(screen_text(app).splitlines()[-1].strip())
            await pilot.press("escape")
        return hints

    play, select, text, checkbox = asyncio.run(scenario())
    assert play == text == "Tab moves between fields · Enter starts · Esc quits"
    assert select.startswith("Enter opens this list")
    assert "Tab to Play, then Enter, starts" in select
    assert checkbox.startswith("Enter or Space ticks")


def test_the_focused_field_stands_out() -> None:
    async def scenario() -> None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            seed, delay = app.query_one("#seed", Input), app.query_one("#delay", Input)
            seed.focus()
            await pilot.pause()
            # The field with the keyboard is drawn in the accent colour, in bold; the others
            # keep the form's background.
            assert seed.rich_style.bold and not delay.rich_style.bold
            assert seed.rich_style.bgcolor != delay.rich_style.bgcolor
            game = app.query_one("#game", Select)
            game.focus()
            await pilot.pause()
            current, other = (select.query_one(SelectCurrent)
                              for select in (game, app.query_one("#preset", Select)))
            assert current.rich_style.bold and not other.rich_style.bold
            assert current.rich_style.bgcolor != other.rich_style.bgcolor

    asyncio.run(scenario())


def test_the_wins_line_names_the_bots() -> None:
    from cardtable.engine.match import play_match
    from cardtable.games.caravan.bots import make_bot
    from cardtable.games.caravan.rules import SeatRules
    from cardtable.games.caravan.state import CaravanState as CaravanGame
    from cardtable.ui.tui.caravan_app import caravan_tally

    game = CaravanGame.new(SeatRules.preset("power"), seed=5)
    play_match(game, {"ABC": make_bot("normal", 0, 5), "DEF": make_bot("random", 1, 5)})
    assert game.result is not None
    entry = caravan_tally(game, ("bot:normal", "bot:random"), ("BOT1", "BOT2"))
    assert entry is not None and entry[0] == ["normal", "random"]
    tally = WinTally()
    tally.add(*entry)
    assert "normal" in tally.line() and "random" in tally.line() and "BOT" not in tally.line()
    same = caravan_tally(game, ("bot:normal", "bot:normal"), ("BOT1", "BOT2"))
    assert same is not None and same[0] == ["BOT1 normal", "BOT2 normal"]
    person = caravan_tally(game, ("human", "bot:expert"), ("YOU", "BOT"))
    assert person is not None and person[0] == ["YOU", "expert"]


def test_the_launcher_refuses_a_caravan_program_for_obsession_seats() -> None:
    examples = Path(__file__).parents[2] / "examples" / "bots"

    async def scenario(program: str) -> tuple[Choice | None, str]:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.query_one("#game", Select).value = "obsession"
            await pilot.pause()  # the form shows the game's column
            app.query_one("#bot", Select).value = "exec"
            app.query_one("#program", Input).value = shlex.join(
                [sys.executable, str(examples / program)])
            await click_play(app, pilot)
            await until(pilot, lambda: not app.is_running or "program" in screen_text(app),
                        "the program's answer to its hello")
            text = screen_text(app)
            if app.is_running:
                await pilot.press("escape")
        return app.return_value, text

    refused, text = asyncio.run(scenario("caravan_random.py"))
    assert refused is None
    assert "The program plays caravan, not Obsession: choose an Obsession program." in text
    accepted, _ = asyncio.run(scenario("obsession_random.py"))
    assert accepted is not None and accepted.table.seats[1].startswith("exec:")


def test_the_launcher_refuses_an_obsession_program_for_a_caravan_seat() -> None:
    from cardtable.ui.tui.launcher import check_program_game

    program = shlex.join([sys.executable, str(Path(__file__).parents[2] / "examples" / "bots"
                                              / "obsession_random.py")])
    choice = build_choice({"game": "caravan", "seed": "", "delay": "0", "preset": "power",
                           "abc": "human", "def": "exec", "program": program})
    with pytest.raises(ValueError) as refused:
        check_program_game(choice)
    assert str(refused.value) == ("The program plays obsession, not Caravan: choose a Caravan "
                                  "program.")
