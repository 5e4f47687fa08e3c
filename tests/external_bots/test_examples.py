"""Every example bot plays whole games as a real process, through the registry's exec: seats."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import cardtable
from cardtable.agents.registry import bot_names, make_seat
from cardtable.engine.match import play_match

from .helpers import EXAMPLES, spec


def play(game: object, specs: dict[str, str], seed: int) -> object:
    state = game.new_state(seed=seed)  # type: ignore[attr-defined]
    seats = {seat: make_seat(game, text, seat, seed) for seat, text in specs.items()}
    return play_match(state, seats)


def test_exec_is_a_bot_of_every_game() -> None:
    for name in cardtable.games():
        assert "exec" in bot_names(name)


@pytest.mark.parametrize("seed", [1, 2])
def test_caravan_python_examples_play_to_the_end(seed: int) -> None:
    game = cardtable.load_game("caravan")
    result = play(game, {"ABC": spec(EXAMPLES / "caravan_random.py", seed),
                         "DEF": spec(EXAMPLES / "caravan_heuristic.py")}, seed)
    assert result.reason in ("lanes", "out_of_cards", "no_legal_move", "draw")


def test_caravan_heuristic_beats_random_more_often_than_not() -> None:
    game = cardtable.load_game("caravan")
    wins = 0
    for seed in range(8):
        result = play(game, {"ABC": spec(EXAMPLES / "caravan_random.py", seed),
                             "DEF": spec(EXAMPLES / "caravan_heuristic.py")}, seed)
        wins += result.winners == ("DEF",)
    assert wins >= 6


@pytest.mark.parametrize("players", [2, 4])
def test_obsession_python_examples_play_to_the_end(players: int) -> None:
    game = cardtable.load_game("obsession", players=players)
    specs = {seat: spec(EXAMPLES / ("obsession_heuristic.py" if index % 2 else
                                    "obsession_random.py"), index)
             for index, seat in enumerate(game.seats)}
    result = play(game, specs, 5)
    assert result.reason in ("out", "cap", "repetition")
    assert result.winners


def build_c_bot(tmp_path: Path) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler on this system: the C example bot is not built")
    program = tmp_path / "caravan_random"
    subprocess.run([compiler, "-O2", "-Wall", "-Wextra", "-Werror", "-o", str(program),
                    str(EXAMPLES / "caravan_random.c")], check=True, timeout=120)
    return program


def test_c_example_plays_caravan_to_the_end(tmp_path: Path) -> None:
    program = build_c_bot(tmp_path)
    game = cardtable.load_game("caravan", rules="foxon")
    for seed in (3, 4):
        result = play(game, {"ABC": f"exec:{program} {seed}",
                             "DEF": spec(EXAMPLES / "caravan_heuristic.py")}, seed)
        assert result.reason != "forfeit"
