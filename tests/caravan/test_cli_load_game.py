"""The ``caravan`` command line loads its game through the game's description
(``cardtable.load_game``): the rules (preset, rules file, -c, -s, -i, --rule), the first seat,
and between two bots the length cap every shell gives them (``bot_params``)."""

from __future__ import annotations

import io
import sys
from typing import Any

import pytest

import cardtable
from cardtable.cli import caravan
from cardtable.engine.errors import GameParamsError
from cardtable.games.caravan.stalemate import STUCK_PLIES


def test_load_game_takes_the_command_lines_rule_texts_and_the_seats_dealt_at_random() -> None:
    game = cardtable.load_game("caravan", rules="foxon", max_faces=2,
                               rule=["max_faces=3", "def.hand_size=6"])
    assert game.rules.abc.max_faces == 3 and game.rules.def_.hand_size == 6
    with pytest.raises(GameParamsError, match="Caravan decks must have between 30"):
        cardtable.load_game("caravan", deck_size=20)
    # A seat dealt from a deck file needs no random deck: nothing to check for it.
    assert cardtable.load_game("caravan", deck_size=20, random_decks=()).rules.abc.deck_size == 20
    with pytest.raises(GameParamsError, match="'rule' must be a list"):
        cardtable.load_game("caravan", rule="max_faces=3")


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every load_game call of the command line, the game still loaded for real."""
    calls: list[dict[str, Any]] = []

    def spy(name: str, **params: Any) -> Any:
        calls.append({"name": name, **params})
        return cardtable.load_game(name, **params)

    monkeypatch.setattr(caravan, "load_game", spy)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"quit\n")))
    return calls


def test_the_command_line_loads_its_rules_first_seat_and_caps_through_load_game(
        loads: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    assert caravan.main(["--plain", "--bvb", "--seed", "3", "--rules", "nv", "-f", "2",
                         "-c", "40", "--rule", "max_faces=3", "-i"]) == 0
    (call,) = loads
    assert call == {"name": "caravan", "rules": "nv", "rules_file": None,
                    "rule": ["max_faces=3"], "random_decks": (), "deck_size": 40,
                    "sampling": "imbalanced", "first": 1, "stuck_plies": STUCK_PLIES}
    assert "DEF" in capsys.readouterr().out


def test_a_person_at_the_table_gets_no_cap(loads: list[dict[str, Any]],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert caravan.main(["--plain", "--seed", "3"]) == 0
    (call,) = loads
    assert "stuck_plies" not in call and call["first"] == 0
    capsys.readouterr()
