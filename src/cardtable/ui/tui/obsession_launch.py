"""Obsession's part of the launcher: the number of players, how many are people, the bots'
policy and the run-kill length, checked by the game's parameters (``games/obsession/params``)
and loaded through its description (``load_game``); played on :mod:`obsession_app`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.widgets import Input, Label, Select

from cardtable import load_game
from cardtable.agents.external_cli import EXEC_PREFIX, is_exec
from cardtable.engine.errors import GameError
from cardtable.engine.game_registry import description
from cardtable.games.obsession.params import PLAYERS, RUN_KILL, humans_param
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import seat_name
from cardtable.ui.seat_kinds import offered_bots
from cardtable.ui.tui.launch import (
    PROGRAM,
    PROGRAM_CHOICE,
    PROGRAMS,
    RECORD,
    SEED,
    GameForm,
    Shared,
    check_record_path,
    field_value,
    hello,
    program_spec,
)
from cardtable.ui.tui.tally import WinTally

NAME = "obsession"


@dataclass(frozen=True)
class ObsessionTable:
    """An Obsession game ready to play: the loaded game and each seat's player (``human``, a
    bot, ``exec:COMMAND``), people first."""

    game: Any
    seats: tuple[str, ...]

    @property
    def rules(self) -> Rules:
        rules: Rules = self.game.rules
        return rules

    def programs(self) -> dict[str, str]:
        return {seat_name(number): kind.strip()[len(EXEC_PREFIX):]
                for number, kind in enumerate(self.seats) if is_exec(kind)}

    def hello(self, seat: str) -> dict[str, Any]:
        return hello(self.game, seat)

    def play(self, seed: int, delay: float, record: str | None, ascii_only: bool,
             tally: WinTally | None) -> tuple[int, bool]:
        from cardtable.ui.tui.obsession_app import play_obsession

        return play_obsession(self.rules, self.seats, seed, delay, record, ascii_only,
                              offer_again=True)

    def next_table(self) -> ObsessionTable:
        return self


class ObsessionForm:
    name = NAME
    label = "Obsession"
    uses = frozenset({SEED, RECORD, PROGRAMS})

    def compose(self) -> ComposeResult:
        bots = offered_bots(description(NAME))
        yield Label("Players")
        yield Input(str(PLAYERS.default), id="players", restrict=r"[0-9]*")
        yield Label("Humans")
        yield Input("1", id="humans", restrict=r"[0-9]*")
        yield Label("Bots")
        yield Select([(name, name) for name in bots] + [PROGRAM_CHOICE], value=bots[0],
                     allow_blank=False, id="bot")
        yield Label("Run-kill")
        yield Input(str(RUN_KILL.default), id="run_kill", restrict=r"[0-9]*")

    def table(self, shared: Shared) -> ObsessionTable:
        values = shared.values
        players = field_value(PLAYERS, "Players", values.get("players", PLAYERS.default))
        humans = field_value(humans_param(players), "Humans", values.get("humans", 1))
        run_kill = field_value(RUN_KILL, "Run-kill", values.get("run_kill", RUN_KILL.default))
        bot = str(values.get("bot", offered_bots(description(NAME))[0]))
        if bot == PROGRAM and humans < players:
            bot = program_spec(values, "The bots' seat")
        seats = ("human",) * humans + (bot,) * (players - humans)
        if shared.record is not None:
            check_record_path(shared.record)
        try:
            game = load_game(NAME, players=players, humans=humans, run_kill=run_kill)
        except GameError as error:  # not reached: the fields were checked the same way
            raise ValueError(error.message) from None
        return ObsessionTable(game, seats)


def obsession_form() -> GameForm:
    """Obsession's part of the launcher (the description's ``terminal_app``)."""
    return ObsessionForm()
