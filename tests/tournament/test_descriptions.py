"""A tournament asks the game's description, never its name: the parameters and their
messages, the number of players, the table's defaults, the move cap and the ranks of a game
registered in this process, and the command line's options made from every description."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cardtable.engine.description import GameDescription, Param
from cardtable.engine.game_registry import register, unregister
from cardtable.engine.protocol import Result
from cardtable.games.obsession.description import OBSESSION
from cardtable.games.obsession.params import PLAYERS, RULES
from cardtable.tournament.errors import TournamentError
from cardtable.tournament.play import MOVE_CAP, move_cap, play, ranks
from cardtable.tournament.schedule import Config, Entrant, schedule
from cardtable.tournament.setup import game_params, make_config

SRC = Path(__file__).resolve().parents[2] / "src" / "cardtable"


class Shedding(GameDescription):
    """Obsession under another name, with other limits and defaults, a parameter of its own
    and free rule fields: a game the tournament code has never heard of."""

    name = "shedding"
    title = "Shedding"
    params = (replace(PLAYERS, high=5),
              *(param for param in RULES if param.name not in ("players", "kill_order")),
              Param("speed", "how fast the table plays", kind="int", default=1, low=1, high=3))
    seat_counts = (2, 5)
    players_param = "players"
    table_params: Mapping[str, Any] = {"max_plays": 300}
    max_moves = 7
    rule_fields = True

    def load(self, **params: Any) -> Any:
        params.pop("speed", None)
        return OBSESSION.load(**params)

    def places(self, result: Result, seats: Sequence[str]) -> list[int]:
        """The last seat first, whatever happened."""
        return [len(seats) - 1 - index for index in range(len(seats))]


@pytest.fixture
def shedding() -> Iterator[Shedding]:
    game = Shedding()
    register(game)
    yield game
    unregister(game.name)


def test_parameters_are_checked_by_the_description_s_params(shedding: Shedding) -> None:
    assert game_params("shedding", {"players": "4", "run_kill": "3", "speed": "2"}) == {
        "players": 4, "run_kill": 3, "speed": 2, "max_plays": 300}
    with pytest.raises(TournamentError, match=r"^--players must be an integer from 2 to 5 "
                       r"\(got '6'\)$"):
        game_params("shedding", {"players": "6"})
    with pytest.raises(TournamentError, match=r"^--speed must be an integer from 1 to 3 "
                       r"\(got 'fast'\)$"):
        game_params("shedding", {"speed": "fast"})
    with pytest.raises(TournamentError, match=r"^--kill-order is an Obsession option, not one "
                       r"of shedding\.$"):
        game_params("shedding", {"kill_order": "kill-first"})
    with pytest.raises(TournamentError, match=r"^--speed is a Shedding option, not one of "
                       r"obsession\.$"):
        game_params("obsession", {"speed": "2"})


def test_players_default_to_the_seats_within_the_seat_counts(shedding: Shedding) -> None:
    assert game_params("shedding", entrants=7)["players"] == 5
    assert game_params("shedding", entrants=3)["players"] == 3
    assert game_params("obsession", entrants=7)["players"] == 7


def test_table_params_apply_unless_given(shedding: Shedding) -> None:
    assert game_params("shedding")["max_plays"] == 300
    assert game_params("shedding", {"max_plays": "40"})["max_plays"] == 40
    assert "max_plays" not in game_params("obsession")


def test_rule_fields_are_for_the_games_that_take_them(shedding: Shedding) -> None:
    assert game_params("shedding", rule=["repeat_limit = 2"])["repeat_limit"] == "2"
    with pytest.raises(TournamentError, match=r"^--rule is not an option of obsession\.$"):
        game_params("obsession", rule=["repeat_limit=2"])


def test_seat_params_are_no_option_of_a_tournament() -> None:
    with pytest.raises(TournamentError, match=r"^--humans is not an option of obsession\.$"):
        game_params("obsession", {"humans": "1"})


def test_the_move_cap_and_the_ranks_come_from_the_description(shedding: Shedding) -> None:
    assert move_cap("shedding") == 7
    assert move_cap("obsession") == move_cap("caravan") == MOVE_CAP
    config = make_config("shedding", game_params("shedding", entrants=2),
                         ["random", "random"], None, 3)
    line = play(config, next(iter(schedule(config, 2))))
    assert line["moves"] == 7
    assert line["result"] == {"winners": [], "reason": "stalemate", "ranks": [1, 0]}
    assert ranks("shedding", Result(("P1",), "out", {"placings": [1, 2]}), ("P1", "P2")) == [1, 0]


def test_the_command_line_offers_every_description_s_params(
        shedding: Shedding, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.cli.tournament import build_parser

    monkeypatch.setenv("COLUMNS", "300")  # one line for each option's help
    text = build_parser().format_help()
    assert "--speed N" in text
    assert "Shedding: how fast the table plays: an integer from 1 to 3" in text
    assert "GAME" in text and "caravan, obsession, austerity" in text and "or shedding" in text
    assert ("Obsession, Austerity and Shedding: the number of players (default: the number of "
            "seats)") in text
    options = build_parser().parse_args(["shedding", "--seat", "random", "--games", "2",
                                         "--speed", "3", "--rule", "max_plays=9"])
    assert options.param_speed == "3" and options.rule == ["max_plays=9"]


def test_a_tournament_of_a_registered_game_plays(shedding: Shedding) -> None:
    config = Config("shedding", game_params("shedding", entrants=3), 3,
                    tuple(Entrant(label, "random") for label in ("a", "b", "c")), None, 1)
    lines = [play(config, task) for task in schedule(config, 3)]
    assert [line["result"]["ranks"] for line in lines] == [[2, 1, 0]] * 3


GAME_NAMES = {"caravan", "obsession", "austerity"}
GENERIC_FILES = [*sorted((SRC / "tournament").glob("*.py")), SRC / "cli" / "tournament.py",
                 SRC / "web" / "ratings.py", SRC / "envs" / "__init__.py",
                 SRC / "envs" / "aec.py", SRC / "envs" / "parts.py", SRC / "envs" / "bench.py",
                 SRC / "envs" / "rewards.py", SRC / "envs" / "single_agent_env.py"]


@pytest.mark.parametrize("path", GENERIC_FILES, ids=lambda path: path.name)
def test_no_game_is_named_in_the_generic_code(path: Path) -> None:
    """No string literal outside docstrings (a comparison, a dictionary key, a list) names a
    game: the shells ask the descriptions."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    named = [node.value for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and id(node) not in docstrings and node.value.lower() in GAME_NAMES]
    assert named == []
