"""Austerity's bots by name: shenzi, banzai and ed as in-process seats of the engine's match loop,
playing whole games that end exactly as the hub's games with the player programs."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from austerity_support import DECKS, PLAYERS, hub

from cardtable import load_game
from cardtable.agents.registry import UnknownBot, bot_names, make_seat
from cardtable.engine import IllegalAction, MatchListener, play_match
from cardtable.games.austerity.codec import action_line, newcard_line, winners_text
from cardtable.games.austerity.rules import PURCHASE, TAKE, WILD_ACTION, Card
from cardtable.games.austerity.state import AusterityState
from cardtable.games.austerity.strategies import STRATEGIES


class Transcript(MatchListener):
    """The lines the hub prints for the game, from the match loop's events."""

    def __init__(self, state: AusterityState) -> None:
        self.lines = [newcard_line(card) for card in state.table.market]

    def on_action(self, state: Any, seat: str, action: Any, event: Any) -> None:
        self.lines.append(action_line(state.seat_number(seat), action))
        if event is not None:
            self.lines.append(newcard_line(event))

    def on_end(self, state: Any, result: Any) -> None:
        winners = [state.seat_number(seat) for seat in result.winners]
        self.lines.append(f"Winner(s) {winners_text(winners)}\n")


def play_in_process(deck: str, tokens: int, points: int, lineup: list[str]) -> tuple[bytes, Any]:
    game = load_game("austerity", deck=str(DECKS / deck), tokens=tokens, points=points,
                     players=len(lineup))
    state = game.new_state(0)
    seats = {seat: make_seat(game, name, seat, 0)
             for seat, name in zip(game.seats, lineup, strict=True)}
    transcript = Transcript(state)
    result = play_match(state, seats, (transcript,))
    return "".join(transcript.lines).encode(), result


def test_the_three_strategies_are_bots_of_austerity() -> None:
    assert {"shenzi", "banzai", "ed"} <= set(bot_names("austerity"))
    game = load_game("austerity", players=2)
    with pytest.raises(UnknownBot, match="takes no option 'depth'"):
        make_seat(game, "ed:depth=3", "A", 0)


GAMES = [(deck, tokens, points, lineup)
         for deck in ("small.deck", "medium.deck", "cheap.deck", "large.deck")
         for tokens, points in ((3, 8), (6, 15))
         for lineup in (["shenzi", "banzai", "ed"], ["ed", "shenzi"],
                        ["banzai", "ed", "ed", "shenzi", "banzai"])]


def test_match_loop_games_between_the_bots_end_as_the_hubs_games() -> None:
    def both(game: tuple[str, int, int, list[str]]) -> tuple[bytes, bytes, Any]:
        deck, tokens, points, lineup = game
        real = hub(str(tokens), str(points), DECKS / deck, *(PLAYERS[p] for p in lineup))
        assert real.returncode == 0, (game, real.stderr)
        transcript, result = play_in_process(deck, tokens, points, lineup)
        return real.stdout, transcript, result

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(both, GAMES))
    for game, (real, in_process, result) in zip(GAMES, outcomes, strict=True):
        assert in_process == real, game
        winners = real.splitlines()[-1].decode().removeprefix("Winner(s) ").split(",")
        assert list(result.winners) == winners, game
        assert result.reason in ("points", "market_empty")
        assert result.details["turns"] == sum(
            1 for line in real.splitlines() if line.startswith(b"Player "))


def test_a_bot_chooses_from_its_observation_what_the_strategy_chooses_on_the_table() -> None:
    game = load_game("austerity", deck=str(DECKS / "medium.deck"), tokens=4, points=12,
                     players=3)
    state = game.new_state(0)
    seats = {seat: make_seat(game, name, seat, 0)
             for seat, name in zip(game.seats, ("ed", "banzai", "shenzi"), strict=True)}
    names = dict(zip(game.seats, ("ed", "banzai", "shenzi"), strict=True))
    while state.to_move is not None:
        seat = state.to_move
        player = state.seat_number(seat)
        observation = state.observation(seat)
        chosen = seats[seat].choose(observation)
        assert chosen == STRATEGIES[names[seat]](state.table, player)
        assert chosen in state.legal_actions()
        state.apply(chosen)


def test_a_refused_bot_move_is_raised_not_retried() -> None:
    game = load_game("austerity", players=2)
    seat = make_seat(game, "shenzi", "A", 0)
    with pytest.raises(IllegalAction):
        seat.rejected(IllegalAction("no"))


# --- the state as the players' view ---------------------------------------------------------

def test_watching_state_follows_the_broadcasts_blindly() -> None:
    view = AusterityState.watching(3)
    assert view.table.piles == [0, 0, 0, 0] and view.table.market == []
    view.fill_piles(1)
    card = Card(0, 2, (1, 0, 0, 0))
    assert view.turn_up(card)
    # The hub is trusted: a take from empty piles is recorded, values go negative.
    assert view.record(1, (TAKE, 0, (1, 1, 1, 0)))
    assert view.record(2, (TAKE, 0, (1, 1, 1, 0)))
    assert view.table.piles == [-1, -1, -1, 1]
    assert view.to_move == "A"
    assert view.record(0, WILD_ACTION)
    assert view.record(1, (PURCHASE, 0, (1, 0, 0, 0, 0)))
    assert view.table.points == [0, 2, 0] and view.table.discounts[1] == [1, 0, 0, 0]
    assert view.table.market == []
    assert view.to_move == "C" and view.turns == 4


def test_watching_state_refuses_what_it_cannot_hold() -> None:
    view = AusterityState.watching(2)
    for value in range(8):
        assert view.turn_up(Card(1, value, (0, 0, 0, 0)))
    assert not view.turn_up(Card(1, 9, (0, 0, 0, 0)))
    assert len(view.table.market) == 8
    assert not view.record(0, (PURCHASE, 8, (0, 0, 0, 0, 0)))
    assert view.to_move == "A" and view.turns == 0


def test_observation_table_shows_what_the_observation_shows() -> None:
    game = load_game("austerity", deck=str(DECKS / "medium.deck"), players=4)
    state = game.new_state(0)
    for _ in range(9):
        state.apply(state.legal_actions()[-2])
    observation = state.observation("C")
    table = observation.table()
    live = state.table
    assert (table.piles, table.tokens, table.wilds, table.discounts, table.points,
            table.market, table.count) == (live.piles, live.tokens, live.wilds,
                                           live.discounts, live.points, live.market, 4)
    table.tokens[0][0] += 5  # a copy: the state is untouched
    assert state.observation("C") == observation
    with pytest.raises(AttributeError):
        observation.seat = 1  # type: ignore[misc]
