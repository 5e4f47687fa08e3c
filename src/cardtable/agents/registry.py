"""Bots by name, for every game: ``caravan -b``, ``obsession --bot``, web seats, tournaments.

A bot is named by a spec: ``NAME`` or ``NAME:KEY=VALUE,KEY=VALUE`` (``ismcts:iters=1000,c=1.4``);
a spec whose name takes the rest verbatim (``exec:COMMAND``) is a ``raw`` bot. A game's own bots
come from its description (:meth:`~cardtable.engine.description.GameDescription.bots`), then
the bots of this package that play every game: the search (``ismcts``, ``omniscient``),
``random`` and ``exec``; a game's own bot of the same name is the one offered. ``make_seat``
gives a :class:`cardtable.engine.Seat` for one seat of one state; the seat sees only its
observation.
"""

from __future__ import annotations

from typing import Any

from cardtable.engine.description import Bot, BotSpec, UnknownBot, no_options
from cardtable.engine.game_registry import description
from cardtable.engine.match import Seat
from cardtable.engine.one_line import one_line
from cardtable.engine.option_refusals import unknown_bot_message

__all__ = ["Bot", "BotSpec", "UnknownBot", "bot_names", "known_spec", "make_seat",
           "no_options", "parse_spec", "show_state"]


def _generic(game: str) -> list[Bot]:
    """The bots of this package, which play every game (imported on first use: each start of
    a command line that never names a bot stays fast)."""
    from cardtable.agents import external, random_bot, search_bots

    return [*search_bots.described_bots(game), random_bot.described_bot(),
            external.described_bot()]


_cache: dict[str, dict[str, Bot]] = {}


def _entries(game: str) -> dict[str, Bot]:
    """The bots of the game named ``game``: its own, then the generic ones it does not
    replace."""
    found = _cache.get(game)
    if found is None:
        own = {bot.name.lower(): bot for bot in description(game).bots()}
        generic = {bot.name.lower(): bot for bot in _generic(game) if bot.name.lower() not in own}
        found = _cache[game] = {**own, **generic}
    return found


def bot_names(game: str, *, calibration: bool = False) -> tuple[str, ...]:
    """The names of ``game``'s bots, in registration order (the game's own first); calibration
    bots only when asked for."""
    return tuple(name for name, entry in _entries(game).items()
                 if calibration or not entry.calibration)


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
        raise UnknownBot(unknown_bot_message(text, game, bot_names(game)))
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


def known_spec(game: str, text: str) -> bool:
    """Whether ``text`` names a bot of ``game`` (calibration bots apart); its options are not
    checked (:func:`make_seat` does)."""
    try:
        parse_spec(game, text)
    except UnknownBot:
        return False
    return True


def make_seat(game: Any, spec: str | BotSpec, seat: str, seed: int | str, *,
              calibration: bool = False) -> Seat:
    """The bot ``spec`` for the seat named ``seat`` of ``game`` (a loaded game object).
    A calibration bot must then be shown the state (:func:`show_state`)."""
    name = game.name
    parsed = spec if isinstance(spec, BotSpec) else parse_spec(name, spec,
                                                                calibration=calibration)
    entry = _entries(name)[parsed.name]
    made: Seat = entry.factory(game, parsed, seat, seed)
    return made


def show_state(seats: Any, state: Any) -> None:
    """Show ``state`` to the calibration bots among ``seats`` (those with ``watch(state)``)."""
    for seat in seats.values():
        watch = getattr(seat, "watch", None)
        if watch is not None:
            watch(state)
