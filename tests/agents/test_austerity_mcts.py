"""Austerity's ``mcts``: seeded, legal, and a player program at the hub (real processes)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import cardtable
from cardtable.agents.registry import UnknownBot, make_seat, show_state
from cardtable.engine.match import play_match
from cardtable.games.austerity import mcts
from cardtable.games.austerity.deck import load_deck
from cardtable.games.austerity.mcts import MctsStrategy, SeenCards, parse_spec
from cardtable.games.austerity.rules import Card, Game, Table
from cardtable.games.austerity.state import legal_actions_on

CARDTABLE = [sys.executable, "-c",
             "import sys; from cardtable.cli.main import main; sys.exit(main())"]
"""The ``cardtable`` command, run by this interpreter."""

DECK = Path(cardtable.__file__).parent / "games" / "austerity" / "decks" / "medium.deck"


def test_same_seed_same_actions_and_every_action_legal() -> None:
    game = cardtable.load_game("austerity", players=2)
    state = game.new_state()
    search_one = MctsStrategy(iterations=60, seed=3)
    search_two = MctsStrategy(iterations=60, seed=3)
    while state.result is not None or state.to_move == "A":
        if state.result is not None:
            break
        observation = state.observation("A")
        table = observation.table()
        action = search_one(table, 0)
        assert action == search_two(table, 0)
        assert action in legal_actions_on(table, 0)
        assert action in state.legal_actions()
        state.apply(action)
        if state.to_move == "B":
            state.apply(state.legal_actions()[-1])


def _opened(cards: int) -> Game:
    game = Game(load_deck(str(DECK))[:cards], 7, 15, 2)
    game.opening()
    return game


def test_seen_cards_keep_the_bought_ones_and_know_when_the_deck_is_out() -> None:
    game = _opened(9)
    seen = SeenCards()
    seen.see(game.table)
    first = list(game.table.market)
    assert seen.draws(game.table) == first
    bought = first[0]
    game.table.wilds[0] = 99
    game.play((2, 0, game.table.payment(0, bought)))  # turns up the ninth and last card
    seen.see(game.table)
    assert len(game.table.market) == 8
    assert sorted(seen.draws(game.table), key=repr) == sorted([*first, game.table.market[-1]],
                                                              key=repr)
    game.table.wilds[1] = 99
    game.play((2, 0, game.table.payment(1, game.table.market[0])))  # the deck is spent
    seen.see(game.table)
    assert len(game.table.market) == 7
    assert seen.draws(game.table) == []


def test_seen_cards_count_copies_seen_at_once() -> None:
    card = Card(0, 1, (1, 0, 0, 0))
    other = Card(1, 2, (0, 1, 0, 0))
    seen = SeenCards()
    for market in ([card] * 8, [card, other] * 4, [other] * 8):
        seen.see(Table.showing([7] * 4, [[0] * 4] * 2, [0, 0], [[0] * 4] * 2, [0, 0], market))
    assert sorted(seen.draws(Table.showing([7] * 4, [[0] * 4] * 2, [0, 0], [[0] * 4] * 2,
                                           [0, 0], [card] * 8)), key=repr) == \
        sorted([card] * 8 + [other] * 8, key=repr)


@pytest.mark.parametrize("cards, draws", [(20, True), (7, False)])
def test_the_search_turns_up_cards_only_while_the_deck_lasts(
        monkeypatch: pytest.MonkeyPatch, cards: int, draws: bool) -> None:
    decks: list[list[Card]] = []
    game_on = mcts.game_on

    def watched(table: Table, current: int, deck: list[Card], target: int) -> Game:
        decks.append(list(deck))
        return game_on(table, current, deck, target)

    monkeypatch.setattr(mcts, "game_on", watched)
    game = _opened(cards)
    MctsStrategy(iterations=30, seed=1)(game.table, 0)
    assert len(decks) == 30
    assert all(bool(deck) == draws for deck in decks)
    market = set(game.table.market)
    assert all(card in market for deck in decks for card in deck)


def test_omniscient_is_dealt_the_real_deck_and_only_for_calibration(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardtable.load_game("austerity", players=2, deal="shuffled")
    with pytest.raises(UnknownBot):
        make_seat(game, "omniscient", "A", 1)
    decks: list[tuple[list[Card], list[Card]]] = []
    game_on = mcts.game_on
    state = game.new_state(5)

    def watched(table: Table, current: int, deck: list[Card], target: int) -> Game:
        rest = list(state.game.deck[state.game.next_card:])
        decks.append((list(deck), rest))
        return game_on(table, current, deck, target)

    monkeypatch.setattr(mcts, "game_on", watched)
    seats = {"A": make_seat(game, "omniscient:iters=20", "A", 1, calibration=True),
             "B": make_seat(game, "shenzi", "B", 1)}
    with pytest.raises(RuntimeError, match="shown the game's state"):
        seats["A"].choose(state.observation("A"))
    show_state(seats, state)
    assert play_match(state, seats).winners
    assert decks and all(deck == rest for deck, rest in decks)
    assert any(deck for deck, _ in decks)


def test_legal_actions_match_the_state() -> None:
    game = cardtable.load_game("austerity", players=3)
    state = game.new_state()
    for _ in range(30):
        if state.result is not None:
            break
        seat = state.seat_number(state.to_move)
        mine = legal_actions_on(state.observation(seat).table(), seat)
        assert sorted(mine) == sorted(state.legal_actions())
        state.apply(mine[0])


def test_in_process_seats_play_whole_games() -> None:
    game = cardtable.load_game("austerity", players=3)
    state = game.new_state()
    seats = {"A": make_seat(game, "mcts:iters=40", "A", 1), "B": make_seat(game, "ed", "B", 1),
             "C": make_seat(game, "shenzi", "C", 1)}
    result = play_match(state, seats)
    assert result.winners


def test_bad_specs_are_refused() -> None:
    with pytest.raises(ValueError):
        parse_spec("mcts:iters=0")
    with pytest.raises(ValueError):
        parse_spec("mcts:depth=2")
    with pytest.raises(UnknownBot):
        make_seat(cardtable.load_game("austerity"), "mcts:iters=x", "A", 0)


def _program(tmp_path: Path, spec: str) -> Path:
    path = tmp_path / "mcts-player"
    path.write_text(f"#!/bin/sh\nexec {CARDTABLE[0]} -c '{CARDTABLE[2]}' austerity player "
                    f"--strategy {spec} \"$@\"\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_mcts_player_speaks_the_protocol_at_the_hub(tmp_path: Path) -> None:
    player = _program(tmp_path, "mcts:iters=50")
    shenzi = Path(sys.executable).parent / "shenzi"
    done = subprocess.run(
        [*CARDTABLE, "austerity", "hub", "--timeout", "60", "--", "7",
         "15", str(DECK), str(player), str(shenzi) if shenzi.exists() else str(player)],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300,
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    assert "Winner(s) " in done.stdout
    assert "Player A purchased" in done.stdout or "Player A took" in done.stdout


@pytest.mark.parametrize("args, status, message", [
    (["--strategy", "mcts:iters=0", "2", "0"], 1, "mcts options must be positive"),
    (["--strategy", "mcts:iters=100000000000000000000000", "2", "0"], 1,
     "iters from 1 to 1000000"),
    (["--strategy", "mcts:time=100000", "2", "0"], 1, "time > 0 and <= 60"),
    (["--strategy", "mcts", "2", "5"], 3, "Invalid player ID"),
    (["--strategy", "mcts", "1", "0"], 2, "Invalid player count"),
    (["2", "0"], 1, "Usage: cardtable austerity player --strategy NAME pcount myid"),
])
def test_player_arguments(args: list[str], status: int, message: str) -> None:
    done = subprocess.run([*CARDTABLE, "austerity", "player", *args],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == status
    assert message in done.stderr


def test_mcts_player_ends_on_a_bad_message() -> None:
    done = subprocess.run([*CARDTABLE, "austerity", "player",
                           "--strategy", "mcts", "2", "0"], input="hello\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 6
    assert "Communication Error" in done.stderr
