"""The description: what cardtable's shells read of the game."""

from __future__ import annotations

import json

import pytest
from cardtable.engine.description import GameDescription
from cardtable.engine.errors import NotationError
from cardtable.engine.protocol import Result

from kuhn_poker.description import KUHN_POKER
from kuhn_poker.state import KuhnState

J, Q, K = 0, 1, 2


def test_the_description_names_the_game() -> None:
    assert isinstance(KUHN_POKER, GameDescription)
    assert (KUHN_POKER.name, KUHN_POKER.title, KUHN_POKER.seat_counts) == (
        "kuhn_poker", "Kuhn poker", (2, 2))
    assert KUHN_POKER.params == ()
    assert KUHN_POKER.load().name == "kuhn_poker"
    assert [bot.name for bot in KUHN_POKER.bots()] == ["always-bet", "equilibrium"]
    assert set(KUHN_POKER.instant_bots) >= {"always-bet", "equilibrium"}


def test_the_entry_point_is_the_description() -> None:
    from importlib.metadata import entry_points

    (point,) = [point for point in entry_points(group="cardtable.games")
                if point.name == "kuhn_poker"]
    assert point.load() is KUHN_POKER


@pytest.mark.parametrize(("chips", "winners", "places"), [
    ([1, -1], ("P1",), [0, 1]), ([-2, 2], ("P2",), [1, 0]),
])
def test_places_follow_the_chips(chips: list[int], winners: tuple[str, ...],
                                 places: list[int]) -> None:
    result = Result(winners, "showdown", {"chips": chips})
    assert KUHN_POKER.places(result, ("P1", "P2")) == places


def test_a_forfeit_places_the_winner_first() -> None:
    result = Result(("P2",), "forfeit", {"seat": "P1", "why": "it crashed"})
    assert KUHN_POKER.places(result, ("P1", "P2")) == [1, 0]


def test_a_seat_view_shows_its_own_card_only() -> None:
    state = KuhnState((K, J), "p")
    view = KUHN_POKER.seat_view(state, "P2")
    assert view == {"seat": "P2", "card": "J", "cards": {"P1": None, "P2": "J"},
                    "to_move": "P2", "facing_bet": False, "pot": 2, "bets": {"P1": 1, "P2": 1},
                    "history": [{"seat": "P1", "move": "pass"}], "chips": None}
    assert "K" not in json.dumps(view)
    public = KUHN_POKER.public_view(state)
    assert public["cards"] == {"P1": None, "P2": None} and "seat" not in public
    assert "K" not in json.dumps(public) and "J" not in json.dumps(public)


def test_views_after_a_showdown_and_after_a_fold() -> None:
    from kuhn_poker.views import view_lines

    shown = KuhnState((K, J), "bb")
    view = KUHN_POKER.public_view(shown)
    assert view["cards"] == {"P1": "K", "P2": "J"} and view["chips"] == {"P1": 2, "P2": -2}
    assert view_lines(view) == ["Betting: P1 bets, P2 calls", "Pot: 4 chips",
                                "Showdown: P1 K, P2 J", "Game over: P1 +2, P2 -2"]
    folded = KuhnState((K, J), "pbp")
    assert KUHN_POKER.public_view(folded)["cards"] == {"P1": None, "P2": None}
    seen = KUHN_POKER.seat_view(folded, "P2")
    assert seen["cards"] == {"P1": None, "P2": "J"}
    assert view_lines(seen) == ["Your card: J", "Betting: P1 checks, P2 bets, P1 folds",
                                "Pot: 3 chips", "Game over: P1 -1, P2 +1"]


def test_the_external_adapter_speaks_the_notation_from_the_observation() -> None:
    adapter = KUHN_POKER.external()
    assert adapter is not None
    game = KUHN_POKER.load()
    seen = KuhnState((Q, K), "b").observation("P2")
    assert list(adapter.legal(game, seen)) == ["pass", "bet"]
    assert adapter.parse(game, seen, "call") == adapter.legal(game, seen)["bet"]
    with pytest.raises(NotationError, match=r"^You face a bet"):
        adapter.parse(game, seen, "check")
    assert adapter.rules_json(game)["cards"] == ["J", "Q", "K"]
    assert adapter.observation_json(seen)["card"] == "K"


def test_howto_and_record_rules() -> None:
    lines = KUHN_POKER.howto()
    assert lines[0] == "Kuhn poker" and any("J < Q < K" in line for line in lines)
    game = KUHN_POKER.load()
    assert KUHN_POKER.record_rules(game) == {}
    assert KUHN_POKER.load_recorded({}) == game
