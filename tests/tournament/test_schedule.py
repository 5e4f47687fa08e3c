"""The schedule: pairs of the same deal with seats swapped, rotations, gauntlets, determinism."""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable.engine.protocol import Result
from cardtable.tournament.play import play, ranks
from cardtable.tournament.schedule import Config, Entrant, count, deal_seed, schedule, tables


def config(labels: list[str], players: int = 2, gauntlet: str | None = None,
           game: str = "caravan", params: dict[str, object] | None = None) -> Config:
    return Config(game, params or {}, players,
                  tuple(Entrant(label, label.partition("#")[0]) for label in labels), gauntlet, 7)


def test_two_player_deals_are_played_in_pairs_with_seats_swapped() -> None:
    tasks = list(schedule(config(["random", "normal", "friendly"]), games=6))
    assert len(tasks) == count(config(["random", "normal", "friendly"]), 6) == 3 * 6
    by_deal_and_table = Counter((task.deal, task.table) for task in tasks)
    assert set(by_deal_and_table.values()) == {2}
    for first, second in zip(tasks[::2], tasks[1::2], strict=True):
        assert (first.deal, first.table, first.seed) == (second.deal, second.table, second.seed)
        assert second.seats == first.seats[::-1]
    assert {task.seats for task in tasks} == {
        ("random", "normal"), ("normal", "random"), ("random", "friendly"),
        ("friendly", "random"), ("normal", "friendly"), ("friendly", "normal")}
    assert [task.index for task in tasks] == list(range(len(tasks)))


def test_games_are_rounded_up_to_whole_pairs_and_rotations() -> None:
    assert len(list(schedule(config(["a", "b"]), games=3))) == 4
    four = config(["a", "b", "c", "d"], players=4)
    assert len(list(schedule(four, games=5))) == 8


def test_multi_player_deals_are_played_in_every_rotation() -> None:
    tasks = list(schedule(config(["a", "b", "c", "d"], players=4), games=8))
    for deal in (0, 1):
        rotations = [task for task in tasks if task.deal == deal]
        assert [task.seats for task in rotations] == [
            ("a", "b", "c", "d"), ("b", "c", "d", "a"), ("c", "d", "a", "b"), ("d", "a", "b", "c")]
        assert len({task.seed for task in rotations}) == 1
    # Every entrant sits in every chair once per deal.
    for chair in range(4):
        assert Counter(task.seats[chair] for task in tasks) == Counter("abcd" * 2)


def test_more_entrants_than_chairs_meet_at_every_combination() -> None:
    assert tables(config(["a", "b", "c", "d"], players=3)) == [
        ("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("b", "c", "d")]


def test_a_gauntlet_plays_only_its_seats_games() -> None:
    gauntlet = config(["x", "a", "b", "c"], gauntlet="x")
    assert tables(gauntlet) == [("x", "a"), ("x", "b"), ("x", "c")]
    assert all("x" in task.seats for task in schedule(gauntlet, games=4))


def test_deal_seeds_depend_on_the_tournament_seed_and_the_deal_only() -> None:
    assert deal_seed(7, 3) == deal_seed(7, 3)
    assert len({deal_seed(7, deal) for deal in range(1000)}) == 1000
    assert deal_seed(7, 3) != deal_seed(8, 3)
    assert 0 <= deal_seed(7, 3) < 2 ** 63
    first = [task.seed for task in schedule(config(["a", "b", "c"]), 4) if task.table == 0]
    last = [task.seed for task in schedule(config(["a", "b", "c"]), 4) if task.table == 2]
    assert first == last  # every table plays the same deals


def test_a_game_is_the_same_game_whenever_it_is_played() -> None:
    setup = config(["random", "normal"])
    task = next(iter(schedule(setup, 2)))
    one, two = play(setup, task), play(setup, task)
    del one["time"], two["time"]
    assert one == two
    assert one["seats"] == ["random", "normal"]
    assert one["moves"] > 0


def test_swapped_games_share_the_deal() -> None:
    setup = config(["normal", "normal#2"])
    first, second = list(schedule(setup, 2))
    a, b = play(setup, first), play(setup, second)
    # Two copies of one deterministic bot on one deal: the same game, seats swapped.
    assert a["moves"] == b["moves"]
    assert a["result"]["ranks"] == b["result"]["ranks"]
    assert a["result"]["winners"] != b["result"]["winners"] or not a["result"]["winners"]


def test_ranks_by_game() -> None:
    chairs = ("P1", "P2", "P3", "P4")
    out = Result(("P3",), "out", {"placings": [3, 1, 4, 2]})
    assert ranks("obsession", out, chairs) == [1, 3, 0, 2]
    stalemate = Result((), "cap", {"placings": [2]})
    assert ranks("obsession", stalemate, chairs) == [1, 0, 1, 1]
    # Competition ranks, as every shell ranks (description.places): B is third, not second.
    points = Result(("A", "C"), "points", {"points": [15, 9, 15]})
    assert ranks("austerity", points, ("A", "B", "C")) == [0, 2, 0]
    assert ranks("caravan", Result(("DEF",), "lanes"), ("ABC", "DEF")) == [1, 0]
    assert ranks("caravan", Result((), "draw"), ("ABC", "DEF")) == [0, 0]


def test_a_game_stopped_by_the_length_cap_is_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardtable.tournament.play as play_module

    monkeypatch.setattr(play_module, "MOVE_CAP", 5)
    setup = config(["random", "normal"])
    line = play(setup, next(iter(schedule(setup, 2))))
    assert line["moves"] == 5
    assert line["result"] == {"winners": [], "reason": "stalemate", "ranks": [0, 0]}
    assert line["details"] == {"cause": "cap"}
