"""Who sits at a table of any game: ``human``, a bot of the registry (``random``,
``ismcts:iters=500``) or a program (``exec:COMMAND``), one per seat, checked against the loaded
game before anything is played. The generic terminal table (``cardtable play``, the launcher)
seats its players with this; the games' own command lines check their bots with
:func:`bot_refusal`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.agents.external_cli import bot_spec, external_seat, is_exec
from cardtable.agents.registry import UnknownBot, bot_names, make_seat
from cardtable.engine.description import GameDescription
from cardtable.engine.errors import GameParamsError
from cardtable.engine.match import Seat

HUMAN = "human"
PROGRAM = "exec"


def bot_refusal(game: Any, spec: str) -> str | None:
    """Why the bot ``spec`` cannot sit at the loaded ``game``, in the registry's words
    (``Unknown bot 'x' for caravan (bots: ...).``), or None. Making the seat checks the bot's
    options too, and costs nothing (nothing is searched yet); a program (``exec:COMMAND``) is
    not started here, so it is never refused here."""
    if is_exec(spec):
        return None
    try:
        make_seat(game, spec, game.seats[0], 0)
    except UnknownBot as error:
        return error.message
    return None


def offered_bots(described: GameDescription) -> list[str]:
    """The bots a person may seat at the game (its own first), programs apart."""
    return [name for name in bot_names(described.name) if name != PROGRAM]


def default_bot(described: GameDescription) -> str:
    """The bot a seat gets when nobody is named: the game's first own bot, else ``random``."""
    own = [bot.name for bot in described.bots() if not bot.calibration]
    return own[0] if own else "random"


def programs_play(described: GameDescription) -> bool:
    """Whether programs (``exec:COMMAND``, docs/bots.md) can play the game."""
    return PROGRAM in bot_names(described.name)


@dataclass(frozen=True)
class Seating:
    """A loaded game and who sits at each of its seats (``human``, a bot spec, a program)."""

    described: GameDescription
    game: Any
    kinds: tuple[str, ...]

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.game.seats)

    def people(self) -> list[bool]:
        return [kind == HUMAN for kind in self.kinds]

    def new_state(self, seed: int) -> Any:
        """The game dealt from ``seed`` for these players."""
        return self.described.table_state(self.game, seed, self.people())

    def bots(self, seed: int, record: str | None = None) -> dict[str, Seat]:
        """A seat for every bot and program; raises the ``GameError`` of a program that cannot
        start, after ending those already started."""
        made: dict[str, Seat] = {}
        try:
            for seat, kind in zip(self.seats, self.kinds, strict=True):
                if kind == HUMAN:
                    continue
                made[seat] = (external_seat(self.game, kind, seat, seed, record)
                              if is_exec(kind) else make_seat(self.game, kind, seat, seed))
        except BaseException:
            close_seats(made)
            raise
        return made


def close_seats(seats: Mapping[Any, Any]) -> None:
    """End the processes of the programs among ``seats`` (never raises)."""
    for seat in seats.values():
        close = getattr(seat, "close", None)
        if close is not None:
            close()


def seated(described: GameDescription, params: Mapping[str, Any],
           kinds: Sequence[str] | None) -> Seating:
    """The game ``described`` loaded with ``params`` and its players: ``kinds`` one per seat
    (None: a person at the first seat, the game's default bot at the others). A game whose
    number of seats is a parameter gets as many as ``kinds`` names, unless given. Raises
    :class:`GameParamsError` (or :class:`UnknownBot`) with the message to show."""
    given = dict(params)
    players = described.players_param
    if kinds is not None and players is not None and players not in given:
        given[players] = len(kinds)
    game = described.load(**given)
    seats = tuple(game.seats)
    if kinds is None:
        kinds = [HUMAN] + [default_bot(described)] * (len(seats) - 1)
    if len(kinds) != len(seats):
        raise GameParamsError(f"{described.title} has {len(seats)} seats "
                              f"({', '.join(seats)}): name a player for each "
                              f"(got {len(kinds)}).")
    checked: list[str] = []
    for kind in kinds:
        text = kind.strip()
        if text.lower() == HUMAN:
            checked.append(HUMAN)
            continue
        refusal = bot_refusal(game, text)
        if refusal is not None:
            raise UnknownBot(refusal)
        checked.append(bot_spec(text) if is_exec(text) else text)
    return Seating(described, game, tuple(checked))
