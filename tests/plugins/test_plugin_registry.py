"""The plug-in as a game of cardtable's: listed, loaded, its bots named, played by the match
loop with cardtable's own bots."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.agents.registry import bot_names, make_seat
from cardtable.engine.errors import GameParamsError
from cardtable.engine.game_registry import description
from cardtable.engine.match import play_match


def test_the_game_is_listed_after_the_built_in_ones() -> None:
    names = cardtable.games()
    assert "kuhn_poker" in names
    assert names[:3] == ("caravan", "obsession", "austerity")


def test_load_game_gives_the_plugins_game() -> None:
    game = cardtable.load_game("kuhn_poker")
    assert game.name == "kuhn_poker" and tuple(game.seats) == ("P1", "P2")
    state = game.new_state(seed=5)
    assert state.to_move == "P1" and state.legal_actions()
    with pytest.raises(GameParamsError, match=r"^Unknown parameter 'ante' for kuhn_poker"):
        cardtable.load_game("kuhn_poker", ante=2)


def test_the_games_bots_and_the_generic_ones_are_offered() -> None:
    names = bot_names("kuhn_poker")
    assert names[:2] == ("always-bet", "equilibrium")
    assert "random" in names and "exec" in names
    assert description("kuhn_poker").title == "Kuhn poker"


@pytest.mark.parametrize("bots", [("random", "equilibrium"), ("always-bet", "random"),
                                  ("equilibrium:alpha=1/3", "always-bet")])
def test_bots_play_games_to_the_end(bots: tuple[str, str]) -> None:
    game = cardtable.load_game("kuhn_poker")
    for seed in range(20):
        state = game.new_state(seed)
        seats = {seat: make_seat(game, bot, seat, seed)
                 for seat, bot in zip(state.seats, bots, strict=True)}
        result = play_match(state, seats)
        assert sum(result.details["chips"]) == 0 and len(result.winners) == 1
