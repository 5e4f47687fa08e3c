"""The games' registry: one description per game, found through the entry-point group
``cardtable.games``, and the front door (``load_game``, ``games``) asking it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from typing import Any

import pytest

import cardtable
import cardtable.games.caravan.state
from cardtable.engine import game_registry
from cardtable.engine.description import GameDescription, Param, ranks_of
from cardtable.engine.errors import GameParamsError
from cardtable.engine.protocol import Result


def test_every_built_in_game_is_an_entry_point() -> None:
    points = {point.name: point.value for point in entry_points(group="cardtable.games")}
    for name in ("caravan", "obsession", "austerity"):
        assert points[name] == f"cardtable.games.{name}.description:{name.upper()}"
    assert cardtable.games()[:3] == ("caravan", "obsession", "austerity")


def test_games_stays_a_function_after_the_games_package_is_imported() -> None:
    assert callable(cardtable.games)
    assert not isinstance(cardtable.games, type(sys))
    assert "caravan" in cardtable.games()


def test_each_description_loads_its_own_game() -> None:
    for described in game_registry.descriptions():
        game = described.load()
        assert game.name == described.name
        low, high = described.seat_counts
        assert low <= len(game.seats) <= high


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(GameParamsError) as error:
        cardtable.load_game("chess")
    assert error.value.message == ("Unknown game 'chess' (allowed: "
                                   f"{', '.join(cardtable.games())}).")


class _Coin:
    name = "coin"
    seats = ("A", "B")


class _CoinDescription(GameDescription):
    name = "coin"
    title = "Coin"
    params = (Param("sides", "how many sides", kind="int", default=2, low=2, high=6),)

    def load(self, **params: Any) -> Any:
        return _Coin()


@pytest.fixture
def coin() -> Iterator[GameDescription]:
    described = _CoinDescription()
    game_registry.register(described)
    yield described
    game_registry.unregister("coin")


def test_a_registered_game_is_listed_and_loaded(coin: GameDescription) -> None:
    assert cardtable.games()[-1] == "coin"
    assert isinstance(cardtable.load_game("coin"), _Coin)
    assert game_registry.description("coin") is coin


def test_unregister_forgets_the_game(coin: GameDescription) -> None:
    game_registry.unregister("coin")
    assert "coin" not in cardtable.games()


def test_a_param_checks_a_value_with_one_message() -> None:
    sides = _CoinDescription.params[0]
    assert sides.check("4") == 4
    assert sides.check(6) == 6
    for bad in ("x", 7, 1, True, 2.0, ""):
        with pytest.raises(GameParamsError) as error:
            sides.check(bad)
        assert error.value.message == f"--sides must be an integer from 2 to 6 (got '{bad}')"


def test_a_choice_param_names_its_choices() -> None:
    deal = Param("deal", "", kind="choice", default="file", choices=("file", "shuffled"))
    assert deal.check("shuffled") == "shuffled"
    with pytest.raises(GameParamsError, match=r"^--deal must be file or shuffled \(got 'x'\)$"):
        deal.check("x")


def test_an_int_param_may_take_none() -> None:
    plies = Param("stuck_plies", "", kind="int", low=1, none=True)
    assert plies.check("none") is None
    assert plies.check(None) is None
    assert plies.check(3) == 3
    with pytest.raises(GameParamsError, match=r"integer >= 1 or none"):
        plies.check(0)


def test_ranks_share_the_best_place_of_a_tie() -> None:
    assert ranks_of([5, 5, 3]) == [0, 0, 2]
    assert ranks_of([1, 2, 3]) == [2, 1, 0]
    assert ranks_of([0, 0]) == [0, 0]


@pytest.mark.parametrize(("name", "result", "places"), [
    ("caravan", Result(("DEF",), "lanes"), [1, 0]),
    ("caravan", Result((), "stalemate"), [0, 0]),
    ("obsession", Result(("P2",), "out", {"placings": [2, 3]}), [2, 0, 1, 2]),
    ("obsession", Result(("P1",), "out", {"placings": [1, 4, 2, 3]}), [0, 2, 3, 1]),
    ("austerity", Result(("A", "C"), "points", {"points": [15, 9, 15]}), [0, 2, 0]),
    ("austerity", Result((), "stalemate", {}), [0, 0, 0]),
])
def test_places_rank_every_seat(name: str, result: Result, places: list[int]) -> None:
    described = game_registry.description(name)
    seats = {"caravan": ("ABC", "DEF"), "obsession": ("P1", "P2", "P3", "P4"),
             "austerity": ("A", "B", "C")}[name]
    assert described.places(result, seats) == places


def test_cardtable_imports_no_game_and_reads_no_entry_point() -> None:
    code = ("import sys, cardtable; "
            "print(sorted(m for m in sys.modules if m.startswith(('cardtable.', 'importlib.m'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['cardtable.version']"  # (one constant)


def test_every_form_of_import_reaches_the_games_package() -> None:
    code = ("import cardtable\n"
            "import cardtable.games.caravan.state as state\n"
            "from cardtable.games.obsession import rules\n"
            "import cardtable.games.austerity.game\n"
            "print(state.CaravanState.__name__, rules.MIN_PLAYERS, callable(cardtable.games),"
            " cardtable.games()[0])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["CaravanState", "2", "True", "caravan"]


def test_threads_asking_at_once_on_a_fresh_registry_all_see_every_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry points are read once; a thread asking while another reads them waits for
    every game (a web server's store threads ask at once on a fresh process)."""
    import threading

    from cardtable.engine import game_registry

    expected = game_registry.names()
    for attempt in range(20):
        monkeypatch.setattr(game_registry, "_registered", {})
        monkeypatch.setattr(game_registry, "_read", False)
        monkeypatch.setattr(game_registry, "_started", False)
        start = threading.Barrier(8)
        seen: list[tuple[str, ...]] = []

        def ask(start: threading.Barrier = start, seen: list[tuple[str, ...]] = seen) -> None:
            start.wait()
            seen.append(game_registry.names())

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert seen == [expected] * 8, attempt
