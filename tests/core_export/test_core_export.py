"""The compiled cores read a game only through its one export, ``Game.export_core()``.

The layout is written once per language (``core_export.CORE_FIELDS`` in Python,
``EXPORT_FIELDS`` in C); these tests check that the two agree, that a game survives the trip
export -> core -> the core's own export, and that neither the C sources nor the glue in
``fast.py`` read a game's private attributes.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.engine.compiled import load_core
from cardtable.games.caravan import core_export as caravan_export
from cardtable.games.caravan import fast as caravan_fast
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.state import CaravanState
from cardtable.games.obsession import core_export as obsession_export
from cardtable.games.obsession import fast as obsession_fast
from cardtable.games.obsession.bots import make_bot
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import OVER, SWAP, ObsessionState

GAMES = Path(caravan_export.__file__).parent.parent
CARAVAN_CORE = load_core("caravan")
OBSESSION_CORE = load_core("obsession")
needs_cores = pytest.mark.skipif(
    CARAVAN_CORE is None or OBSESSION_CORE is None,
    reason="the compiled cores are not built (or CARDTABLE_PURE is set)",
)


@needs_cores
def test_caravan_core_reads_the_layout_python_writes() -> None:
    assert CARAVAN_CORE is not None
    assert CARAVAN_CORE.EXPORT_FIELDS == caravan_export.CORE_FIELDS


@needs_cores
def test_obsession_core_reads_the_layout_python_writes() -> None:
    assert OBSESSION_CORE is not None
    assert OBSESSION_CORE.EXPORT_FIELDS == obsession_export.CORE_FIELDS


def test_each_export_holds_one_value_per_named_field() -> None:
    caravan = CaravanState.new(SeatRules.preset("power"), seed=4)
    assert len(caravan.export_core()) == len(caravan_export.CORE_FIELDS)
    obsession = ObsessionState.new(Rules(players=3), (False,) * 3, 4, log=False)
    assert len(obsession.export_core()) == len(obsession_export.CORE_FIELDS)


@needs_cores
@pytest.mark.parametrize("core", ["caravan", "obsession"])
def test_a_tuple_of_another_length_is_refused(core: str) -> None:
    module = CARAVAN_CORE if core == "caravan" else OBSESSION_CORE
    assert module is not None
    with pytest.raises(TypeError, match="export_core"):
        module.State.from_export((1, 2, 3))
    with pytest.raises(TypeError, match="export_core"):
        module.State.from_export([None] * len(module.EXPORT_FIELDS))


@needs_cores
@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(["power", "karavane", "foxon", "nv"]),
       seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_caravan_round_trip_through_the_export(preset: str, seed: int, plies: int) -> None:
    game = CaravanState.new(SeatRules.preset(preset), seed=seed)
    rng = random.Random(seed)
    while game.result is None and game.plies < plies:
        game.apply_code(rng.choice(game.legal_codes()))
    state = caravan_fast.from_game(game, seed)
    assert state.export() == caravan_fast.export_game(game)
    assert state.legal_codes() == game.legal_codes()


@needs_cores
@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), turns=st.integers(0, 60))
def test_obsession_round_trip_through_the_export(players: int, seed: int, turns: int) -> None:
    game = ObsessionState.new(Rules(players=players), (False,) * players, seed, log=False)
    bots = [make_bot("random", seat, seed) for seat in range(players)]
    while game.phase != OVER and (game.phase == SWAP or game.turns < turns):
        seat = game.current
        game.apply(bots[seat].choose(game.observe(seat)))
    core = obsession_fast.FastGame.from_game(game)
    assert core.export() == obsession_fast.export_game(game)


def private_reads(path: Path) -> list[str]:
    """Attributes read with a leading underscore on anything but the module's own objects
    (``self``, ``cls``, ``other`` copies of the same class)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name)
                         and node.value.id in ("self", "cls", "other"))):
            found.append(f"{path.name}:{node.lineno} .{node.attr}")
    return found


@pytest.mark.parametrize("game", ["caravan", "obsession"])
def test_the_glue_reads_no_private_attribute_of_a_game(game: str) -> None:
    assert private_reads(GAMES / game / "fast.py") == []


@pytest.mark.parametrize("game", ["caravan", "obsession"])
def test_the_core_reads_no_attribute_of_a_game(game: str) -> None:
    for path in [GAMES / game / "_core.c", *sorted((GAMES / game).glob("_*.h"))]:
        source = path.read_text()
        assert 'GetAttrString(game' not in source, path.name
        # No private attribute named in C (an #include "_worlds.h" is not one).
        assert not re.search(r'Attr\w*\([^;]*"_[^_]', source), path.name
