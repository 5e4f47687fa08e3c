"""The games as a web table sees them: each game's description (``cardtable.games`` entry
points) says its seats, parameters, bots and how-to-play text; nothing here names a game.

Parameters are ``load_game``'s, less those that name files on the server (a description's
``file_params``, a parameter of kind ``file``): a web request may not make the server read its
files. The parameter that sets the number of players (``players_param``) comes from the seats,
and those that say who sits where (``seat_params``) from the seat kinds.

Programs (``exec:``, docs/bots.md) sit only at the tables of a server whose operator named them
(``cardtable serve --allow-exec NAME=COMMAND``): a request picks one by its name,
``bot:exec:NAME``, and never gives a command.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import cardtable
from cardtable.engine import game_registry
from cardtable.engine.description import GameDescription, Param
from cardtable.engine.errors import GameError, GameParamsError, IllegalAction
from cardtable.engine.one_line import shortened

log = logging.getLogger("cardtable.web")

MAX_SEATS = 10
"""The most seats a web table has (ratings handle 2 to 10 players)."""
MAX_PARAMS_BYTES = 2000
PROGRAM_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,19}")
"""What an operator may name a program (``--allow-exec NAME=COMMAND``)."""

Programs = Mapping[str, str]
"""The programs a server offers: name → command (split like a shell line when started)."""


class TableError(Exception):
    """A table request the server refuses; the message is shown to the user as it is."""


def shown(description: GameDescription) -> bool:
    """Whether the web can show the game's tables: its description gives the views of a
    seat and of a spectator (``seat_view``, ``public_view``)."""
    kind = type(description)
    return (kind.seat_view is not GameDescription.seat_view
            and kind.public_view is not GameDescription.public_view)


def offered() -> tuple[GameDescription, ...]:
    """Every game this server offers: every registered game it can show, cardtable's own
    first."""
    return tuple(description for description in game_registry.descriptions()
                 if shown(description))


def game_names() -> tuple[str, ...]:
    return tuple(description.name for description in offered())


def described(game: object) -> GameDescription:
    """The description of ``game``, or :class:`TableError` naming the games there are."""
    try:
        return game_registry.description(game)
    except GameParamsError as error:
        raise TableError(str(error)) from None


def seat_range(description: GameDescription) -> tuple[int, int]:
    """The fewest and the most seats of a web table of the game."""
    low, high = description.seat_counts
    return max(low, 2), min(high, MAX_SEATS)


def file_params(description: GameDescription) -> set[str]:
    """The parameters naming files on the server: never taken from a web request."""
    return set(description.file_params) | {param.name for param in description.params
                                           if param.kind == "file"}


def form_params(description: GameDescription) -> list[Param]:
    """The parameters a web form offers: every one but the files, the number of players
    (the seats give it) and who sits where (the seat kinds give it)."""
    left_out = file_params(description) | set(description.seat_params)
    if description.players_param is not None:
        left_out.add(description.players_param)
    return [param for param in description.params if param.name not in left_out]


def _seats_text(low: int, high: int) -> str:
    return f"{low} seats" if low == high else f"{low} to {high} seats"


def check_table(game: str, params: object, kinds: object,
                programs: Programs | None = None) -> tuple[dict[str, Any], list[str]]:
    """Checked parameters and seat kinds for a new table, or :class:`TableError`. A seat
    ``bot:exec:NAME`` must name one of ``programs`` (nothing is started here)."""
    description = described(game)
    if not shown(description):
        raise TableError(f"{description.title} cannot be played here: its description gives "
                         "no view of a table.")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise TableError("'params' must be an object.")
    if len(json.dumps(params)) > MAX_PARAMS_BYTES:
        raise TableError("'params' is too large.")
    for name in sorted(file_params(description)):
        if name in params:
            raise TableError(f"The parameter '{name}' names a file and is not accepted here.")
    if not isinstance(kinds, list) or not all(isinstance(kind, str) for kind in kinds):
        raise TableError("'seats' must be a list of \"human\" or \"bot:NAME\".")
    if not 2 <= len(kinds) <= MAX_SEATS:
        raise TableError(f"A table has 2 to {MAX_SEATS} seats.")
    low, high = seat_range(description)
    if not low <= len(kinds) <= high:
        raise TableError(f"{description.title} is played by {_seats_text(low, high)}.")
    params = dict(params)
    players = description.players_param
    if players is not None:
        if players in params and params[players] != len(kinds):
            raise TableError(f"'{players}' must equal the number of seats.")
        params[players] = len(kinds)
    for name in description.seat_params:
        params.pop(name, None)
    try:
        loaded = cardtable.load_game(game, **params)
    except GameParamsError as error:
        raise TableError(str(error)) from None
    except (TypeError, ValueError) as error:
        raise TableError(f"Invalid parameters: {error}.") from None
    checked: list[str] = []
    for kind in kinds:
        kind = kind.strip()
        if kind == "human":
            checked.append(kind)
            continue
        if not kind.startswith("bot:"):
            raise TableError(f"A seat is \"human\" or \"bot:NAME\" (got '{kind[:40]}').")
        spec = kind[4:].strip()
        if spec.split(":")[0].strip().lower() == "exec":
            checked.append("bot:exec:" + check_program(game, spec.partition(":")[2], programs))
            continue
        try:
            make_bot(loaded, spec, loaded.seats[0], 0)
        except (GameError, ValueError, TypeError) as error:
            raise TableError(str(error) or f"Invalid bot '{spec[:40]}'.") from None
        checked.append("bot:" + spec)
    return params, checked


def _programs_play(game: str) -> bool:
    """Whether external programs play ``game`` (the JSON-lines protocol of docs/bots.md)."""
    from cardtable.agents.external_games import adapter

    return adapter(game) is not None


def check_program(game: str, name: str, programs: Programs | None) -> str:
    """The name of a program the server offers for ``game``, or :class:`TableError`."""
    name = name.strip()
    if not programs:
        raise TableError("External program bots are not available on this web server (its "
                         "operator may offer some: cardtable serve --allow-exec NAME=COMMAND).")
    if not _programs_play(game):
        raise TableError(f"Programs do not play {game} here (its player programs speak their "
                         "own protocol).")
    if name not in programs:
        shown = shortened(name, 20)
        raise TableError(f"Unknown program '{shown}' (this server offers: "
                         f"{', '.join(sorted(programs))}).")
    return name


NOT_OFFERED = ("exec",)
"""Bots a web seat may not be by spec: a command would be run on the server (the operator's
named programs are offered as ``exec:NAME``; the registry itself keeps the calibration bots,
which see every card, to tournaments and benchmarks)."""


def bot_names(game: str, programs: Programs | None = None) -> list[str]:
    """The bots a web seat may be: the built-in ones, and ``exec:NAME`` for each program the
    operator offers (for the games programs play)."""
    from cardtable.agents.registry import bot_names as registered

    names = [name for name in registered(game) if name not in NOT_OFFERED]
    if programs and _programs_play(game):
        names += [f"exec:{name}" for name in sorted(programs)]
    return names


def instant(game: str, spec: str) -> bool:
    """Whether the bot ``spec`` of ``game`` chooses in microseconds (it then chooses on the
    event loop: a hand-off to a worker thread would cost more than the choice). Every other
    bot thinks on a worker thread."""
    description = described(game)
    name = spec.split(":")[0].strip().lower()
    return name in description.instant_bots or any(
        bot.instant and bot.name.lower() == name for bot in description.bots())


def quick_params(game: str) -> dict[str, Any]:
    """The parameters of a table a quick match opens (every other one is the game's
    default): the description's ``table_params`` (Austerity's deck is shuffled, or every
    such table would deal the same game)."""
    return dict(described(game).table_params)


def quick_seats(game: str) -> list[str]:
    """The seats of a table a quick match opens: people only, as few as the game allows."""
    return ["human"] * seat_range(described(game))[0]


def load(game: str, params: dict[str, Any]) -> Any:
    return cardtable.load_game(game, **params)


def new_state(game: str, params: dict[str, Any], seed: int, kinds: Sequence[str]) -> Any:
    """The state a table starts from: the same deal as the command line's ``--seed``, dealt
    by the description for the table's people and bots (``GameDescription.table_state``)."""
    return described(game).table_state(load(game, params), seed,
                                       [kind == "human" for kind in kinds])


def make_bot(loaded: Any, spec: str, seat: str, seed: int,
             programs: Programs | None = None) -> Any:
    """A bot seat (an ordinary :class:`cardtable.engine.Seat`) for ``seat``. ``exec:NAME``
    starts the operator's program ``NAME`` (its command from ``programs``); raises
    ``UnknownBot`` (a ``GameError``) when the server does not offer it or it cannot start."""
    from cardtable.agents.registry import UnknownBot, make_seat

    head, _, name = spec.partition(":")
    if head.strip().lower() == "exec":
        command = (programs or {}).get(name.strip())
        if command is None:
            raise UnknownBot(f"this server does not offer the program '{name.strip()[:20]}'")
        return make_seat(loaded, f"exec:{command}", seat, seed)
    return make_seat(loaded, spec, seat, seed)


class ThreadedBot:
    """A bot in the async match loop whose thinking runs on a worker thread, so a slow bot
    never holds up the other tables; ``delay`` seconds pass before its move is played."""

    def __init__(self, bot: Any, delay: float, instant: bool = False) -> None:
        self.bot = bot
        self.delay = delay
        self.instant = instant

    async def choose(self, observation: Any) -> Any:
        # Always yield to the loop first: a table of instant bots must not hold it for a
        # whole game.
        await asyncio.sleep(self.delay)
        if self.instant:
            return self.bot.choose(observation)
        return await asyncio.to_thread(self.bot.choose, observation)

    def rejected(self, error: IllegalAction) -> None:
        self.bot.rejected(error)

    def match_over(self, observation: Any, result: Any) -> None:
        """Pass the end of the match on to a bot that wants it (an external program: it hears
        the result and its process is ended, on a thread of its own so that the event loop
        never waits for a process to go)."""
        over = getattr(self.bot, "match_over", None)
        if over is not None:
            threading.Thread(target=over, args=(observation, result), daemon=True,
                             name="cardtable-program-end").start()


# --------------------------------------------------------------------------- how to play


def howto(game: str, preset: str | None = None) -> dict[str, Any]:
    """The how-to-play text of a game (of one of its presets: the default rules when none is
    named), as the terminal's help shows it."""
    description = described(game)
    presets = list(description.presets)
    if preset is not None and preset not in presets:
        if not presets:
            raise TableError(f"{description.title} has no presets (got '{preset[:20]}').")
        raise TableError(f"Unknown preset '{preset[:20]}' (allowed: {', '.join(presets)}).")
    name = preset or (presets[0] if presets else None)
    lines = description.howto(name)
    return {"game": description.name, "preset": name, "title": lines[0], "lines": lines[1:],
            "presets": presets}


# --------------------------------------------------------------------------- the catalogue


_seat_names: dict[tuple[int, int], list[str]] = {}


def seat_names(description: GameDescription, count: int) -> list[str]:
    """The names of the seats of a table of ``count`` seats (the game loaded once for each
    count, then remembered)."""
    key = (id(description), count)
    found = _seat_names.get(key)
    if found is None:
        params = {} if description.players_param is None else {description.players_param: count}
        found = _seat_names[key] = list(description.load(**params).seats)
    return found


def catalogue(programs: Programs | None = None) -> list[dict[str, Any]]:
    """What the lobby offers for each game: its title, seat counts and the seats' names,
    presets, bots (the operator's programs among them, as ``exec:NAME``), the parameters a
    form draws (``Param.json()``; a new table's values from ``table_params``), the rule
    fields folded away, and the parameter that counts the players (None when the number of
    seats is fixed)."""
    games = []
    for description in offered():
        try:
            games.append(_entry(description, programs))
        except (GameError, ValueError, TypeError) as error:
            # A game that cannot load its own tables (a broken plug-in) is left out: the
            # lobby still offers every other game.
            log.error("the game %s is not offered: %s", description.name, error)
    return games


def _entry(description: GameDescription, programs: Programs | None) -> dict[str, Any]:
    low, high = seat_range(description)
    return {
        "game": description.name, "title": description.title,
        "summary": description.summary, "seats": [low, high],
        "seat_names": {str(count): seat_names(description, count)
                       for count in range(low, high + 1)},
        "presets": list(description.presets),
        "bots": bot_names(description.name, programs),
        "params": [param.json() for param in form_params(description)],
        "table_params": dict(description.table_params),
        "players": next((param.json() for param in description.params
                         if param.name == description.players_param), None),
        "fields": [{"field": name, "params": [param.json() for param in params]}
                   for name, params in description.form_fields()],
        "page": description.web_page is not None,
    }
