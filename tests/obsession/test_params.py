"""Obsession's option limits, defaults and messages are written once, in its parameters
(games/obsession/params.py, the description's ``params``): ``load_game``, the command line's
options, a record's rules and the launcher all read them there."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.cli.obsession import build_parser
from cardtable.engine.errors import GameParamsError
from cardtable.engine.game_registry import description
from cardtable.games.obsession import params
from cardtable.games.obsession.rules import Rules


def test_the_description_offers_the_parameters_the_game_and_its_rules_read() -> None:
    assert description("obsession").params is params.PARAMS
    defaults = Rules()
    for param in params.RULES:
        assert getattr(defaults, param.name) == param.default
    game = cardtable.load_game("obsession")
    assert game.rules == defaults and game.humans == params.HUMANS.default


@pytest.mark.parametrize(("given", "message"), [
    ({"players": 11}, "--players must be an integer from 2 to 10 (got '11')"),
    ({"players": 3, "humans": 4}, "--humans must be an integer from 0 to 3 (got '4')"),
    ({"run_kill": "x" * 60}, f"--run-kill must be an integer from 2 to 8 (got '{'x' * 40}...')"),
    ({"kill_order": "late"}, "--kill-order must be effect-first or kill-first (got 'late')"),
    ({"max_plays": 0}, "--max-plays must be an integer >= 1 (got '0')"),
    ({"repeat_limit": True}, "--repeat-limit must be an integer >= 0 (got 'True')"),
    ({"colour": 1}, "Unknown parameter 'colour' for obsession (allowed: players, humans, "
                    "run_kill, kill_order, max_plays, repeat_limit)."),
])
def test_load_game_refuses_with_the_parameters_message(given: dict[str, object],
                                                       message: str) -> None:
    with pytest.raises(GameParamsError) as refused:
        cardtable.load_game("obsession", **given)
    assert refused.value.message == message


def test_a_records_rules_are_checked_by_the_same_parameters() -> None:
    assert Rules(run_kill=9).problem() == "--run-kill must be an integer from 2 to 8 (got '9')"
    with pytest.raises(ValueError, match="--players must be an integer from 2 to 10"):
        Rules.from_json({**Rules().to_json(), "players": 1, "decks": 1})


def test_the_command_lines_options_are_made_from_the_parameters() -> None:
    options = {action.dest: action for action in build_parser()._actions}
    for param in params.PARAMS:
        action = options[param.name]
        assert param.option in action.option_strings
        assert action.help is not None and param.allowed in action.help
    assert options["run_kill"].default == str(params.RUN_KILL.default)
    assert options["humans"].default == "1"  # a person plays unless told otherwise
