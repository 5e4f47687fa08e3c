"""Austerity tournaments deal the deck shuffled from each deal's seed (``--deal file`` keeps the
deck file's order): every game of one deal, pair or rotation, has the same deck order."""

from __future__ import annotations

import pytest

from cardtable.tournament.errors import TournamentError
from cardtable.tournament.play import load, play
from cardtable.tournament.schedule import Config, Entrant, schedule
from cardtable.tournament.setup import game_params


def config(labels: list[str], players: int = 2, deal: str = "shuffled") -> Config:
    params = game_params("austerity", {"players": str(players), "deal": deal},
                         entrants=len(labels))
    return Config("austerity", params, players,
                  tuple(Entrant(label, label.partition("#")[0]) for label in labels), None, 7)


def deck_of(setup: Config, seed: int) -> list[str]:
    """The deck a game of the tournament is dealt from the seed of its deal (as ``play``
    deals it)."""
    state = load(setup.game, dict(setup.params)).new_state(seed)
    return [card.text() for card in state.setup[0]]


def test_austerity_tournaments_deal_shuffled_unless_told_otherwise() -> None:
    assert game_params("austerity", entrants=2)["deal"] == "shuffled"
    assert game_params("austerity", {"deal": "file"}, entrants=2)["deal"] == "file"
    assert "deal" not in game_params("obsession", entrants=2)


def test_a_bad_deal_is_refused_by_the_parameter_s_message() -> None:
    with pytest.raises(TournamentError, match=r"^--deal must be file or shuffled \(got "
                       r"'sorted'\)$"):
        game_params("austerity", {"deal": "sorted"}, entrants=2)
    with pytest.raises(TournamentError, match=r"^--deal is an Austerity option, not one of "
                       r"caravan\.$"):
        game_params("caravan", {"deal": "file"})


@pytest.mark.parametrize("players", [2, 4])
def test_every_game_of_a_deal_has_the_same_deck_and_deals_differ(players: int) -> None:
    setup = config(["shenzi", "banzai", "ed", "random"], players=players)
    decks: dict[int, set[tuple[str, ...]]] = {}
    for task in schedule(setup, games=3 * players):
        decks.setdefault(task.deal, set()).add(tuple(deck_of(setup, task.seed)))
    assert len(decks) == 3
    assert all(len(orders) == 1 for orders in decks.values())
    assert len({next(iter(orders)) for orders in decks.values()}) == 3


def test_the_file_deal_is_one_deck_order_for_every_deal() -> None:
    setup = config(["shenzi", "ed"], deal="file")
    file_order = [card.text() for card in load("austerity", {"players": 2}).deck]
    assert {tuple(deck_of(setup, task.seed)) for task in schedule(setup, 6)} == {
        tuple(file_order)}


def test_swapped_games_of_a_shuffled_deal_are_the_same_game() -> None:
    setup = config(["shenzi", "shenzi#2"])
    lines = [play(setup, task) for task in schedule(setup, games=6)]
    for first, second in zip(lines[::2], lines[1::2], strict=True):
        assert first["deal"] == second["deal"]
        # One deterministic strategy in both chairs: the same game, whoever sits where.
        assert first["details"] == second["details"]
        assert first["moves"] == second["moves"]
    assert len({str(line["details"]) for line in lines}) > 1  # the deals are different games
