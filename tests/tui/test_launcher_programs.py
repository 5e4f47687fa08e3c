"""The launcher seats programs (``exec:COMMAND``, docs/bots.md): "program (exec:)" in a seat
list and the command in the Program box, checked on the form; a program that cannot start
brings the player back to the form with the message; one that can plays the game."""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path

import pytest

from cardtable.ui.tui import launcher
from cardtable.ui.tui.common import TableApp, screen_text
from cardtable.ui.tui.launcher import Choice, LauncherApp, build_choice, play_choice
from external_bots.helpers import EXAMPLES, SCRIPTS, command, pids_in, wait_gone

from .pilot import click_play

CARAVAN = {"game": "caravan", "seed": "4", "delay": "0", "preset": "power",
           "abc": "bot:normal", "def": "exec"}
OBSESSION = {"game": "obsession", "seed": "4", "delay": "0", "players": "3", "humans": "0",
             "bot": "exec", "run_kill": "4"}


def test_a_program_seat_takes_the_command_of_the_program_box() -> None:
    program = shlex.join(command(EXAMPLES / "caravan_random.py", 3))
    choice = build_choice({**CARAVAN, "program": f"  {program} "})
    assert choice.table.players == ("bot:normal", f"bot:exec:{program}")
    both = build_choice({**CARAVAN, "abc": "exec", "program": program})
    assert both.table.players == (f"bot:exec:{program}",) * 2
    seats = build_choice({**OBSESSION, "humans": "1", "program": "./mybot --Fast"})
    assert seats.table.seats == ("human", "exec:./mybot --Fast", "exec:./mybot --Fast")


@pytest.mark.parametrize(("values", "message"), [
    ({**CARAVAN, "program": ""}, "DEF plays a program: type its command in the Program box."),
    ({**CARAVAN, "abc": "exec", "def": "human", "program": "   "},
     "ABC plays a program: type its command in the Program box."),
    ({**CARAVAN, "program": "python3 'unclosed"}, "cannot be read (No closing quotation)"),
    ({**OBSESSION}, "The bots' seat plays a program: type its command in the Program box."),
])
def test_a_program_seat_without_a_usable_command_is_refused(values: dict[str, str],
                                                            message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        build_choice(values)


def test_the_form_offers_programs_and_says_what_is_missing() -> None:
    async def scenario() -> Choice | None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.query_one("#def").value = "exec"
            await click_play(app, pilot)
            await pilot.pause()
            assert "DEF plays a program: type its command in the Program box." \
                in screen_text(app)
            assert app.return_value is None
            app.query_one("#program").value = "python3 examples/bots/caravan_random.py"
            await click_play(app, pilot)
            await pilot.pause()
        return app.return_value

    choice = asyncio.run(scenario())
    assert choice is not None
    assert choice.table.players == ("human", "bot:exec:python3 examples/bots/caravan_random.py")


def test_the_program_box_is_disabled_for_austerity() -> None:
    async def scenario() -> None:
        app = LauncherApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert not app.query_one("#program").disabled
            app.query_one("#game").value = "austerity"
            await pilot.pause()
            assert app.query_one("#program").disabled

    asyncio.run(scenario())


def test_a_program_that_cannot_start_brings_the_form_back_with_the_message(
        monkeypatch: pytest.MonkeyPatch) -> None:
    choice = build_choice({**CARAVAN, "program": "/nonexistent/bot"})
    answers: list[Choice | None] = [choice, None]
    messages: list[str | None] = []

    def fake_form(self: LauncherApp) -> Choice | None:
        messages.append(self.message)
        return answers.pop(0)

    monkeypatch.setattr(LauncherApp, "run", fake_form)
    assert launcher.main() == 0  # the real play_choice: the program is tried, and refused
    assert messages == [None, "Cannot start '/nonexistent/bot' for DEF: No such file or "
                              "directory."]


def test_a_chosen_program_plays_the_game_and_is_ended(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    program = shlex.join(command(SCRIPTS / "spy.py", tmp_path / "spy.log", pid_file))
    choice = build_choice({**CARAVAN, "program": program})
    played: list[object] = []

    def run_to_end(self: TableApp, *args: object, **kwargs: object) -> int:
        async def scenario() -> None:
            async with self.run_test(size=(100, 30)) as pilot:
                for _ in range(600):
                    await self.workers.wait_for_complete()
                    await pilot.pause()
                    if self.game_over():
                        break
                played.append(getattr(self, "game").result)  # noqa: B009

        asyncio.run(scenario())
        return 0

    monkeypatch.setattr(TableApp, "run", run_to_end)
    status, again = play_choice(choice)
    assert (status, again) == (0, False)
    assert played and played[0] is not None and played[0].reason != "forfeit"  # type: ignore[attr-defined]
    assert wait_gone(pids_in(pid_file, 1)) == []
