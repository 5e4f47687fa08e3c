"""Caravan's part of the launcher: the seats ABC and DEF, the rules preset, a rules file, a
deck file and the first seat; the game is loaded through its description (``load_game``), as
the ``caravan`` command line loads it, and played on :mod:`caravan_app`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.widgets import Input, Label, Select

from cardtable import load_game
from cardtable.agents.external_cli import EXEC_PREFIX, is_exec
from cardtable.engine.errors import GameError
from cardtable.engine.game_registry import description
from cardtable.engine.record_target import check_record_target
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.deck import read_deck_file
from cardtable.games.caravan.rules import SeatRules
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
    hello,
    program_spec,
)
from cardtable.ui.tui.tally import WinTally

NAME = "caravan"


def caravan_kinds() -> list[tuple[str, str]]:
    """The players a seat list offers: a person, each bot (the game's own first), a program."""
    bots = offered_bots(description(NAME))
    return [("human", "human")] + [(f"bot: {name}", f"bot:{name}") for name in bots] + [
        PROGRAM_CHOICE]


@dataclass(frozen=True)
class CaravanTable:
    """A Caravan game ready to play: the loaded game (rules, first seat, caps), the players
    (``human`` or ``bot:NAME`` per seat) and the deck files' cards (None: random decks)."""

    game: Any
    players: tuple[str, str]
    decks: tuple[list[int] | None, list[int] | None] | None = None

    @property
    def rules(self) -> SeatRules:
        rules: SeatRules = self.game.rules
        return rules

    def programs(self) -> dict[str, str]:
        kinds = (kind.removeprefix("bot:") for kind in self.players)
        return {seat: kind.strip()[len(EXEC_PREFIX):]
                for seat, kind in zip(SEATS, kinds, strict=True) if is_exec(kind)}

    def hello(self, seat: str) -> dict[str, Any]:
        return hello(self.game, seat)

    def play(self, seed: int, delay: float, record: str | None, ascii_only: bool,
             tally: WinTally | None) -> tuple[int, bool]:
        from cardtable.ui.tui.caravan_app import play_caravan

        return play_caravan(self.rules, self.players, seed, self.game.first, delay, self.decks,
                            record, ascii_only, offer_again=True)

    def next_table(self) -> CaravanTable:
        return self


class CaravanForm:
    name = NAME
    label = "Caravan"
    uses = frozenset({SEED, RECORD, PROGRAMS})

    def compose(self) -> ComposeResult:
        described = description(NAME)
        yield Label("ABC (bottom)")
        yield Select(caravan_kinds(), value="human", allow_blank=False, id="abc")
        yield Label("DEF (top)")
        yield Select(caravan_kinds(), value="bot:normal", allow_blank=False, id="def")
        yield Label("Rules preset")
        yield Select([(name, name) for name in described.presets], value=described.presets[0],
                     allow_blank=False, id="preset")
        yield Label("Rules file")
        yield Input(placeholder="optional TOML file", id="rules_file")
        yield Label("Deck file")
        yield Input(placeholder="optional, both seats", id="deck")
        yield Label("First")
        yield Select([("ABC", "1"), ("DEF", "2")], value="1", allow_blank=False, id="first")

    def table(self, shared: Shared) -> CaravanTable:
        values = shared.values
        rules_file = str(values.get("rules_file", "") or "").strip() or None
        deck_path = str(values.get("deck", "") or "").strip() or None
        chosen = [str(values[seat.lower()]) for seat in SEATS]
        params: dict[str, Any] = {
            "rules": str(values["preset"]), "rules_file": rules_file,
            "first": 1 if str(values.get("first", "1")) == "2" else 0,
            # A deck file deals both seats: no random deck to check then.
            "random_decks": () if deck_path is not None else SEATS}
        if "human" not in chosen:  # a game between bots gets their length caps
            params.update(description(NAME).bot_params)
        try:
            game = load_game(NAME, **params)
            decks = None if deck_path is None else (
                read_deck_file(deck_path, game.rules.abc, 0),
                read_deck_file(deck_path, game.rules.def_, 1))
        except GameError as error:
            raise ValueError(error.message) from None
        record = shared.record
        if record is not None:
            refusal = check_record_target(
                record, [("the rules file", rules_file), ("the deck file", deck_path)], True)
            if refusal is not None:
                raise ValueError(refusal)
            check_record_path(record)
        kinds = [f"bot:{program_spec(values, seat)}" if kind == PROGRAM else kind
                 for seat, kind in zip(SEATS, chosen, strict=True)]
        return CaravanTable(game, (kinds[0], kinds[1]), decks)


def caravan_form() -> GameForm:
    """Caravan's part of the launcher (the description's ``terminal_app``)."""
    return CaravanForm()
