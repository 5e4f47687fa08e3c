"""The Obsession screen driven by key presses and clicks against bots (``delay`` 0)."""

from __future__ import annotations

import asyncio
import json
import shlex
from pathlib import Path

from textual.widgets import Static

from cardtable.games.obsession.actions import Action
from cardtable.games.obsession.bots import make_bot
from cardtable.games.obsession.cards import FACE
from cardtable.games.obsession.explain import selection_numbers
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import ObsessionState
from cardtable.ui.tui.common import ConfirmQuit, HelpScreen, screen_text
from cardtable.ui.tui.obsession_app import HELP_LINES, ObsessionApp, PassScreen
from obsession.helpers import position

from .pilot import TYPED_MOVES, enter_line, settled_text, type_line, until
from .snapshot import check_snapshot
from .terminal import BIN, needs_tmux, start, tmux, wait_for


def selection_text(observation: Observation, action: Action) -> str:
    """The numbers a person would type for ``action``."""
    return selection_numbers(observation, action)


async def settle(app: ObsessionApp, pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


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
    helpers = {seat: make_bot("obsessed", seat, 5) for seat in range(app.game.players)}
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
        await enter_line(app, pilot,
                         selection_text(observation, helpers[seat].choose(observation)),
                         typed=decisions < TYPED_MOVES)
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
                assert app.messages[-1] == ("!!! Invalid selection: cards played together "
                                            "must share one face")
            await play_out(app, pilot, snap_mid="obsession_mid_80x24")
            assert app.game.over
            assert "=== Game Over ===" in app.messages
            check_snapshot("obsession_end_80x24", screen_text(app))
            await pilot.press("escape")
            await pilot.pause()
        assert app.return_value == 0

    asyncio.run(scenario())
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "result"


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
                    seen.add(app.screen.player)
            assert seen == {"Player 1", "Player 2"}

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
    assert last == {"type": "result", "winners": [], "reason": "abandoned", "cause": "quit",
                    "details": last["details"]}


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
            # Every help line fits the page at 80 columns: none is wrapped mid-sentence.
            assert "click cards;" in screen_text(app) and "  Enter plays." in screen_text(app)
            assert all(len(line) <= 66 for line in HELP_LINES)
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
            check_snapshot("obsession_bots10_end_120x36",
                           await settled_text(app, lambda: settle(app, pilot)))

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


# --- the screen explains the game --------------------------------------------------------


def crafted(game: ObsessionState, seats: tuple[str, ...], delay: float = 0.0,
            ascii_only: bool = True) -> ObsessionApp:
    """An app playing ``game`` (a crafted position) with these seats."""
    app = ObsessionApp(game.rules, seats, 7, delay, ascii_only=ascii_only)
    app.game = game
    return app


def status_text(app: ObsessionApp) -> str:
    return str(app.query_one("#status", Static).render())


def pile_text(app: ObsessionApp) -> str:
    return str(app.query_one("#pile", Static).render())


def test_an_extra_turn_is_announced_and_an_8_lets_anything_follow() -> None:
    game = position(3, hands={0: "8C 9D", 1: "KC", 2: "KD"}, pile="9S", draw="5C 5D 5H 5S",
                    humans=[True, False, False])

    async def scenario() -> None:
        app = crafted(game, ("human", "obsessed", "obsessed"), ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert "Next: a 9 or higher, or 2, 3, 7, 8, 10 or R" in pile_text(app)
            await type_line(pilot, "1")
            await settle(app, pilot)
            # The log writes cards as the table does.
            assert "*** Played an 8♣" in app.messages
            assert "*** Player 1 plays again after the 8." in app.messages
            assert app.is_human_turn() and app.game.current == 0
            assert "Next: anything" in pile_text(app)
            assert "to beat" not in screen_text(app)

    asyncio.run(scenario())


def test_ascii_event_log_uses_letters() -> None:
    game = position(3, hands={0: "8C 9D", 1: "KC", 2: "KD"}, pile="9S", draw="5C 5D 5H 5S",
                    humans=[True, False, False])

    async def scenario() -> None:
        app = crafted(game, ("human", "obsessed", "obsessed"), ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "1")
            await settle(app, pilot)
            assert "*** Played an 8C" in app.messages

    asyncio.run(scenario())


def test_a_refused_play_says_what_may_be_played_and_the_status_keeps_it_whole() -> None:
    game = position(3, hands={0: "4C KD", 1: "KC", 2: "KH"}, pile="9S", draw="5C 5D 5H",
                    humans=[True, False, False])
    message = ("!!! Invalid selection: a 4 cannot be played on a 9; play a 9 or higher, "
               "or 2, 3, 7, 8, 10 or R")

    async def scenario() -> None:
        app = crafted(game, ("human", "obsessed", "obsessed"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "1")
            await settle(app, pilot)
            assert app.messages[-1] == message
            assert status_text(app) == message
            # The status line wraps instead of cutting the message at the panel's edge.
            shown = " ".join(line.strip() for line in screen_text(app).splitlines()
                             if "│" not in line[:2])
            assert "or 2, 3, 7, 8, 10 or R" in shown
            assert app.query_one("#status").size.height >= 2

    asyncio.run(scenario())


def test_going_out_names_the_place_and_the_last_one_loses() -> None:
    game = position(3, hands={0: "KC", 1: "AC", 2: "AD AH"}, pile="9S",
                    humans=[True, False, False])

    async def scenario() -> None:
        app = crafted(game, ("human", "obsessed", "obsessed"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "1")
            await settle(app, pilot)
            assert app.game.over
            assert "*** Player 1 goes out in 1st place and wins!" in app.messages
            assert "*** Player 2 goes out in 2nd place." in app.messages
            assert "*** Player 3 is the last one left and loses (3rd place)." in app.messages
            assert not any(line.endswith("wins!") and "1st" not in line
                           for line in app.messages)

    asyncio.run(scenario())


def test_moves_key_and_command_list_the_legal_moves() -> None:
    game = position(3, hands={0: "4C 9D 9H KS", 1: "KC", 2: "KH"}, pile="9S",
                    draw="5C 5D 5H", humans=[True, False, False])
    listed = "Moves: 2 (9D), 2 3 (9D 9H), 3 (9H), 4 (KS)"

    async def scenario() -> None:
        app = crafted(game, ("human", "obsessed", "obsessed"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert "F2 moves" in str(app.query_one("#keys", Static).render())
            await type_line(pilot, "1")  # 4C on 9S: refused; the moves replace the message
            await pilot.press("f2")
            await pilot.pause()
            assert app.messages[-1] == listed
            assert status_text(app) == listed
            await type_line(pilot, "moves")
            await pilot.pause()
            assert app.messages[-2:] == [listed, listed]
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert "F2" in "\n".join(app.screen.lines)

    asyncio.run(scenario())


def test_typing_quit_or_exit_asks_like_escape() -> None:
    async def scenario() -> None:
        app = ObsessionApp(Rules(players=2), ("human", "obsessed"), 4, 0.0, ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "quit")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmQuit)
            await type_line(pilot, "exit")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            await pilot.press("y")
            await pilot.pause()
        assert app.return_value == 0

    asyncio.run(scenario())


def test_seed_and_rules_are_shown_and_bots_only_games_show_no_move_hints() -> None:
    async def scenario() -> None:
        rules = Rules(players=3, run_kill=3, kill_order="kill-first")
        app = ObsessionApp(rules, ("random",) * 3, 5, 60.0, ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "seed 5" in text and "run-kill 3" in text and "kill-first" in text
            assert "max 5000 plays" in text and "repeat limit 3" in text
            assert "hidden  place" in text  # every count beside a name has a column head
            assert "card numbers" not in text and "Enter play" not in text
            assert "F2" not in text
            app.workers.cancel_group(app, "bot")

    asyncio.run(scenario())


def test_fast_forward_once_a_human_is_out() -> None:
    game = position(3, hands={0: "KC", 1: "AC 5C", 2: "AD AH 6C"}, pile="9S",
                    humans=[True, False, False])

    async def scenario() -> None:
        app = crafted(game, ("human", "obsessed", "obsessed"), delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "fast-forward" not in str(app.query_one("#keys", Static).render())
            await type_line(pilot, "1")
            await pilot.pause()
            assert app.game.out[0] and not app.game.over
            assert "f fast-forward" in str(app.query_one("#keys", Static).render())
            assert "f: fast-forward" in status_text(app)
            await pilot.press("f")
            await asyncio.wait_for(settle(app, pilot), 20)
            for _ in range(50):
                if app.game.over:
                    break
                await asyncio.wait_for(settle(app, pilot), 20)
            assert app.game.over and app.delay == 0

    asyncio.run(scenario())


@needs_tmux
def test_moves_seed_and_typed_quit_in_a_real_terminal(session: str) -> None:
    start(session, f"{shlex.quote(str(BIN / 'obsession'))} --seed 1 --delay 0 --ascii")
    screen = wait_for(session, "Select your 3 VISIBLE cards")
    assert "seed 1 " in screen and "F2 moves" in screen
    tmux("send-keys", "-t", session, "F2")
    wait_for(session, "Moves: any 3 different numbers from 1 to 6")
    tmux("send-keys", "-t", session, "quit", "Enter")
    wait_for(session, "Quit this game?")
    tmux("send-keys", "-t", session, "y")


def test_fast_forward_is_offered_when_one_of_two_humans_is_out() -> None:
    game = position(3, hands={0: "KC", 1: "AC 5C", 2: "AD AH 6C"}, pile="9S",
                    humans=[True, True, False])

    async def scenario() -> None:
        app = crafted(game, ("human", "human", "obsessed"), delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert not app.fast_forward_available()
            app.game.out[0] = True  # as if P1 had just gone out
            assert app.fast_forward_available()
            app.workers.cancel_group(app, "bot")

    asyncio.run(scenario())


def test_keys_typed_while_the_terminal_is_too_small_are_kept() -> None:
    async def scenario() -> None:
        app = ObsessionApp(Rules(players=2), ("human", "obsessed"), 4, 0.0, ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.resize_terminal(70, 22)
            await pilot.pause()
            assert "Terminal too small" in screen_text(app)
            await pilot.press("1", "2", "4", "backspace")
            await pilot.resize_terminal(80, 24)
            # The keys reach the command line once it is shown again.
            await until(pilot, lambda: app.command_text() == "1 2 ", "the typed keys")
            assert app.command_text() == "1 2 "  # 1 and 2 picked, 4 typed then erased

    asyncio.run(scenario())


def test_a_line_without_a_number_is_answered() -> None:
    async def scenario() -> None:
        app = ObsessionApp(Rules(players=2), ("human", "obsessed"), 4, 0.0, ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "abc")
            await pilot.pause()
            message = "!!! Type the numbers of 3 different cards (1 to 6), or help"
            assert message in app.messages and "!!! Type the numbers of 3" in screen_text(app)

    asyncio.run(scenario())


def test_a_long_moves_list_at_80x24_leaves_the_command_line_on_screen() -> None:
    hand = "4C 4D 5C 5D 6C 6D 9C 9D JC JD QC QD KC KD AC AD 4H 5H 6H 9H"
    game = position(4, hands={0: hand, 1: "KC", 2: "KH", 3: "KS"}, pile="", draw="5S 6S 9S",
                    humans=[True, False, False, False])

    async def scenario() -> None:
        app = crafted(game, ("human", "obsessed", "obsessed", "obsessed"))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("f2")
            await until(pilot, lambda: "(all in Events)" in screen_text(app), "the cut status")
            lines = screen_text(app).splitlines()
            assert len(lines) == 24
            assert lines[-2].startswith("P1 > ") and lines[-1].startswith("Enter play")
            assert "(all in Events)" in " ".join(lines)
            assert app.messages[-1].startswith("Moves: ") and "20 (AD)" in app.messages[-1]
            assert app.query_one("#command").region.bottom <= 24

    asyncio.run(scenario())
