"""Caravan's compiled core seen from Python: loading it, importing a game into it, and the
pure Python equivalents used when it is not there.

The core (``_core.c``) plays the play phase of a game in C: legal moves in canonical order,
moves, draws, reshuffles (with its own random generator), the end of the game and whole
random playouts. It reads a Python game only through ``CaravanState.export_core()`` (the layout is
in ``core_export``). It takes a game over in two ways: :func:`new_state` deals a new game with
random decks in C, the very game :meth:`CaravanState.new` deals from the same seed (the core
reproduces Python's Mersenne Twister and ``random.shuffle`` for the deal); :func:`from_game`
imports a Python game at any point of play. :func:`sample_world` samples a world of a
compiled state as one seat sees it, in C. Nothing else imports ``_core``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from cardtable.engine.compiled import load_core
from cardtable.engine.randomness import fresh_seed
from cardtable.engine.seats import seat_number
from cardtable.games.caravan.cards import SEATS
from cardtable.games.caravan.core_export import export_core
from cardtable.games.caravan.deck import random_decks_problem
from cardtable.games.caravan.errors import DeckError
from cardtable.games.caravan.legality import count_legal, legal_parts, nth_legal
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.state import CaravanState, seat_index

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


def from_game(game: CaravanState, seed: int = 0) -> State:
    """The compiled state of ``game`` at its current point; ``seed`` seeds the core's own
    generator (reshuffles, playouts). Raises RuntimeError when the core is not available."""
    if _CORE is None:
        raise RuntimeError(f"Caravan's compiled core is not available ({PURE}).")
    return cast("State", _CORE.State.from_export(export_core(game), seed))


def new_state(rules: SeatRules, seed: int | None = None, first: str | int = "ABC") -> State:
    """A new game with random decks dealt in the compiled core: the same decks, hands,
    mulligans and first legal position as ``CaravanState.new(rules, seed, first)``. ``seed`` (an
    int) also seeds the core's own generator, as :func:`from_game` does. Raises
    :class:`DeckError` like :meth:`CaravanState.new`, RuntimeError when the core is not
    available."""
    if _CORE is None:
        raise RuntimeError(f"Caravan's compiled core is not available ({PURE}).")
    problem = random_decks_problem(rules)
    if problem is not None:
        raise DeckError(problem)
    if seed is None:
        seed = fresh_seed()
    return cast("State", _CORE.State.deal(rules.abc, rules.def_, seed, seat_index(first)))


def sample_world(state: State, seat: str | int, seed: int) -> State:
    """A new compiled state agreeing with everything ``seat`` sees in ``state``, the cards it
    cannot see dealt again uniformly among the places they could be, under the constraints of
    ``CaravanState.sample_world`` (see ``worlds.py``; the C is in ``_worlds.h``). ``seed`` (an int)
    deals them and then seeds the world's own generator (reshuffles, playouts), so the same
    seed gives the same world. Raises ``UnknownSeat`` for a seat that is not ABC, DEF, 0 or
    1."""
    return state.sample_world(seat_number(seat, SEATS), seed)


def export_game(game: CaravanState) -> Exported:
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


def python_playout(game: CaravanState, rng: random.Random, limit: int = -1) -> int:
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
