"""The games cardtable knows: one :class:`~cardtable.engine.description.GameDescription` per
game, found under the entry-point group ``cardtable.games``.

The built-in games are registered there by cardtable's own ``pyproject.toml``, a game from
outside by its package's (``docs/plugins.md``); :func:`register` adds one in this process only
(a test, a notebook), as OpenSpiel's ``register_game`` does. The entry points are read once, on
the first question, and each description module is imported only then.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from cardtable.engine.errors import GameParamsError

if TYPE_CHECKING:
    from cardtable.engine.description import GameDescription

GROUP = "cardtable.games"

_registered: dict[str, GameDescription] = {}
_read = False
"""Every entry point has been read."""
_started = False
_reading = threading.RLock()
"""Held while the entry points are read: a thread asking meanwhile (the web server's store
threads on a fresh process) waits for every game instead of seeing none. Reentrant: a game's
description module may ask the registry while it is imported (it sees the games read so far)."""


def _read_entry_points() -> None:
    global _read, _started
    if _read:
        return
    with _reading:
        if _read or _started:
            return
        _started = True
        try:
            _load_entry_points()
        finally:
            _read = True


def _load_entry_points() -> None:
    from importlib.metadata import entry_points

    from cardtable.engine.description import GameDescription

    found: list[GameDescription] = []
    for point in entry_points(group=GROUP):
        if point.name in _registered:
            continue
        try:
            described = point.load()
        except Exception as error:  # a broken plug-in must not stop every other game
            import warnings

            warnings.warn(f"The game '{point.name}' ({point.value}) could not be loaded: "
                          f"{type(error).__name__}: {error}", RuntimeWarning, stacklevel=2)
            continue
        if isinstance(described, type):
            described = described()
        if not isinstance(described, GameDescription) or described.name != point.name:
            import warnings

            warnings.warn(f"The entry point '{point.name}' ({point.value}) is not the "
                          f"description of a game named '{point.name}'.", RuntimeWarning,
                          stacklevel=2)
            continue
        found.append(described)
    for described in sorted(found, key=lambda one: (one.list_position, one.name)):
        _registered.setdefault(described.name, described)


def register(description: GameDescription) -> None:
    """Make ``description``'s game known in this process (replacing one of the same name)."""
    _read_entry_points()
    _registered[description.name] = description


def unregister(name: str) -> None:
    """Forget the game ``name`` in this process (tests undo :func:`register` with it)."""
    _read_entry_points()
    _registered.pop(name, None)


def names() -> tuple[str, ...]:
    """The names of every known game, the built-in ones first."""
    _read_entry_points()
    return tuple(_registered)


def descriptions() -> tuple[GameDescription, ...]:
    _read_entry_points()
    return tuple(_registered.values())


def description(name: object) -> GameDescription:
    """The description of the game ``name``, or :class:`GameParamsError`
    (``Unknown game 'x' (allowed: caravan, obsession, austerity).``)."""
    _read_entry_points()
    found = _registered.get(name) if isinstance(name, str) else None
    if found is None:
        from cardtable.engine.one_line import one_line, shortened

        shown = shortened(one_line(str(name)), 20)
        raise GameParamsError(f"Unknown game '{shown}' (allowed: {', '.join(_registered)}).")
    return found
