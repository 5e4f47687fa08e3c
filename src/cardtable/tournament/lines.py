"""The lines of a results file as a schema: the header that names the tournament, and the line of
each game (docs/tournaments.md, "The results file and resuming").

A rerun reads the file back before it plays anything, so every line is checked here against
the shape the command writes and against the tournament it resumes (the seats are its
entrants, the ranks places at a table of its size): a line that does not fit is refused with
its number instead of reaching the summary. pydantic parses and checks each line in one step,
with a bound on nesting, so a deeply nested line is refused like any other.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, model_validator

from cardtable.tournament.play import MOVE_CAP
from cardtable.tournament.schedule import Config

MAX_SECONDS = 1e9
"""The longest ``time`` a game line may give (about 31 years): far above any game, and small
enough that a sum of them stays a finite number."""

Count = Annotated[int, Field(ge=0)]
Label = Annotated[str, Field(min_length=1)]


class _Line(BaseModel):
    """Strict types (``true`` is no number, ``"3"`` no integer), no fields beyond these."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Entrant(_Line):
    label: Label
    spec: Label


class Header(_Line):
    """The first line: what decides which games are played (``Config.header``)."""

    tournament: Literal[1]
    game: str
    params: dict[str, Any]
    players: Annotated[int, Field(ge=2)]
    seats: list[Entrant]
    gauntlet: str | None
    seed: Count


class Result(_Line):
    winners: list[Label]
    reason: str
    ranks: list[Count]


class Game(_Line):
    """One game's line (``tournament.play.play``); checked against the tournament given as
    ``context={"config": config}``."""

    seats: list[Label]
    deal: Count
    rotation: Count
    seed: Annotated[int, Field(ge=0, lt=1 << 63)]
    result: Result
    details: dict[str, Any]
    moves: Annotated[int, Field(ge=0, le=MOVE_CAP)]
    time: Annotated[float, Field(ge=0, le=MAX_SECONDS, allow_inf_nan=False)]

    @model_validator(mode="after")
    def _fits(self, info: ValidationInfo) -> Game:
        config = (info.context or {}).get("config")
        if not isinstance(config, Config):
            return self
        players = config.players
        labels = {entrant.label for entrant in config.entrants}
        if len(self.seats) != players or len(set(self.seats)) != players:
            raise ValueError(f"seats must be {players} different entrants")
        strangers = [seat for seat in self.seats if seat not in labels]
        if strangers:
            raise ValueError(f"seat '{strangers[0]}' is not an entrant of this tournament")
        if self.rotation >= players:
            raise ValueError(f"rotation must be below {players}")
        ranks = self.result.ranks
        if len(ranks) != players or any(rank >= players for rank in ranks):
            raise ValueError(f"ranks must be {players} places from 0 to {players - 1}")
        if any(winner not in self.seats for winner in self.result.winners):
            raise ValueError("every winner must be one of the seats")
        return self


class BadLine(ValueError):
    """A line that does not fit the schema; ``reason`` says where and why, on one line, and
    ``field`` is the top-level field at fault ("" when the line is no JSON object at all)."""

    def __init__(self, reason: str, field: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.field = field


def _bad(error: ValidationError) -> BadLine:
    first = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")
    field = str(first["loc"][0]) if first["loc"] else ""
    return BadLine(f"{where}: {message}" if where else message, field)


def header(raw: bytes) -> Header:
    """The header in ``raw`` (one line, without its line break); :class:`BadLine` otherwise."""
    try:
        return Header.model_validate_json(raw)
    except ValidationError as error:
        raise _bad(error) from None


def game(raw: bytes, config: Config) -> dict[str, Any]:
    """The game line in ``raw`` as the dictionary the command wrote, checked against the
    tournament ``config``; :class:`BadLine` otherwise."""
    try:
        return Game.model_validate_json(raw, context={"config": config}).model_dump()
    except ValidationError as error:
        raise _bad(error) from None


GAME_START = b'{"seats":'
"""How every game line the command writes begins (its first field): a last line cut by a
stop begins so too, or is a piece of it."""
