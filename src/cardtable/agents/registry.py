"""Bots by name, for every game: ``caravan -b``, ``obsession --bot``, web seats, tournaments.

A bot is named by a spec: ``NAME`` or ``NAME:KEY=VALUE,KEY=VALUE`` (``ismcts:iters=1000,c=1.4``);
a spec whose name takes the rest verbatim (``exec:COMMAND``) is registered with ``raw=True``.
Each game registers its own bots here, and bots that work for any game (in this package)
register for every game. ``make_seat`` gives a :class:`cardtable.engine.Seat` for one seat of one
state; the seat sees only its observation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardtable.engine.errors import GameError
from cardtable.engine.match import Seat
from cardtable.engine.one_line import one_line, shortened

SeatFactory = Callable[["BotSpec", str, int | str, Any], Seat]
"""``factory(spec, seat_name, seed, game)`` → a seat; ``game`` is the loaded game object."""

ANY_GAME = "*"

_SHOWN = 40


class UnknownBot(GameError):
    """A bot spec names no bot of the game, or gives it options it does not take."""


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec: its name, its options, and for raw bots the text after the colon."""

    name: str
    options: Mapping[str, str] = field(default_factory=dict)
    raw: str = ""

    def __str__(self) -> str:
        if self.raw:
            return f"{self.name}:{self.raw}"
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{key}={value}" for key, value in self.options.items())


@dataclass(frozen=True)
class _Entry:
    factory: SeatFactory
    raw: bool
    summary: str
    calibration: bool = False


_BOTS: dict[str, dict[str, _Entry]] = {}
_loaded: set[str] = set()


def register(game: str, name: str, factory: SeatFactory, *, raw: bool = False,
             summary: str = "", calibration: bool = False) -> None:
    """Make ``name`` a bot of ``game`` (or of every game: ``ANY_GAME``). A ``calibration`` bot
    (one that sees more than its seat may, such as ``omniscient``) is offered only where the
    caller asks for calibration bots: tournaments and benchmarks."""
    _BOTS.setdefault(game, {})[name.lower()] = _Entry(factory, raw, summary, calibration)


def _entries(game: str) -> dict[str, _Entry]:
    if game not in _loaded:
        _loaded.add(game)
        _load_builtin(game)
    return {**_BOTS.get(ANY_GAME, {}), **_BOTS.get(game, {})}


def bot_names(game: str, *, calibration: bool = False) -> tuple[str, ...]:
    """The names of ``game``'s bots, in registration order (the game's own first); calibration
    bots only when asked for."""
    entries = {name: entry for name, entry in _entries(game).items()
               if calibration or not entry.calibration}
    own = [name for name in _BOTS.get(game, {}) if name in entries]
    return tuple(own + [name for name in entries if name not in own])


def parse_spec(game: str, text: str, *, calibration: bool = False) -> BotSpec:
    """Parse ``NAME[:OPTIONS]`` for ``game``; raises :class:`UnknownBot` with a one-line message.
    A calibration bot is refused unless ``calibration`` is set."""
    name, colon, rest = text.strip().partition(":")
    name = name.strip().lower()
    entries = _entries(game)
    entry = entries.get(name)
    if entry is not None and entry.calibration and not calibration:
        raise UnknownBot(f"The bot '{name}' sees every card: it plays only in tournaments and "
                         "benchmarks.")
    if entry is None:
        shown = shortened(one_line(text), _SHOWN)
        raise UnknownBot(f"Unknown bot '{shown}' for {game} (bots: {', '.join(bot_names(game))}).")
    if entry.raw:
        if not rest.strip():
            raise UnknownBot(f"The bot '{name}' needs something after '{name}:'.")
        return BotSpec(name, {}, rest.strip())
    options: dict[str, str] = {}
    if colon and rest.strip():
        for item in rest.split(","):
            key, equals, value = item.partition("=")
            key = key.strip().lower()
            if not equals or not key or not value.strip():
                raise UnknownBot(f"Invalid option '{one_line(item.strip())}' for the bot '{name}' "
                                 "(expected KEY=VALUE).")
            options[key] = value.strip()
    return BotSpec(name, options)


def make_seat(game: Any, spec: str | BotSpec, seat: str, seed: int | str, *,
              calibration: bool = False) -> Seat:
    """The bot ``spec`` for the seat named ``seat`` of ``game`` (a loaded game object).
    A calibration bot must then be shown the state (:func:`show_state`)."""
    name = game.name
    parsed = spec if isinstance(spec, BotSpec) else parse_spec(name, spec,
                                                                calibration=calibration)
    entry = _entries(name)[parsed.name]
    return entry.factory(parsed, seat, seed, game)


def show_state(seats: Any, state: Any) -> None:
    """Show ``state`` to the calibration bots among ``seats`` (those with ``watch(state)``)."""
    for seat in seats.values():
        watch = getattr(seat, "watch", None)
        if watch is not None:
            watch(state)


def no_options(spec: BotSpec) -> None:
    """Refuse any option: for bots that take none."""
    if spec.options:
        key = next(iter(spec.options))
        raise UnknownBot(f"The bot '{spec.name}' takes no option '{key}'.")


def _load_builtin(game: str) -> None:
    """Import the game's bot module, which registers its bots (kept lazy for fast start-up),
    and, once, the bots of this package that work for any game."""
    if ANY_GAME not in _loaded:
        _loaded.add(ANY_GAME)
        from cardtable.agents import external, random_bot

        random_bot.register_everywhere()
        external.register_everywhere()
    if game == "caravan":
        from cardtable.games.caravan import bots as caravan_bots

        caravan_bots.register_everywhere()
    elif game == "obsession":
        from cardtable.games.obsession import bots as obsession_bots

        obsession_bots.register_everywhere()
    elif game == "austerity":
        from cardtable.games.austerity import bots as austerity_bots
        from cardtable.games.austerity import mcts

        austerity_bots.register_everywhere()
        mcts.register_everywhere()
    from cardtable.agents.search_bots import register_search_bots

    register_search_bots(game)
