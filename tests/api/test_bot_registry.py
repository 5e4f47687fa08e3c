"""Bots by name, for any game: specs, options, refusals, and whole games between named bots."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.agents.registry import UnknownBot, bot_names, make_seat, parse_spec
from cardtable.engine import play_match


def test_each_game_lists_its_bots() -> None:
    assert {"random", "normal", "friendly"} <= set(bot_names("caravan"))
    assert {"obsessed", "random"} <= set(bot_names("obsession"))


def test_the_search_bots_come_after_each_games_own_bots() -> None:
    assert bot_names("caravan") == ("random", "normal", "friendly", "expert", "ismcts", "exec")
    assert bot_names("obsession") == ("obsessed", "random", "ismcts", "exec")
    assert bot_names("austerity") == ("shenzi", "banzai", "ed", "mcts", "ismcts", "random",
                                      "exec")
    # Austerity's own omniscient (mcts dealt the real deck) replaces the generic one.
    assert bot_names("austerity", calibration=True) == (
        "shenzi", "banzai", "ed", "mcts", "omniscient", "ismcts", "random", "exec")
    assert bot_names("obsession", calibration=True) == (
        "obsessed", "random", "ismcts", "omniscient", "exec")


def test_a_spec_has_a_name_and_options() -> None:
    spec = parse_spec("caravan", " Normal ")
    assert (spec.name, dict(spec.options)) == ("normal", {})
    assert str(spec) == "normal"


@pytest.mark.parametrize(("text", "message"), [
    ("bogus", "Unknown bot 'bogus' for caravan (bots: "),
    ("x" * 80, "Unknown bot '" + "x" * 40 + "...' for caravan"),
    ("normal:depth", "Invalid option 'depth' for the bot 'normal' (expected KEY=VALUE)."),
    ("normal:=3", "Invalid option '=3' for the bot 'normal'"),
])
def test_bad_specs_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(UnknownBot) as caught:
        parse_spec("caravan", text)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_options_a_bot_does_not_take_are_refused() -> None:
    game = cardtable.load_game("caravan")
    with pytest.raises(UnknownBot, match=r"takes no option .depth."):
        make_seat(game, "normal:depth=2", "ABC", 1)


@pytest.mark.parametrize(("name", "bots"), [
    ("caravan", ("normal", "random")),
    ("obsession", ("obsessed", "random", "obsessed")),
])
def test_named_bots_play_whole_games_the_same_way_twice(name: str, bots: tuple[str, ...]) -> None:
    game = cardtable.load_game(name, players=len(bots)) if name == "obsession" else \
        cardtable.load_game(name)
    results = []
    for _ in range(2):
        state = game.new_state(11)
        pairs = zip(state.seats, bots, strict=True)
        seats = {seat: make_seat(game, bot, seat, 11) for seat, bot in pairs}
        results.append((play_match(state, seats), state.to_position()))
    assert results[0] == results[1]


@pytest.mark.parametrize("game", ["caravan", "obsession", "austerity"])
def test_the_omniscient_bot_plays_only_where_calibration_bots_are_asked_for(game: str) -> None:
    from cardtable.agents.registry import show_state

    assert "omniscient" not in bot_names(game)
    assert "omniscient" in bot_names(game, calibration=True)
    with pytest.raises(UnknownBot, match=r"sees every card: it plays only in tournaments"):
        parse_spec(game, "omniscient:iters=20")
    loaded = cardtable.load_game(game)
    state = loaded.new_state(5)
    other = "shenzi" if game == "austerity" else "random"
    seats = {seat: make_seat(loaded, "omniscient:iters=20" if index == 0 else other, seat, 5,
                             calibration=True)
             for index, seat in enumerate(state.seats)}
    show_state(seats, state)
    assert play_match(state, seats).reason
    with pytest.raises(UnknownBot, match=r"omniscient.* option '?depth"):
        make_seat(loaded, "omniscient:depth=2", state.seats[0], 5, calibration=True)


def test_the_shells_refuse_the_omniscient_bot_in_one_line() -> None:
    import subprocess
    import sys
    from pathlib import Path

    scripts = Path(sys.executable).parent
    for command in ([scripts / "caravan", "--bvb", "-b", "omniscient"],
                    [scripts / "obsession", "--bot", "omniscient", "--players", "2"]):
        done = subprocess.run(command, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=60, check=False)
        assert done.returncode == 1
        assert done.stderr.strip().endswith(
            "The bot 'omniscient' sees every card: it plays only in tournaments and benchmarks.")
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
