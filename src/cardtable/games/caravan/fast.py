"""Caravan's compiled core seen from Python: loading it, importing a game into it, and the
pure Python equivalents used when it is not there.

The core (``_core.c``) plays the play phase of a game in C: legal moves in canonical order,
moves, draws, reshuffles (with its own random generator), the end of the game and whole
random playouts. Setup stays in Python: build a game with :meth:`Game.new`, then
:func:`from_game` takes it over at any point of play. Nothing else imports ``_core``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from cardtable.engine.compiled import load_core
from cardtable.games.caravan.legality import count_legal, legal_parts, nth_legal
from cardtable.games.caravan.state import Game

if TYPE_CHECKING:
    from cardtable.games.caravan._core import Exported, State

_CORE = load_core("caravan")

COMPILED = "compiled core"
PURE = "pure Python — core not built or CARDTABLE_PURE=1"


def available() -> bool:
    """Whether the compiled core is built and allowed (``CARDTABLE_PURE`` unset)."""
    return _CORE is not None


def engine_name() -> str:
    """Which engine plays the fast paths, as the benchmark prints it."""
    return COMPILED if _CORE is not None else PURE


def from_game(game: Game, seed: int = 0) -> State:
    """The compiled state of ``game`` at its current point; ``seed`` seeds the core's own
    generator (reshuffles, playouts). Raises RuntimeError when the core is not available."""
    if _CORE is None:
        raise RuntimeError(f"Caravan's compiled core is not available ({PURE}).")
    return cast("State", _CORE.State.from_game(game, seed))


def export_game(game: Game) -> Exported:
    """A Python game in the form of ``State.export()``, for comparing the two engines."""
    result = None if game.result is None else (tuple(game.result.winners), game.result.reason)
    return (
        tuple(game.caravans),
        tuple(game.summaries),
        tuple(game.crowding),
        tuple(game.held),
        (tuple(game.hands[0]), tuple(game.hands[1])),
        (tuple(game.decks[0]), tuple(game.decks[1])),
        (tuple(game.piles[0]), tuple(game.piles[1])),
        (game.placed[0], game.placed[1]),
        (game.moves_made[0], game.moves_made[1]),
        game.turn,
        game.plies,
        game.jack_as_joker,
        result,
    )


def python_playout(game: Game, rng: random.Random, limit: int = -1) -> int:
    """The pure Python twin of ``State.playout``: uniformly random legal moves for both
    seats until the game ends (or ``limit`` moves were made); returns the moves made."""
    played = 0
    while game.result is None and played != limit:
        parts = legal_parts(game.table())
        total = count_legal(parts)
        if not total:
            break
        game.apply_code(nth_legal(parts, rng.randrange(total)))
        played += 1
    return played
