"""The Caravan screen driven by key presses and clicks against bots (``delay`` 0)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.rules import SeatRules
from cardtable.ui.tui import common as tui_common
from cardtable.ui.tui.caravan_app import CaravanApp
from cardtable.ui.tui.common import ConfirmQuit, HelpScreen, screen_text

from .pilot import TYPED_MOVES, enter_line, settled_text, type_line
from .snapshot import check_snapshot

POWER = SeatRules.preset("power")


def make_app(seed: int = 7, record: str | None = None, ascii_only: bool = True,
             players: tuple[str, str] = ("human", "bot:normal")) -> CaravanApp:
    return CaravanApp(POWER, players, seed, 0, 0.0, None, record, ascii_only)


async def settle(app: CaravanApp, pilot) -> None:  # type: ignore[no-untyped-def]
    await app.workers.wait_for_complete()
    await pilot.pause()


async def until_over(app: CaravanApp, pilot, rounds: int) -> None:  # type: ignore[no-untyped-def]
    """Let bots (or a replay) move, ``rounds`` times at most, until the game is over."""
    for _ in range(rounds):
        await settle(app, pilot)
        if app.game.result is not None:
            return


async def play_whole_game(app: CaravanApp, pilot, snap_mid: str | None = None) -> int:  # type: ignore[no-untyped-def]
    """Play the human seat with the normal bot's choices, typed as commands."""
    helper = make_bot("normal", 0, 99)
    moves = 0
    await settle(app, pilot)
    while True:
        if app.game.result is not None:
            break
        assert app.is_human_turn(), "the screen waits for the human"
        move = helper.choose(app.game.observation(0))
        await enter_line(app, pilot, move.notation, typed=moves < TYPED_MOVES)
        await settle(app, pilot)
        moves += 1
        if moves == 8 and snap_mid is not None:
            check_snapshot(snap_mid, screen_text(app))
        assert moves < 400
    return moves


def test_whole_game_with_errors_and_record(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"

    async def scenario() -> None:
        app = make_app(seed=7, record=str(record))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            check_snapshot("caravan_start_80x24", screen_text(app))
            await type_line(pilot, "q1")
            await type_line(pilot, "P9A")
            await type_line(pilot, "P1Z")
            await type_line(pilot, "D1")
            await settle(app, pilot)
            assert "Invalid option 'q', must be one of: (P)lay, (D)iscard, (C)lear." \
                in app.messages
            assert "The chosen hand position is out of range." in app.messages
            assert "Invalid caravan name 'Z', must be between: A-F." in app.messages
            assert app.game.plies == 0
            errors = [m for m in app.messages if "entered" not in m]
            assert len(errors) == 3 + 4  # welcome lines and four refusals
            await play_whole_game(app, pilot, snap_mid="caravan_mid_80x24")
            assert app.game.result is not None
            assert app.messages[-1] == "Press Esc to exit."
            assert any(m.startswith(("WINNER: ", "DRAW")) for m in app.messages)
            check_snapshot("caravan_end_80x24", screen_text(app))
            await pilot.press("escape")
            await pilot.pause()
        assert app.return_value == 0

    asyncio.run(scenario())
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["type"] == "header"
    assert lines[0]["seats"][1] == {"seat": "DEF", "player": "bot:normal"}
    assert [line["event"] for line in lines[1:3]] == ["deck", "deck"]
    assert lines[-1]["type"] == "result" and lines[-1]["reason"] != "abandoned"


def test_illegal_move_keeps_the_turn() -> None:
    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "D1")
            await settle(app, pilot)
            assert app.important is not None
            assert app.important in app.messages
            assert app.game.plies == 0 and app.is_human_turn()

    asyncio.run(scenario())


def test_highlight_while_typing_and_mouse_play() -> None:
    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            for key in "P1":
                await pilot.press(key)
            assert app.partial.hand == 1 and app.partial.caravan is None
            await pilot.press("b")
            await pilot.pause()
            assert app.partial.caravan == 1
            assert app.query_one("#caravan-b").has_class("chosen")
            await pilot.press("backspace", "backspace", "backspace")
            # Click the first hand card, then caravan A.
            numeral = next(i for i, card in enumerate(app.game.observation(0).hand, 1)
                           if card & 15 <= 10)
            hand = app.query_one("#hand-abc")
            cell = hand.cell()
            await pilot.click("#hand-abc", offset=(1 + ((numeral - 1) % hand.per_line()) * cell,
                                                  1 + (numeral - 1) // hand.per_line()))
            await pilot.pause()
            assert app.query_one("#command").value == f"P{numeral}"
            await pilot.click("#caravan-a", offset=(3, 2))
            await settle(app, pilot)
            assert app.game.plies >= 1
            assert len(app.game.caravans[0]) == 1

    asyncio.run(scenario())


def test_quit_mid_game_asks_first(tmp_path: Path) -> None:
    record = tmp_path / "quit.jsonl"

    async def scenario() -> None:
        app = make_app(record=str(record))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "P1A")
            await settle(app, pilot)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmQuit)
            assert app.game.result is None
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
        assert app.return_value == 0
        assert app.game.result is not None and app.game.result.reason == "quit"

    asyncio.run(scenario())
    last = json.loads(record.read_text().splitlines()[-1])
    assert last["reason"] == "abandoned" and last["winners"] == []


def test_help_screen() -> None:
    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            check_snapshot("caravan_help_80x24", screen_text(app))
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, (HelpScreen, ConfirmQuit))
            await pilot.press("f1")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)

    asyncio.run(scenario())


def test_too_small_terminal() -> None:
    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(app, pilot)
            text = screen_text(app)
            for line in ("Terminal too small", "Width:  60 / 80", "Height: 20 / 24",
                         "Resize terminal or press Esc"):
                assert line in text
            check_snapshot("caravan_too_small_60x20", text)
            await pilot.press("escape")
            await pilot.pause()
        assert app.return_value == 0

    asyncio.run(scenario())


def test_wide_terminal_and_bots_only() -> None:
    async def scenario() -> None:
        app = make_app(seed=3, players=("bot:random", "bot:normal"), ascii_only=False)
        async with app.run_test(size=(140, 40)) as pilot:
            await until_over(app, pilot, 200)
            assert app.game.result is not None
            text = await settled_text(app, lambda: settle(app, pilot))
            assert "BOT1" in text and "BOT2" in text
            check_snapshot("caravan_bvb_end_140x40", text)

    asyncio.run(scenario())


def test_no_color_keeps_text_markers(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("NO_COLOR", "1")

    async def scenario() -> None:
        app = make_app(seed=3, players=("bot:normal", "bot:normal"))
        assert not app.theme_.colour
        async with app.run_test(size=(80, 24)) as pilot:
            await until_over(app, pilot, 200)
            text = screen_text(app)
            assert "WINNER: BOT" in text
            assert "WINS" in text  # the lane marker needs no colour

    asyncio.run(scenario())


class HeldPause:
    """The app module's ``asyncio``, except that a bot's pause lasts until :meth:`release`
    (however long the machine takes to get there), not for ``delay`` seconds."""

    def __init__(self) -> None:
        self.released = asyncio.Event()

    def __getattr__(self, name: str) -> object:
        return getattr(asyncio, name)

    async def sleep(self, seconds: float) -> None:
        await self.released.wait()

    def release(self) -> None:
        self.released.set()


def test_bot_thinks_without_freezing_the_screen(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    held = HeldPause()
    monkeypatch.setattr(tui_common, "asyncio", held)

    async def scenario() -> None:
        app = CaravanApp(POWER, ("bot:normal", "human"), 5, 0, 2.0, None, None, True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "BOT is thinking..." in screen_text(app)
            assert app.query_one("#command").disabled
            await pilot.press("question_mark")  # the screen still answers keys
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            assert app.game.plies == 0
            held.release()
            await settle(app, pilot)
            assert app.is_human_turn() and app.game.plies == 1

    asyncio.run(scenario())


def test_two_humans_see_only_the_hand_of_the_seat_to_move() -> None:
    async def scenario() -> None:
        app = make_app(players=("human", "human"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert app.visible_hand(0) is not None and app.visible_hand(1) is None
            await type_line(pilot, "P1A")
            await settle(app, pilot)
            assert app.game.plies == 1
            await pilot.press("enter")  # PL2 takes the keyboard
            await pilot.pause()
            assert app.visible_hand(0) is None and app.visible_hand(1) is not None
            assert "PL2 >" in screen_text(app)

    asyncio.run(scenario())


def test_a_failing_bot_ends_on_the_error_screen() -> None:
    class Broken:
        def choose(self, observation: object) -> object:
            raise RuntimeError("the bot fell over")

    async def scenario() -> None:
        app = CaravanApp(POWER, ("bot:normal", "human"), 5, 0, 0.0, None, None, True)
        app.bots[0] = Broken()  # type: ignore[assignment]
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            text = screen_text(app)
            assert "the bot fell over" in text and "Press Esc to exit." in text
            await pilot.press("escape")
            await pilot.pause()
        assert app.return_value == 1

    asyncio.run(scenario())


def test_bots_that_can_no_longer_end_the_game_are_stopped(tmp_path: Path) -> None:
    from dataclasses import replace

    record = tmp_path / "stuck.jsonl"

    async def scenario() -> None:
        # Under foxon, seed 37, two normal bots end up only discarding.
        rules = replace(SeatRules.preset("foxon"), stuck_plies=40)
        app = CaravanApp(rules, ("bot:normal", "bot:normal"), 37, 0, 0.0, None, str(record), True)
        async with app.run_test(size=(100, 30)) as pilot:
            await until_over(app, pilot, 400)
            assert app.game.result is not None
            assert app.game.result.details["cause"] == "stalemate"
            assert ("No caravan has changed in 40 moves: the bots are stuck and the game is "
                    "stopped.") in app.messages
            assert "Game abandoned." in screen_text(app)

    asyncio.run(scenario())
    result = json.loads(record.read_text(encoding="utf-8").splitlines()[-1])
    assert result["reason"] == "abandoned" and result["cause"] == "stalemate"


def _recorded_game(path: Path, seed: int = 2) -> list[str]:
    """Record a bot game through the line mode; returns its move messages."""
    import subprocess
    import sys

    caravan = Path(sys.executable).with_name("caravan")
    done = subprocess.run([str(caravan), "--bvb", "--seed", str(seed), "--record", str(path)],
                          capture_output=True, text=True, timeout=120, check=True)
    return [line for line in done.stdout.splitlines()
            if " played " in line or " discarded " in line or " cleared " in line
            or " destroyed " in line]


def test_replay_shows_every_recorded_move_and_the_winner(tmp_path: Path) -> None:
    from cardtable.games.caravan.record import load_replay
    from cardtable.ui.tui.caravan_replay import CaravanReplayApp

    record = tmp_path / "game.jsonl"
    moves = _recorded_game(record)

    async def scenario() -> None:
        app = CaravanReplayApp(load_replay(record), delay=0.0, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await until_over(app, pilot, 400)
            assert app.game.result is not None
            shown = [line for line in app.messages if line in set(moves)]
            assert shown == moves
            assert any(line.startswith("WINNER: BOT") for line in app.messages)
            assert "WINNER: BOT" in screen_text(app)
            await pilot.press("escape")
        assert app.return_value == 0

    asyncio.run(scenario())


def test_replay_of_a_cut_record_says_so_and_exits_1(tmp_path: Path) -> None:
    from cardtable.games.caravan.record import load_replay
    from cardtable.ui.tui.caravan_replay import CaravanReplayApp

    record = tmp_path / "game.jsonl"
    _recorded_game(record)
    lines = record.read_text(encoding="utf-8").splitlines()
    record.write_text("\n".join(lines[:8]) + "\n", encoding="utf-8")

    async def scenario() -> None:
        app = CaravanReplayApp(load_replay(record), delay=0.0, ascii_only=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await until_over(app, pilot, 100)
            assert f"Replay '{record}', line 9: missing result line." in app.messages
            assert "Game abandoned." in screen_text(app)
            await pilot.press("escape")
        assert app.return_value == 1

    asyncio.run(scenario())


# ------------------------------------------------------------ the screen explains the game


def widget_text(app: CaravanApp, selector: str) -> str:
    """What one widget shows on the screen, its lines joined by spaces."""
    region = app.query_one(selector).region
    lines = screen_text(app).splitlines()[region.y:region.y + region.height]
    return " ".join(line[region.x:region.x + region.width].strip() for line in lines).strip()


def test_help_is_how_to_play_for_the_rules_in_play() -> None:
    from dataclasses import replace

    from cardtable.games.caravan.rules import FOXON

    async def scenario() -> None:
        rules = SeatRules(FOXON, replace(FOXON, king_mode="double"))
        app = CaravanApp(rules, ("human", "bot:normal"), 7, 0, 0.0, None, None, True)
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(app, pilot)
            assert "P2B P4B3 D3 CB4" in screen_text(app)  # the hint follows the rules
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            text = "\n".join(app.screen.lines)
            assert "How to play Caravan - rules: foxon, changed for DEF: king_mode" in text
            assert "ABC: King: adds the numeral's value again" in text
            assert "DEF: King: doubles the numeral's value" in text
            assert "Destroy and restart" in text and "Seed: 7" in text
            assert "max_numerals =" not in text  # rules, not a list of fields

    asyncio.run(scenario())


def test_hot_seat_hands_over_before_showing_the_next_hand() -> None:
    from cardtable.ui.tui.common import PassScreen

    async def scenario() -> None:
        app = make_app(players=("human", "human"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            pl2_cards = [code(card) for card in app.game.observation(1).hand]
            await type_line(pilot, "P1A")
            await settle(app, pilot)
            assert isinstance(app.screen, PassScreen)
            text = screen_text(app)
            assert "Pass to PL2" in text and "press Enter" in text
            assert app.visible_hand(0) is None and app.visible_hand(1) is None
            assert not any(card in text for card in pl2_cards if len(card) == 3)
            await pilot.press("f2")  # no moves of a hand nobody may see
            await pilot.pause()
            assert not any(line.startswith("Legal moves") for line in app.messages)
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, PassScreen)
            assert app.visible_hand(1) is not None and "PL2 >" in screen_text(app)

    from cardtable.games.caravan.cards import code

    asyncio.run(scenario())


def test_hot_seat_hint_names_the_caravans_of_the_player_to_move() -> None:
    from textual.widgets import Input

    async def scenario() -> None:
        app = make_app(players=("human", "human"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            command = app.query_one("#command", Input)
            assert command.placeholder == "P2B P4F3 D3 CA"
            await type_line(pilot, "P1A")
            await settle(app, pilot)
            await pilot.press("enter")  # PL2 takes the keyboard
            await pilot.pause()
            assert command.placeholder == "P2E P4C3 D3 CD"
            assert "PL2 > P2E P4C3 D3 CD" in screen_text(app)
            await type_line(pilot, "P1D")
            await settle(app, pilot)
            await pilot.press("enter")
            await pilot.pause()
            assert command.placeholder == "P2B P4F3 D3 CA"

    asyncio.run(scenario())


def test_foxon_hint_plays_faces_on_your_own_caravans() -> None:
    from textual.widgets import Input

    async def scenario() -> None:
        app = CaravanApp(SeatRules.preset("foxon"), ("human", "bot:normal"), 7, 0, 0.0,
                         None, None, True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert app.query_one("#command", Input).placeholder == "P2B P4B3 D3 CB4"

    asyncio.run(scenario())


def test_joker_lists_every_card_it_removed() -> None:
    async def scenario() -> None:
        app = make_app(seed=1, players=("bot:normal", "bot:normal"))
        async with app.run_test(size=(100, 30)) as pilot:
            await until_over(app, pilot, 400)
            assert ("BOT2 played JO on 10H on Caravan A. Removed: 10S from Caravan C, "
                    "10S from Caravan D.") in app.messages

    asyncio.run(scenario())


def test_face_card_without_slot_asks_for_the_slot_and_discard_says_your() -> None:
    async def scenario() -> None:
        app = CaravanApp(SeatRules.preset("karavane"), ("human", "bot:normal"), 1, 0, 0.0,
                         None, None, True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "P1A")  # 7C
            await settle(app, pilot)
            await type_line(pilot, "P1A")  # JC without a slot
            await settle(app, pilot)
            message = "Face cards are played on a card: give its slot, e.g. P4A2."
            assert app.important == message and message in widget_text(app, "#status")
            await type_line(pilot, "D1")
            await settle(app, pilot)
            assert "YOU discarded JC from your hand." in app.messages

    asyncio.run(scenario())


def test_moves_key_and_word_list_the_legal_moves() -> None:
    async def scenario() -> None:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            expected = [move.notation for move in app.game.legal_moves()]
            await pilot.press("f2")
            await pilot.pause()
            listed = [line for line in app.messages if line.startswith("Legal moves")]
            assert listed == [f"Legal moves ({len(expected)}): " + " ".join(expected)] or \
                listed[0].startswith(f"Legal moves ({len(expected)}): P1A")
            shown = " ".join(app.messages[app.messages.index(listed[0]):]).split()
            assert shown[3:] == expected
            await type_line(pilot, "moves")
            await pilot.pause()
            assert len([line for line in app.messages if line.startswith("Legal moves")]) == 2
            assert app.game.plies == 0 and "F2 moves" in screen_text(app)

    asyncio.run(scenario())


def test_typed_quit_or_exit_asks_first() -> None:
    async def scenario() -> None:
        for word in ("quit", "exit"):
            app = make_app()
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(app, pilot)
                await type_line(pilot, word)
                await pilot.pause()
                assert isinstance(app.screen, ConfirmQuit)
                await pilot.press("n")
                await pilot.pause()
                assert app.game.result is None
                assert not any(m.startswith("Invalid option") for m in app.messages)
                await type_line(pilot, word)
                await pilot.pause()
                await pilot.press("y")
                await pilot.pause()
            assert app.return_value == 0 and app.game.result is not None

    asyncio.run(scenario())


def test_seed_preset_counts_and_long_input_are_shown() -> None:
    async def scenario() -> None:
        app = make_app(seed=7)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            text = screen_text(app)
            assert "power, seed 7" in text
            assert "deck 46, hand 8" in text
            # Typed input is not cut at 4 characters: the parser refuses what is too long.
            await type_line(pilot, "P10F12")
            await settle(app, pilot)
            assert "YOU entered: P10F12" in app.messages
            assert app.important == "The chosen hand position is out of range."
            # A long refusal is never cut in the status line.
            await type_line(pilot, "D1")
            await settle(app, pilot)
            long = "A player cannot discard a card during the Start round."
            assert app.important == long
            assert long in widget_text(app, "#status")

    asyncio.run(scenario())


def test_bots_only_shows_no_move_hints() -> None:
    async def scenario() -> None:
        app = make_app(players=("bot:normal", "bot:normal"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "P2B P4F3 D3 CA" not in text and "F2 moves" not in text

    asyncio.run(scenario())


def test_discard_piles_are_shown_under_foxon() -> None:
    async def scenario() -> None:
        app = CaravanApp(SeatRules.preset("foxon"), ("bot:normal", "bot:normal"), 2, 0, 0.0,
                         None, None, True)
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(60):
                await settle(app, pilot)
                if app.game.piles[0] or app.game.result is not None:
                    break
            pile = app.game.observation(0).piles[0]
            assert pile
            assert f"pile {len(pile)}: " in screen_text(app)
        power = make_app(players=("bot:normal", "bot:normal"))
        async with power.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert "pile 0" not in screen_text(power)

    asyncio.run(scenario())


def test_ascii_screens_hold_only_ascii() -> None:
    async def scenario() -> None:
        app = make_app(seed=7, ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert screen_text(app).isascii(), screen_text(app)
            await pilot.press("escape")

    asyncio.run(scenario())
