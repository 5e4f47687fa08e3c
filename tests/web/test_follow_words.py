"""The moves in words that the pages show (the last move above the board, the history panel,
the replay): each game, each kind of move, "your" and "You" for the viewer only, and nothing
said or marked that the view does not already show."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import cardtable
from cardtable.engine.game_registry import description
from cardtable.games.austerity.state import AusterityState
from cardtable.games.austerity.web_view import Move, move_words, replay_views
from cardtable.games.caravan import web_view as caravan
from cardtable.games.obsession import web_view as obsession
from cardtable.web import serialize

Json = dict[str, Any]


def card(text: str, owner: str = "ABC") -> Json:
    return {"card": text, "id": f"{owner}/{text}@1"}


def played(game: str, params: dict[str, Any], seed: int, plies: int = 400) -> Iterator[Any]:
    """The states of a game dealt as a web table deals it, played at random."""
    described = description(game)
    loaded = cardtable.load_game(game, **params)
    seats = len(loaded.new_state(seed).seats)
    state = described.table_state(loaded, seed, [True] * seats)
    choose = random.Random(seed)
    for _ in range(plies):
        yield state
        if state.result is not None:
            return
        state.apply(choose.choice(state.legal_actions()))


def ids_in(value: Any) -> set[str]:
    """Every card id a view shows outside its ``last_move``."""
    if isinstance(value, dict):
        found = {value["id"]} if set(value) == {"card", "id"} else set()
        for key, item in value.items():
            if key != "last_move":
                found |= ids_in(item)
        return found
    if isinstance(value, list):
        return set().union(*map(ids_in, value)) if value else set()
    return set()


# --------------------------------------------------------------------------- Caravan


@pytest.mark.parametrize(("entry", "viewer", "words"), [
    ({"seat": "ABC", "move": "P2A", "cards": [card("7H")]}, "ABC",
     "You played 7♥ on your caravan A"),
    ({"seat": "ABC", "move": "P2A", "cards": [card("7H")]}, "DEF",
     "ABC played 7♥ on caravan A"),
    ({"seat": "ABC", "move": "P2A", "cards": [card("7H")]}, None,
     "ABC played 7♥ on caravan A"),
    ({"seat": "DEF", "move": "P3A2", "cards": [card("KH", "DEF"), card("9C")]}, "ABC",
     "DEF played K♥ on your 9♣ in A"),
    ({"seat": "DEF", "move": "P3A2", "cards": [card("KH", "DEF"), card("9C")]}, None,
     "DEF played K♥ on 9♣ in A"),
    ({"seat": "DEF", "move": "P3D1", "cards": [card("JO", "DEF"), card("10S", "DEF")]}, "DEF",
     "You played a joker on your 10♠ in D"),
    ({"seat": "DEF", "move": "D4", "cards": [card("QS", "DEF")]}, "ABC",
     "DEF discarded Q♠"),
    ({"seat": "ABC", "move": "CB", "cards": [card("3D"), card("7S")]}, "ABC",
     "You cleared your caravan B (2 cards)"),
    ({"seat": "ABC", "move": "CB", "cards": [card("3D")]}, "DEF",
     "ABC cleared caravan B (1 card)"),
    ({"seat": "ABC", "move": "CB2", "cards": [card("3D"), card("5C")]}, None,
     "ABC cleared caravan B and started it again with 5♣"),
    ({"seat": "DEF", "move": "P1E", "cards": [None]}, "ABC",
     "DEF played a face-down card on caravan E"),
    ({"seat": "DEF", "move": None, "cards": [card("KS", "DEF")]}, None,
     "DEF shows a hand without enough numerals and draws again"),
    ({"seat": "DEF", "move": None, "cards": [card("KS", "DEF")]}, "DEF",
     "You show a hand without enough numerals and draw again"),
])
def test_caravan_moves_in_words(entry: Json, viewer: str | None, words: str) -> None:
    assert caravan.move_words(entry, viewer) == words


def test_caravan_last_move_marks_the_cards_left_on_the_table() -> None:
    face = {"seat": "DEF", "move": "P3A2", "cards": [card("KH", "DEF"), card("9C")]}
    assert caravan.last_move([face], "ABC") == {
        "seat": "DEF", "text": "DEF played K♥ on your 9♣ in A",
        "cards": ["DEF/KH@1", "ABC/9C@1"]}
    cleared = {"seat": "ABC", "move": "CB", "cards": [card("3D"), card("7S")]}
    assert caravan.last_move([face, cleared], None)["cards"] == []  # type: ignore[index]
    restarted = {"seat": "ABC", "move": "CB2", "cards": [card("3D"), card("5C")]}
    assert caravan.last_move([restarted], None)["cards"] == ["ABC/5C@1"]  # type: ignore[index]
    assert caravan.last_move([], "ABC") is None


@pytest.mark.parametrize("params", [{"rules": "nv"}, {"rules": "foxon"}])
def test_caravan_views_say_each_move_and_mark_only_what_they_show(params: Json) -> None:
    yours = 0
    for state in played("caravan", params, seed=11):
        views = {seat: serialize.seat_view("caravan", state, seat) for seat in state.seats}
        views[None] = serialize.public_view("caravan", state)
        for viewer, view in views.items():
            assert len(view["history_text"]) == len(view["history"])
            assert view["history_text"] == [caravan.move_words(entry, viewer)
                                            for entry in view["history"]]
            last = view["last_move"]
            if not view["history"]:
                assert last is None
                continue
            assert last["text"] == view["history_text"][-1]
            assert set(last["cards"]) <= ids_in(view)  # nothing the view does not show
            if viewer is None:
                assert not any("your" in text or "You" in text
                               for text in view["history_text"])
            else:
                yours += sum("your" in text for text in view["history_text"])
    assert yours > 0


# --------------------------------------------------------------------------- Obsession


@pytest.mark.parametrize(("line", "viewer", "words"), [
    ({"t": "play", "n": 4, "seat": 2, "from": "hand", "cards": ["9C", "9S"], "effects": [],
      "drew": 2}, None, "P2 played 9♣ 9♠ from their hand"),
    ({"t": "play", "n": 4, "seat": 2, "from": "hand", "cards": ["9C"], "effects": [],
      "drew": 1}, "P2", "You played 9♣ from your hand"),
    ({"t": "play", "n": 5, "seat": 1, "from": "visible", "cards": ["10H"],
      "effects": ["kill", "extra"], "drew": 0}, "P3",
     "P1 played 10♥ from their face-up cards (burns the pile, plays again)"),
    ({"t": "play", "n": 1, "seat": 3, "from": "hand", "cards": ["4D"], "auto": True,
      "effects": [], "drew": 1}, None, "P3 played 4♦ from their hand (the opening play, made "
     "by the game)"),
    ({"t": "play", "n": 6, "seat": 3, "from": "hidden", "cards": ["R"], "effects": ["reverse"],
      "drew": 0}, "P1", "P3 played a joker from their face-down cards (reverses the direction)"),
    ({"t": "pickup", "n": 7, "seat": 2, "count": 7, "threes_removed": 0}, None,
     "P2 picked up the pile (7 cards)"),
    ({"t": "pickup", "n": 7, "seat": 2, "count": 1, "threes_removed": 2}, "P2",
     "You picked up the pile (1 card); 2 threes taken out"),
    ({"t": "blind", "n": 8, "seat": 4, "index": 2, "card": "5H"}, None,
     "P4 turned up face-down card 2: 5♥"),
    ({"t": "swap", "seat": 1, "visible": ["3C", "5D", "KS"]}, "P1",
     "You laid 3♣ 5♦ K♠ face up"),
    ({"t": "start", "seat": 2}, None, "P2 starts"),
    ({"t": "out", "seat": 3, "place": 1}, None, "P3 went out (1st)"),
    ({"t": "end", "placings": [3, 1, 2], "stalemate": False, "reason": "out", "plays": 9,
      "turns": 9}, None, "The game is over: 1st P3, 2nd P1, 3rd P2"),
])
def test_obsession_moves_in_words(line: Json, viewer: str | None, words: str) -> None:
    assert obsession.line_words(line, viewer) == words


def test_obsession_result_names_seats_and_places() -> None:
    seats = ["P1", "P2", "P3", "P4"]
    over = {"phase": "over", "seats": seats, "placings": ["P3", "P2", "P1", "P4"]}
    assert obsession.result_words(over) == "1st P3, 2nd P2, 3rd P1, 4th P4"
    stopped = {"phase": "over", "seats": seats, "placings": ["P3"]}
    assert obsession.result_words(stopped) == "1st P3; P1, P2 and P4 still holding cards"
    assert obsession.result_words({"phase": "play", "seats": seats, "placings": ["P3"]}) is None


def test_obsession_views_say_each_move_and_mark_the_cards_on_the_pile() -> None:
    marked = pickups = 0
    final = None
    for state in played("obsession", {"players": 3}, seed=5, plies=2000):
        for viewer in (*state.seats, None):
            view = (serialize.public_view("obsession", state) if viewer is None
                    else serialize.seat_view("obsession", state, viewer))
            assert view["history_text"] == [obsession.line_words(line, viewer)
                                            for line in view["history"]]
            last = view["last_move"]
            if last is None:
                continue
            assert set(last["cards"]) <= {card["id"] for card in view["pile"]}
            marked += bool(last["cards"])
            pickups += "picked up the pile" in last["text"]
            if viewer is None:
                assert "You" not in last["text"] and "your" not in last["text"]
        final = serialize.public_view("obsession", state)
    assert marked and pickups
    assert final is not None and final["phase"] == "over"
    result = state.result
    assert result is not None
    assert final["result_text"] == ", ".join(
        f"{obsession.place_words(index + 1)} P{number}"
        for index, number in enumerate(result.details["placings"]))


# --------------------------------------------------------------------------- Austerity


def test_austerity_moves_in_words() -> None:
    from cardtable.games.austerity.rules import PURCHASE, TAKE, WILD_ACTION, Card

    take = Move(0, (TAKE, 0, (1, 1, 0, 1)), None, None)
    assert move_words(take, None) == "A took Purple, Brown and Red"
    assert move_words(take, "A") == "You took Purple, Brown and Red"
    assert move_words(Move(1, WILD_ACTION, None, None), "A") == "B took a wild"
    red = Card(3, 3, (2, 1, 0, 0))
    bought = Move(1, (PURCHASE, 2, (2, 0, 0, 0, 1)), red, 7)
    assert move_words(bought, None) == "B bought a 3-point Red card for 2 Purple and 1 wild"
    free = Move(1, (PURCHASE, 0, (0, 0, 0, 0, 0)), Card(1, 0, (0, 0, 0, 0)), None)
    assert move_words(free, "B") == "You bought a 0-point Brown card for nothing"


def test_austerity_tables_keep_their_moves_and_the_views_say_them() -> None:
    kinds: set[str] = set()
    state = None
    for state in played("austerity", {"players": 3, "deal": "shuffled"}, seed=3, plies=300):
        assert isinstance(state, AusterityState)
        public = serialize.public_view("austerity", state)
        seat_views = {seat: serialize.seat_view("austerity", state, seat)
                      for seat in state.seats}
        moves = state.moves  # type: ignore[attr-defined]
        assert public["history_text"] == [move_words(move, None) for move in moves[-12:]]
        for seat, view in seat_views.items():
            assert view["history_text"] == [move_words(move, seat) for move in moves[-12:]]
        last = public["last_move"]
        if not moves:
            assert last is None
            continue
        assert last["seat"] == "ABC"[moves[-1].seat]
        assert last["text"] == public["history_text"][-1]
        kinds.add(last["text"].split()[1])
        if last["market"] is not None:  # the card turned up in place of the one bought
            assert last["market"] == len(public["market"]) - 1
    assert {"took", "bought"} <= kinds
    assert state is not None and type(state.clone()) is AusterityState  # bots get plain states


def test_an_austerity_replay_says_each_move() -> None:
    from cardtable.web.games import new_state
    from cardtable.web.record import record_text

    kinds = ["human", "bot:shenzi"]
    params: dict[str, object] = {"players": 2, "deal": "shuffled"}
    state = new_state("austerity", params, 6, kinds)
    rng = random.Random(6)
    moves: list[str] = []
    while state.result is None:
        action = rng.choice(state.legal_actions())
        moves.append(state.action_text(action))
        state.apply(action)
    frames, steps, result = replay_views(record_text("austerity", params, 6, kinds, moves))
    assert result is not None and len(frames) == len(steps) + 1 == len(moves) + 1
    assert frames[0]["last_move"] is None and frames[0]["history_text"] == []
    for frame, move in zip(frames[1:], state.moves, strict=True):
        assert frame["last_move"]["text"] == move_words(move, None)
