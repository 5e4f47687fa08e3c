"""The launcher's part of a game without a terminal table of its own (a game from outside, such
as a plug-in): a form drawn from the game's description (a player per seat, or a number of
players, people and a bot policy; then each parameter) and the generic terminal table
(:mod:`generic_app`) to play it on; and :func:`game_form`, which gives every game its part:
its own, or this one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Input, Label, Select

from cardtable.engine.description import GameDescription, Param
from cardtable.engine.errors import GameError
from cardtable.engine.import_path import imported
from cardtable.ui.seat_kinds import HUMAN, Seating, default_bot, offered_bots, programs_play, seated
from cardtable.ui.tui.launch import (
    PROGRAM,
    PROGRAM_CHOICE,
    PROGRAMS,
    SEED,
    GameForm,
    Shared,
    field_value,
    hello,
    program_spec,
)
from cardtable.ui.tui.tally import WinTally

PEOPLE = "humans"
BOTS = "bots"


def game_form(described: GameDescription) -> GameForm:
    """The launcher's part of ``described``: its own, or the generic one."""
    if described.terminal_app is not None:
        form: GameForm = imported(described.terminal_app)()
        return form
    return GenericForm(described)


def field_prefix(name: str) -> str:
    """The ids of a game's fields start with this (a game's name may hold any character)."""
    return "g-" + re.sub(r"[^A-Za-z0-9_-]", "_", name)


def label_of(param: Param) -> str:
    """``run_kill`` as the form labels it: ``Run kill``."""
    return param.name.replace("_", " ").capitalize()


@dataclass(frozen=True)
class GenericTable:
    """A table of any game ready to play on the generic terminal table."""

    seating: Seating

    def programs(self) -> dict[str, str]:
        return {seat: kind.strip()[len(PROGRAM) + 1:]
                for seat, kind in zip(self.seating.seats, self.seating.kinds, strict=True)
                if kind.startswith(PROGRAM + ":")}

    def hello(self, seat: str) -> dict[str, Any]:
        return hello(self.seating.game, seat)

    def play(self, seed: int, delay: float, record: str | None, ascii_only: bool,
             tally: WinTally | None) -> tuple[int, bool]:
        from cardtable.ui.tui.generic_app import play_generic

        return play_generic(self.seating, seed, delay, ascii_only, offer_again=True)

    def next_table(self) -> GenericTable:
        return self


class GenericForm:
    """The form of ``described``'s column, from its description alone."""

    def __init__(self, described: GameDescription) -> None:
        self.described = described
        self.name = described.name
        self.label = described.title
        self.prefix = field_prefix(described.name)
        self.uses = frozenset({SEED, PROGRAMS} if programs_play(described) else {SEED})
        self.params = [param for param in described.params
                       if param.name not in described.seat_params]

    def field_id(self, name: str) -> str:
        return f"{self.prefix}-{name}"

    def kinds(self, with_person: bool) -> list[tuple[str, str]]:
        """What a seat list offers: a person, each bot, a program where programs play."""
        person = [(HUMAN, HUMAN)] if with_person else []
        bots = [(f"bot: {name}", name) for name in offered_bots(self.described)]
        return person + bots + ([PROGRAM_CHOICE] if PROGRAMS in self.uses else [])

    def seat_names(self) -> tuple[str, ...]:
        """The seats of a table of the game's default parameters (P1, P2 ...)."""
        try:
            return tuple(self.described.load().seats)
        except GameError:
            return tuple(f"P{number}" for number in range(1, self.described.seat_counts[0] + 1))

    def param_field(self, param: Param) -> Widget:
        default = "" if param.default is None else str(param.default)
        if param.kind == "choice":
            return Select([(choice, choice) for choice in param.choices],
                          value=param.default if param.default in param.choices
                          else param.choices[0], allow_blank=False, id=self.field_id(param.name))
        restrict = (r"[0-9]*" if param.kind == "int" and not param.none
                    else r"[0-9A-Za-z]*" if param.kind == "int" else None)
        return Input(default, placeholder=param.help[:40], restrict=restrict,
                     id=self.field_id(param.name))

    def compose(self) -> ComposeResult:
        players = self.described.players_param
        if players is None:
            bot = default_bot(self.described)
            for number, seat in enumerate(self.seat_names()):
                yield Label(seat)
                yield Select(self.kinds(True), value=HUMAN if number == 0 else bot,
                             allow_blank=False, id=self.field_id(f"seat-{number}"))
        else:
            yield Label("Humans")
            yield Input("1", id=self.field_id(PEOPLE), restrict=r"[0-9]*")
            yield Label("Bots")
            yield Select(self.kinds(False), value=default_bot(self.described),
                         allow_blank=False, id=self.field_id(BOTS))
        yield from self._param_fields()

    def _param_fields(self) -> Iterator[Widget]:
        for param in self.params:
            yield Label(label_of(param))
            yield self.param_field(param)

    def table(self, shared: Shared) -> GenericTable:
        values = shared.values
        params: dict[str, Any] = {}
        for param in self.params:
            given = values.get(self.field_id(param.name))
            if given is None or (str(given).strip() == "" and param.default is None):
                continue
            params[param.name] = field_value(param, label_of(param), given)
        kinds = self._kinds(values, params)
        if HUMAN not in kinds:  # a game between bots gets their length caps
            params = {**self.described.bot_params, **params}
        try:
            return GenericTable(seated(self.described, params, kinds))
        except GameError as error:
            raise ValueError(error.message) from None

    def _kinds(self, values: Any, params: dict[str, Any]) -> list[str]:
        players = self.described.players_param
        if players is None:
            chosen = [str(values.get(self.field_id(f"seat-{number}"), HUMAN))
                      for number in range(len(self.seat_names()))]
            return [program_spec(values, seat) if kind == PROGRAM else kind
                    for seat, kind in zip(self.seat_names(), chosen, strict=True)]
        count = params.get(players)
        if count is None:
            count = next(param.default for param in self.described.params
                         if param.name == players)
        people = field_value(Param(PEOPLE, "", kind="int", low=0, high=int(count)), "Humans",
                             values.get(self.field_id(PEOPLE), "1"))
        bot = str(values.get(self.field_id(BOTS), default_bot(self.described)))
        if bot == PROGRAM and people < count:
            bot = program_spec(values, "The bots' seat")
        return [HUMAN] * people + [bot] * (int(count) - people)
