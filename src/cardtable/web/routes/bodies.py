"""The JSON bodies of the HTTP API as Pydantic models: what FastAPI checks before a handler
runs, and what ``/openapi.json`` documents.

A body that fails its model is refused (400) with one line: a field the model does not take
first (``Unknown field 'x'.``), else the message the API has always given for the first field
at fault in the model's order (:attr:`Body.messages`). What only a game can judge (its
parameters, seats and bots) is checked by the handler with the game. Types are strict:
``"yes"`` is not ``true``, ``5.0`` is not ``5``.

The game parameters of a new table are a free-form object in the model, checked by the game
itself with the message every shell gives (``--run-kill must be an integer from 2 to 8``): a
game may take more than its listed parameters (rule fields), and takes numbers written
as text as its command line does. Their schema in the OpenAPI document comes from the game
descriptions: a description of each game's parameters, and the same as JSON Schema under
``x-params-by-game``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    ValidationError,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from cardtable.engine import game_registry
from cardtable.web import games
from cardtable.web.routes.refusals import REFUSED, Refused

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,19}$")
NAME_MESSAGE = ("A name is 1 to 20 letters, digits, spaces or _ . - (starting with a letter "
                "or digit).")
CLAIM_MESSAGE = "'claim' must list human seats of the table."
MIN_TURN_SECONDS = 5
MAX_TURN_SECONDS = 3600
MAX_BOT_DELAY = 10

Message = str | Callable[[], str]
"""A refusal's message, or a function giving it when it depends on the games known then."""


def refusal(message: str) -> PydanticCustomError:
    """A validation error whose message is the API's answer, as it is."""
    return PydanticCustomError(REFUSED, "{message}", {"message": message})


# --------------------------------------------------------------------------- games


def unknown_game() -> str:
    return f"Unknown game (allowed: {', '.join(game_registry.names())})."


def known_game(value: str) -> str:
    """``value`` when it names a game of the registry, else a 400 :class:`Refused` (for a
    game named in a path or a query)."""
    if value not in game_registry.names():
        raise Refused(400, unknown_game())
    return value


def _game_of_registry(value: str) -> str:
    if value not in game_registry.names():
        raise refusal(unknown_game())
    return value


def _game_names_schema(schema: dict[str, Any]) -> None:
    schema["enum"] = list(game_registry.names())


GameName = Annotated[str, AfterValidator(_game_of_registry), Field(
    description="A game the server knows (`GET /api/games`).",
    json_schema_extra=_game_names_schema)]


def param_schema(param: Mapping[str, Any]) -> dict[str, Any]:
    """JSON Schema of one game parameter, from its description's ``Param.json()``."""
    schema: dict[str, Any]
    if param["kind"] == "int":
        schema = {"type": "integer"}
        for word in ("minimum", "maximum"):
            if param.get(word) is not None:
                schema[word] = param[word]
        if param.get("nullable"):
            schema = {"anyOf": [schema, {"type": "null"}]}
    elif param["kind"] == "choice":
        schema = {"type": "string", "enum": list(param.get("choices", ()))}
    else:
        schema = {"type": "string"}
    schema["description"] = f"{param['help']} ({param['allowed']})"
    if param.get("default") is not None:
        schema["default"] = param["default"]
    return schema


def _game_params_schema(schema: dict[str, Any]) -> None:
    lines = ["The game's parameters (`load_game`'s, less those naming a file on the server; "
             "the seats give the number of players), checked by the game; each one left out "
             "takes its default. A game may take more than it lists (a game's rule fields, "
             "as its command line does)."]
    by_game: dict[str, Any] = {}
    for described in game_registry.descriptions():
        params = [param.json() for param in games.form_params(described)]
        properties = {param["name"]: param_schema(param) for param in params}
        by_game[described.name] = {"type": "object", "properties": properties}
        shown = "; ".join(f"`{param['name']}` {param['allowed']}" for param in params)
        lines.append(f"- {described.name}: {shown or 'none'}")
    schema["description"] = "\n".join(lines)
    schema["x-params-by-game"] = by_game


# --------------------------------------------------------------------------- names


def _display_name(value: str) -> str:
    shown = value.strip()
    if not NAME_PATTERN.match(shown):
        raise refusal(NAME_MESSAGE)
    return shown


DisplayName = Annotated[str, AfterValidator(_display_name), Field(
    description="A display name: 1 to 20 letters, digits, spaces or _ . - (starting with a "
                "letter or digit); spaces around it are dropped.",
    json_schema_extra={"pattern": r"^\s*[A-Za-z0-9][A-Za-z0-9 _.-]{0,19}\s*$"},
    examples=["Ann"])]


# --------------------------------------------------------------------------- bodies


class Body(BaseModel):
    """A JSON body: strict types, and one message per refusal.

    ``messages`` gives a field's message (``"FIELD"``), or its message for one kind of Pydantic
    error (``"FIELD.missing"``). An unknown field (a misspelt one) is refused before anything
    else, the first in sorted order: ``Unknown field 'x'.``."""

    model_config = ConfigDict(strict=True, extra="forbid")
    messages: ClassVar[Mapping[str, Message]] = {}

    @model_validator(mode="wrap")
    @classmethod
    def _one_message(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        if not isinstance(data, dict):
            raise refusal("The request body must be a JSON object.")
        unknown = sorted(set(data) - set(cls.model_fields))
        if unknown:
            raise refusal(f"Unknown field '{unknown[0][:20]}'.")
        try:
            return handler(data)
        except ValidationError as error:
            raise refusal(cls.message_of(error.errors()[0])) from None

    @classmethod
    def message_of(cls, error: ErrorDetails) -> str:
        if error["type"] == REFUSED:
            return error["msg"]
        field = str(error["loc"][0]) if error["loc"] else ""
        message = cls.messages.get(f"{field}.{error['type']}") or cls.messages.get(field)
        if message is None:
            return f"Invalid '{field[:20]}': {error['msg']}."
        return message if isinstance(message, str) else message()


class NewTable(Body):
    """`POST /api/tables`: a new table."""

    messages: ClassVar[Mapping[str, Message]] = {
        "game": unknown_game,
        "params": "'params' must be an object.",
        "seats": "'seats' must be a list of \"human\" or \"bot:NAME\".",
        "claim": CLAIM_MESSAGE,
        "private": "'private' and 'spectators' are true or false.",
        "spectators": "'private' and 'spectators' are true or false.",
        "turn_seconds": f"'turn_seconds' is {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} or null.",
        "bot_delay": f"'bot_delay' is 0 to {MAX_BOT_DELAY} seconds or null.",
        "name": NAME_MESSAGE,
    }

    game: GameName
    params: dict[str, Any] | None = Field(None, json_schema_extra=_game_params_schema)
    seats: list[str] = Field(
        description="Each seat's kind, in the game's seat order: \"human\" or \"bot:SPEC\" "
                    "(a bot of the game with its options, `GET /api/games`; "
                    "\"bot:exec:NAME\" a program the server offers). The game sets how many "
                    "seats it has.",
        json_schema_extra={"minItems": 2, "maxItems": games.MAX_SEATS},
        examples=[["human", "bot:normal"]])
    claim: list[str] | None = Field(
        None, min_length=1,
        description="The human seats whose tokens are returned now (the others stay free "
                    "for `join`); without it, every human seat's.")
    private: bool = Field(False, description="Not listed, not used by quick match: joined by "
                                             "its link only.")
    spectators: bool = Field(True, description="Whether anyone may watch.")
    turn_seconds: Annotated[int, Field(ge=MIN_TURN_SECONDS, le=MAX_TURN_SECONDS)] | None = \
        Field(None, description="A turn timer: when it runs out the server plays a legal "
                                "move chosen at random for the seat.")
    bot_delay: Annotated[float, Field(ge=0, le=MAX_BOT_DELAY, allow_inf_nan=False)] | None = \
        Field(None, description="Seconds each bot of the table waits before its move, so "
                                "that people can follow (0 to 10); null: the server's pace "
                                "(`cardtable serve --bot-delay`).", examples=[1.5])
    name: DisplayName | None = Field(None, description="The display name of the first "
                                                       "claimed seat, when there is no cookie.")


class JoinTable(Body):
    """`POST /api/tables/{id}/join`: take a free seat (the first one unless `seat`)."""

    messages: ClassVar[Mapping[str, Message]] = {"seat": "'seat' must be a seat name.",
                                                  "name": NAME_MESSAGE}

    seat: str | None = Field(None, description="The seat to take (its name in the game).")
    name: DisplayName | None = None


class QuickMatch(Body):
    """`POST /api/quick`: a seat opposite people waiting for the game who are here now, or
    at a new quick-match table (with a turn timer) where the next person finds this one."""

    messages: ClassVar[Mapping[str, Message]] = {"game": unknown_game, "name": NAME_MESSAGE}

    game: GameName
    name: DisplayName | None = None


class Rematch(Body):
    """`POST /api/tables/{id}/rematch`: the seat's token here or as
    `Authorization: Bearer TOKEN`."""

    messages: ClassVar[Mapping[str, Message]] = {"token": "'token' must be a seat's token."}

    token: str | None = Field(None, description="The seat's token at the finished table.")


class NewPlayer(Body):
    """`POST /api/players`: a named account (the cookie `cardtable_player`)."""

    messages: ClassVar[Mapping[str, Message]] = {"name.missing": "A name is needed.",
                                                  "name": NAME_MESSAGE}

    name: DisplayName
