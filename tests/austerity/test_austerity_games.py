"""Whole games: golden transcripts, endings, and the simulator against the real hub."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from austerity_support import (
    CARDTABLE,
    DECKS,
    GOLDEN,
    PLAYERS,
    hub,
    make_fake,
    run,
    write_deck,
)

from cardtable.games.austerity.deck import load_deck
from cardtable.games.austerity.simulate import play_game

# Set AUSTERITY_UPDATE_GOLDEN=1 to rewrite the transcripts after a deliberate change; the
# tests fail on any difference otherwise.
UPDATE = os.environ.get("AUSTERITY_UPDATE_GOLDEN") == "1"

GOLDEN_GAMES = {
    "two-shenzi": ("medium.deck", 4, 12, ["shenzi", "shenzi"]),
    "three-banzai": ("large.deck", 5, 15, ["banzai", "banzai", "banzai"]),
    "four-ed": ("medium.deck", 3, 10, ["ed", "ed", "ed", "ed"]),
    "mixed-three": ("cheap.deck", 4, 8, ["shenzi", "banzai", "ed"]),
    "mixed-five": ("large.deck", 6, 20, ["ed", "banzai", "shenzi", "banzai", "ed"]),
    "small-deck": ("small.deck", 2, 30, ["banzai", "shenzi", "ed"]),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_transcript(name: str) -> None:
    deck, tokens, points, lineup = GOLDEN_GAMES[name]
    result = hub(str(tokens), str(points), DECKS / deck, *(PLAYERS[p] for p in lineup))
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    golden = GOLDEN / f"{name}.out"
    if UPDATE:
        golden.write_bytes(result.stdout)
    assert result.stdout == golden.read_bytes()


def test_spec_example_game(tmp_path: Path) -> None:
    deck = write_deck(tmp_path, ["B:1:1,0,0,0", "Y:0:0,3,0,2"])
    result = hub("2", "1", deck, PLAYERS["shenzi"], PLAYERS["shenzi"])
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout == (
        b"New card = Bonus B, worth 1, costs 1,0,0,0\n"
        b"New card = Bonus Y, worth 0, costs 0,3,0,2\n"
        b"Player A drew 1,1,1,0\n"
        b"Player B drew 1,1,1,0\n"
        b"Player A purchased 0 using 1,0,0,0,0\n"
        b"Player B took a wild\n"
        b"Winner(s) A\n")


def test_target_reached_early_in_a_round_but_overtaken_later(tmp_path: Path) -> None:
    deck = write_deck(tmp_path, ["R:2:0,0,0,1", "P:1:1,0,0,0", "Y:0:9,9,9,9"])
    a = make_fake(tmp_path, "a", replies=["take1,1,1,0\n", "purchase1:1,0,0,0,0\n"])
    b = make_fake(tmp_path, "b", replies=["take0,1,1,1\n", "purchase0:0,0,0,1,0\n"])
    result = hub("5", "1", deck, a, b)
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout.decode().splitlines()[-3:] == [
        "Player A purchased 1 using 1,0,0,0,0", "Player B purchased 0 using 0,0,0,1,0",
        "Winner(s) B"]


def test_points_zero_plays_one_full_round(tmp_path: Path) -> None:
    deck = write_deck(tmp_path, ["Y:1:9,9,9,9"])
    result = hub("5", "0", deck, *([PLAYERS["shenzi"]] * 3))
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout.decode().splitlines() == [
        "New card = Bonus Y, worth 1, costs 9,9,9,9",
        "Player A drew 1,1,1,0", "Player B drew 1,1,1,0", "Player C drew 1,1,1,0",
        "Winner(s) A,B,C"]


def test_emptied_market_ends_the_game_mid_round_with_a_tie(tmp_path: Path) -> None:
    deck = write_deck(tmp_path, ["P:1:0,0,0,0", "B:1:0,0,0,0"])
    result = hub("5", "100", deck, *([PLAYERS["shenzi"]] * 3))
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout.decode().splitlines() == [
        "New card = Bonus P, worth 1, costs 0,0,0,0",
        "New card = Bonus B, worth 1, costs 0,0,0,0",
        "Player A purchased 1 using 0,0,0,0,0", "Player B purchased 0 using 0,0,0,0,0",
        "Winner(s) A,B"]


def test_market_refills_from_the_deck_after_eight_cards(tmp_path: Path) -> None:
    cards = [f"P:{i}:0,0,0,0" for i in range(10)]
    deck = write_deck(tmp_path, cards)
    result = hub("1", "100", deck, PLAYERS["shenzi"], PLAYERS["shenzi"])
    out = result.stdout.decode().splitlines()
    assert out[:8] == [f"New card = Bonus P, worth {i}, costs 0,0,0,0" for i in range(8)]
    # shenzi takes the most valuable card (index 7); card 8 then joins at the end.
    assert out[8:10] == ["Player A purchased 7 using 0,0,0,0,0",
                         "New card = Bonus P, worth 8, costs 0,0,0,0"]
    assert out[-1] == "Winner(s) A"


# --- the simulator equals the hub -----------------------------------------------------------

GRID_DECKS = ["small.deck", "medium.deck", "cheap.deck"]
GRID_TOKENS = [2, 6]
GRID_POINTS = [3, 12]
GRID_LINEUPS = [["shenzi", "banzai"], ["banzai", "ed", "shenzi"], ["ed", "ed", "banzai", "shenzi"]]


def grid() -> list[tuple[str, int, int, list[str]]]:
    return [(deck, tokens, points, lineup) for deck in GRID_DECKS for tokens in GRID_TOKENS
            for points in GRID_POINTS for lineup in GRID_LINEUPS]


def test_simulate_transcripts_equal_the_hub_over_a_grid() -> None:
    games = grid()

    def both(game: tuple[str, int, int, list[str]]) -> tuple[bytes, bytes, bytes]:
        deck, tokens, points, lineup = game
        path = DECKS / deck
        result = hub(str(tokens), str(points), path, *(PLAYERS[p] for p in lineup))
        assert result.returncode == 0, (game, result.stderr)
        simulated = run([CARDTABLE, "austerity", "simulate", "--deck", str(path),
                         "--tokens", str(tokens), "--points", str(points),
                         "--players", ",".join(lineup), "--seating", "fixed", "--transcript"])
        assert simulated.returncode == 0, (game, simulated.stderr)
        lines: list[str] = []
        play_game(load_deck(str(path)), tokens, points, lineup, transcript=lines, check=True)
        return result.stdout, simulated.stdout, "".join(lines).encode()

    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(both, games))
    for game, (real, cli, in_process) in zip(games, outcomes, strict=True):
        assert cli == real, game
        assert in_process == real, game
        assert real.splitlines()[-1].startswith(b"Winner(s) ")


def test_grid_games_all_finish_in_the_simulator() -> None:
    # The grid is only meaningful if the hub games end; the simulator proves they do.
    for deck, tokens, points, lineup in grid():
        result = play_game(load_deck(str(DECKS / deck)), tokens, points, lineup, 10_000)
        assert result.finished
