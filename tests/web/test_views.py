"""The pages' views are the games' observation JSON (the one external bots receive): the same
fields with cards as objects, the latest moves only, and what the board marks added. The public
view is what every seat sees alike."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import cardtable
from cardtable.agents.external_games import adapter
from cardtable.web import serialize

PAGE_FIELDS = ("game", "seats", "rules", "lanes", "history_text", "last_move", "result_text")
"""What a page's view adds to the observation JSON (and ``sold`` and ``bust`` to a caravan)."""

SIMULTANEOUS = ({"rules": "nv", "opening_mode": "simultaneous"}, {"rules": "foxon"})
"""Caravan rules whose opening each seat makes unseen by the other."""

GAMES = [
    pytest.param("caravan", {"rules": "nv"}, id="caravan-nv"),
    pytest.param("caravan", SIMULTANEOUS[0], id="caravan-nv-simultaneous"),
    pytest.param("caravan", SIMULTANEOUS[1], id="caravan-foxon"),
    pytest.param("obsession", {"players": 3}, id="obsession-3"),
    pytest.param("austerity", {"players": 3}, id="austerity-3"),
]


def positions(game: str, params: dict[str, Any], seed: int, plies: int = 150) -> Iterator[Any]:
    """The states of a game played at random from its deal, for ``plies`` moves at most."""
    state = cardtable.load_game(game, **params).new_state(seed)
    choose = random.Random(seed)
    for _ in range(plies):
        yield state
        if state.result is not None:
            return
        state.apply(choose.choice(state.legal_actions()))
    yield state


def as_bots_see_it(view: dict[str, Any]) -> dict[str, Any]:
    """A page's view without what the page adds, every card object written as its text."""
    shown = {key: value for key, value in view.items() if key not in PAGE_FIELDS}
    for caravan in shown.get("caravans", []):
        assert isinstance(caravan.pop("sold"), bool) and isinstance(caravan.pop("bust"), bool)
    return written(shown)  # type: ignore[no-any-return]


def written(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"card", "id"}:
            return value["card"]
        return {key: written(item) for key, item in value.items()}
    if isinstance(value, list):
        return [written(item) for item in value]
    return value


def latest_moves(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "history": view["history"][-serialize.HISTORY_SHOWN:]}


def observation_json(game: str, obs: Any) -> dict[str, Any]:
    if game == "austerity":
        from cardtable.games.austerity.observation_json import observation_json as austerity

        return austerity(obs)
    games_adapter = adapter(game)
    assert games_adapter is not None
    return games_adapter.observation_json(obs)


@pytest.mark.parametrize(("game", "params"), GAMES)
def test_a_seats_view_is_its_observation_json_with_cards_as_objects(
        game: str, params: dict[str, Any]) -> None:
    for state in positions(game, params, seed=7):
        for seat in state.seats:
            view = serialize.seat_view(game, state, seat)
            assert view["game"] == game and view["seats"] == list(state.seats)
            expected = observation_json(game, state.observation(seat))
            if "history" in expected:
                expected = latest_moves(expected)
            assert as_bots_see_it(view) == expected


@pytest.mark.parametrize(("game", "params"), GAMES)
def test_the_public_view_is_what_every_seat_sees_alike(game: str,
                                                         params: dict[str, Any]) -> None:
    hidden_openings = 0
    for state in positions(game, params, seed=8):
        public = as_bots_see_it(serialize.public_view(game, state))
        assert "seat" not in public and "hand" not in public
        views = {seat: as_bots_see_it(serialize.seat_view(game, state, seat))
                 for seat in state.seats}
        if game != "caravan":
            for view in views.values():
                assert public == {key: value for key, value in view.items()
                                  if key not in ("seat", "hand")}
            continue
        # Each seat's caravans and moves as the other seat sees them.
        abc, def_ = views["ABC"], views["DEF"]
        assert public["caravans"] == def_["caravans"][:3] + abc["caravans"][3:]
        assert public["history"] == [(def_ if mine["seat"] == "ABC" else abc)["history"][index]
                                     for index, mine in enumerate(abc["history"])]
        hidden_openings += any(slot["numeral"] is None for caravan in public["caravans"]
                               for slot in caravan["cards"])
    assert (hidden_openings > 0) == (params in SIMULTANEOUS)
