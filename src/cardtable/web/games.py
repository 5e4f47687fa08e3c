"""The games as a web table sees them: checked parameters, seats, bots and how-to-play text.

Parameters are ``load_game``'s, less those that name files on the server (``rules_file``,
``deck``): a web request may not make the server read its files. Obsession and Austerity take
their number of players from the seats.

Programs (``exec:``, docs/bots.md) sit only at the tables of a server whose operator named them
(``cardtable serve --allow-exec NAME=COMMAND``): a request picks one by its name,
``bot:exec:NAME``, and never gives a command.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import cardtable
from cardtable.engine.errors import GameError, GameParamsError, IllegalAction
from cardtable.engine.one_line import shortened

GAMES = ("caravan", "obsession", "austerity")
FILE_PARAMS = ("rules_file", "deck")
MAX_SEATS = 10
"""The most seats a web table has (ratings handle 2 to 10 players)."""
MAX_PARAMS_BYTES = 2000
AUSTERITY_BOTS = ("shenzi", "banzai", "ed")
QUICK_PARAMS: Mapping[str, Mapping[str, Any]] = {"austerity": {"deal": "shuffled"}}
"""The parameters of a table a quick match opens (every other one is the game's default):
Austerity's deck is shuffled, or every such table would deal the same game."""
PROGRAM_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,19}")
"""What an operator may name a program (``--allow-exec NAME=COMMAND``)."""

Programs = Mapping[str, str]
"""The programs a server offers: name → command (split like a shell line when started)."""


class TableError(Exception):
    """A table request the server refuses; the message is shown to the user as it is."""


def check_table(game: str, params: object, kinds: object,
                programs: Programs | None = None) -> tuple[dict[str, Any], list[str]]:
    """Checked parameters and seat kinds for a new table, or :class:`TableError`. A seat
    ``bot:exec:NAME`` must name one of ``programs`` (nothing is started here)."""
    if game not in GAMES:
        raise TableError(f"Unknown game '{str(game)[:20]}' (allowed: {', '.join(GAMES)}).")
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise TableError("'params' must be an object.")
    if len(json.dumps(params)) > MAX_PARAMS_BYTES:
        raise TableError("'params' is too large.")
    for name in FILE_PARAMS:
        if name in params:
            raise TableError(f"The parameter '{name}' names a file and is not accepted here.")
    if not isinstance(kinds, list) or not all(isinstance(kind, str) for kind in kinds):
        raise TableError("'seats' must be a list of \"human\" or \"bot:NAME\".")
    if not 2 <= len(kinds) <= MAX_SEATS:
        raise TableError(f"A table has 2 to {MAX_SEATS} seats.")
    params = dict(params)
    if game == "caravan" and len(kinds) != 2:
        raise TableError("Caravan is played by 2 seats.")
    if game in ("obsession", "austerity"):
        if "players" in params and params["players"] != len(kinds):
            raise TableError("'players' must equal the number of seats.")
        params["players"] = len(kinds)
    if game == "obsession":
        params.pop("humans", None)
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


def check_program(game: str, name: str, programs: Programs | None) -> str:
    """The name of a program the server offers for ``game``, or :class:`TableError`."""
    from cardtable.agents.external_games import adapter

    name = name.strip()
    if not programs:
        raise TableError("External program bots are not available on this web server (its "
                         "operator may offer some: cardtable serve --allow-exec NAME=COMMAND).")
    if adapter(game) is None:
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
    from cardtable.agents.external_games import adapter
    from cardtable.agents.registry import bot_names as registered

    names = [name for name in registered(game) if name not in NOT_OFFERED]
    if programs and adapter(game) is not None:
        names += [f"exec:{name}" for name in sorted(programs)]
    return names


def load(game: str, params: dict[str, Any]) -> Any:
    return cardtable.load_game(game, **params)


def new_state(game: str, params: dict[str, Any], seed: int, kinds: Sequence[str]) -> Any:
    """The state a table starts from: the same deal as the command line's ``--seed``.

    Obsession's repetition guard leaves human seats alone, wherever they sit, as in the
    terminal (the record names them, and its replay deals the same way)."""
    loaded = load(game, params)
    if game == "obsession":
        from cardtable.games.obsession.state import ObsessionState

        return ObsessionState.new(loaded.rules, [kind == "human" for kind in kinds], seed)
    return loaded.new_state(seed)


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

INSTANT_BOTS = frozenset(("random", *AUSTERITY_BOTS))
"""Bots whose choice takes microseconds: they choose on the event loop (a hand-off to a worker
thread would cost more than the choice). Every other bot thinks on a worker thread."""


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
    """The how-to-play text of a game (of a Caravan preset), as the terminal's help shows it."""
    if game == "caravan":
        from cardtable.games.caravan.howto import howto_lines
        from cardtable.games.caravan.rules import PRESETS

        name = preset or "foxon"
        if name not in PRESETS:
            raise TableError(f"Unknown preset '{name[:20]}' (allowed: {', '.join(PRESETS)}).")
        loaded = load("caravan", {"rules": name})
        lines = howto_lines(loaded.rules, width=10_000)
        return {"game": game, "preset": name, "title": lines[0], "lines": lines[1:],
                "presets": list(PRESETS)}
    if game == "obsession":
        from cardtable.web.howto_text import obsession_lines

        lines = obsession_lines()
        return {"game": game, "preset": None, "title": lines[0], "lines": lines[1:],
                "presets": []}
    if game == "austerity":
        from cardtable.web.howto_text import austerity_lines

        lines = austerity_lines()
        return {"game": game, "preset": None, "title": lines[0], "lines": lines[1:],
                "presets": []}
    raise TableError(f"Unknown game '{game[:20]}' (allowed: {', '.join(GAMES)}).")


def catalogue(programs: Programs | None = None) -> list[dict[str, Any]]:
    """What the lobby's form offers: each game, its presets, bots (the operator's programs
    among them, as ``exec:NAME``) and seat counts."""
    from cardtable.games.caravan.rules import PRESETS

    return [
        {"game": "caravan", "seats": [2, 2], "presets": list(PRESETS),
         "bots": bot_names("caravan", programs),
         "params": {"rules": "a preset", "first": "ABC or DEF",
                    "FIELD / abc.FIELD / def.FIELD": "a rule field for both seats or one"}},
        {"game": "obsession", "seats": [2, MAX_SEATS], "presets": [],
         "bots": bot_names("obsession", programs),
         "params": {"run_kill": "2..8", "kill_order": "effect-first or kill-first",
                    "max_plays": "integer >= 1", "repeat_limit": "integer >= 0"}},
        {"game": "austerity", "seats": [2, MAX_SEATS], "presets": [],
         "bots": bot_names("austerity"),
         "params": {"tokens": "tokens per colour pile", "points": "points to win",
                    "deal": "file (the deck's order, the default) or shuffled (from the seed)"}},
    ]
