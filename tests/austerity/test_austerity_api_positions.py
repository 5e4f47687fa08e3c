"""Austerity positions: exact round trips, identical continuations, clear refusals.

Each example plays a random game through ``cardtable.load_game`` (every test deck, 2 to 6
players, random piles and targets) to a random point, writes the position, restores it and
plays both games on with the same actions: legal lists, positions, observations and results
stay the same to the end. Corrupted positions are refused with a ``PositionError`` naming the
field at fault.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine.errors import PositionError
from cardtable.games.austerity.game import AusterityGame
from cardtable.games.austerity.position import FIELDS, from_position
from cardtable.games.austerity.state import AusterityState

DECKS = sorted((Path(__file__).parent / "decks").glob("*.deck"))
MAX_TURNS = 3000


def tuned(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


GAMES = st.builds(
    lambda deck, tokens, points, players: cardtable.load_game(
        "austerity", deck=str(deck), tokens=tokens, points=points, players=players),
    deck=st.sampled_from(DECKS),
    tokens=st.integers(0, 9),
    points=st.integers(0, 20),
    players=st.integers(2, 6),
)


def assert_same(original: AusterityState, restored: AusterityState) -> None:
    assert restored.to_position() == original.to_position()
    assert restored.legal_actions() == original.legal_actions()
    assert restored.result == original.result
    assert restored.to_move == original.to_move
    for seat in original.seats:
        assert restored.observation(seat) == original.observation(seat)


def play_to(state: AusterityState, rng: random.Random, turns: int) -> None:
    for _ in range(turns):
        if state.result is not None:
            return
        state.apply(rng.choice(state.legal_actions()))


@tuned(200)
@given(game=GAMES, seed=st.integers(0, 2**32), cut=st.integers(0, 150))
def test_positions_round_trip_and_continue_identically(game: AusterityGame, seed: int,
                                                       cut: int) -> None:
    state = game.new_state()
    rng = random.Random(seed)
    play_to(state, rng, cut)
    text = state.to_position()
    assert "\n" not in text
    restored = game.state_from_position(text)
    assert_same(state, restored)
    for _ in range(MAX_TURNS):
        if state.result is not None:
            break
        action = rng.choice(state.legal_actions())
        assert state.apply(action) == restored.apply(action)
        assert_same(state, restored)
        again = game.state_from_position(state.to_position())
        assert again.to_position() == state.to_position()


@pytest.mark.parametrize("deck", DECKS, ids=lambda path: path.stem)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_position_of_a_game_round_trips_at_the_start_and_the_end(deck: Path,
                                                                        players: int) -> None:
    game = cardtable.load_game("austerity", deck=str(deck), tokens=4, points=8, players=players)
    state = game.new_state()
    rng = random.Random(players)
    while state.result is None:
        assert game.state_from_position(state.to_position()).to_position() == \
            state.to_position()
        state.apply(rng.choice(state.legal_actions()))
    text = state.to_position()
    restored = game.state_from_position(text)
    assert restored.to_position() == text
    assert restored.result == state.result
    assert restored.legal_actions() == []


def _game(players: int = 2, deck: Path = DECKS[0], tokens: int = 3,
          points: int = 4) -> AusterityGame:
    game = cardtable.load_game("austerity", deck=str(deck), tokens=tokens, points=points,
                               players=players)
    assert isinstance(game, AusterityGame)
    return game


def _played(game: AusterityGame, turns: int, seed: int = 1) -> AusterityState:
    state = game.new_state()
    play_to(state, random.Random(seed), turns)
    return state


def test_the_fields_are_documented_in_order() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "positions.md").read_text()
    section = doc[doc.index("## Austerity"):]
    for number, name in enumerate(FIELDS, 1):
        assert f"| {number} | `{name}` |" in section


def test_an_opening_position_reads_as_documented() -> None:
    game = _game(players=2, deck=Path(__file__).parent / "decks" / "small.deck")
    fields = game.new_state().to_position().split(" ")
    assert fields[0] == "austerity/1"
    assert fields[2:4] == ["A", "0"]
    assert fields[4] == "/".join(card.text() for card in game.deck)
    assert fields[5] == "-"
    assert fields[6:] == ["3,3,3,3", "0,0,0,0/0,0,0,0", "0/0", "0,0,0,0/0,0,0,0", "0/0", "*"]


@pytest.mark.parametrize("index", range(2, len(FIELDS)))
def test_a_garbled_field_is_named(index: int) -> None:
    game = _game(players=3)
    fields = _played(game, 7).to_position().split(" ")
    fields[index] = "x?"
    with pytest.raises(PositionError, match=f"position field '{FIELDS[index]}'"):
        game.state_from_position(" ".join(fields))


def test_the_field_count_is_checked() -> None:
    game = _game()
    with pytest.raises(PositionError, match="expected 12 fields, got 11"):
        game.state_from_position(" ".join(game.new_state().to_position().split(" ")[:-1]))


@pytest.mark.parametrize(("params", "other"), [
    ({"tokens": 3}, {"tokens": 4}),
    ({"points": 4}, {"points": 5}),
    ({"players": 2}, {"players": 3}),
    ({"deck": DECKS[0]}, {"deck": DECKS[1]}),
])
def test_a_position_under_other_parameters_is_refused(params: dict[str, object],
                                                      other: dict[str, object]) -> None:
    text = _game(**params).new_state().to_position()  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="position field 'params': the position was made "
                                            "under other parameters"):
        _game(**other).state_from_position(text)  # type: ignore[arg-type]


def test_the_same_cards_from_another_file_are_the_same_game(tmp_path: Path) -> None:
    padded = tmp_path / "padded.deck"
    padded.write_bytes(DECKS[0].read_bytes().replace(b":1:", b":01:"))
    text = _game(deck=DECKS[0]).new_state().to_position()
    assert _game(deck=padded).state_from_position(text).to_position() == text


def test_tokens_must_add_up() -> None:
    game = _game(players=2, tokens=3)
    fields = game.new_state().to_position().split(" ")
    fields[6] = "3,3,2,3"
    with pytest.raises(PositionError, match="tokens do not add up: 2 Yellow tokens"):
        game.state_from_position(" ".join(fields))


def test_cards_must_add_up() -> None:
    game = _game(players=2)
    state = _played(game, 30, seed=4)
    fields = state.to_position().split(" ")
    fields[10] = "/".join(str(int(points) + 1) for points in fields[10].split("/"))
    with pytest.raises(PositionError, match="cards do not add up"):
        game.state_from_position(" ".join(fields))
    fields = game.new_state().to_position().split(" ")
    fields[9] = "1,0,0,0/0,0,0,0"
    with pytest.raises(PositionError, match="cards do not add up: 1 Purple discounts"):
        game.state_from_position(" ".join(fields))


def test_the_player_to_move_follows_the_turns() -> None:
    game = _game(players=3)
    fields = _played(game, 4).to_position().split(" ")
    assert fields[2] == "B"
    fields[2] = "C"
    with pytest.raises(PositionError, match="position field 'to move': after 4 turns it is B"):
        game.state_from_position(" ".join(fields))


def test_an_ending_must_agree_with_the_table() -> None:
    game = _game(players=2)
    fields = game.new_state().to_position().split(" ")
    fields[11] = "points=A+B"
    with pytest.raises(PositionError, match="position field 'result'"):
        game.state_from_position(" ".join(fields))


def test_a_deck_in_another_order_restores_and_plays_on() -> None:
    # A world where the cards not yet seen lie in another order (as a sampled world may).
    game = _game(players=2, deck=DECKS[2], tokens=5, points=30)
    fields = game.new_state().to_position().split(" ")
    deck = fields[5].split("/")
    assert len(deck) > 2
    fields[5] = "/".join(reversed(deck))
    text = " ".join(fields)
    state = game.state_from_position(text)
    assert state.to_position() == text
    rng = random.Random(2)
    while state.result is None:
        state.apply(rng.choice(state.legal_actions()))
        assert game.state_from_position(state.to_position()).to_position() == \
            state.to_position()


def test_from_position_takes_the_game_object() -> None:
    game = _game()
    text = _played(game, 5).to_position()
    assert from_position(game, text).to_position() == text


@tuned(300)
@given(data=st.data())
def test_corrupted_positions_raise_only_position_errors(data: st.DataObject) -> None:
    game = _game(players=data.draw(st.integers(2, 4)), deck=data.draw(st.sampled_from(DECKS)))
    state = _played(game, data.draw(st.integers(0, 80)), seed=data.draw(st.integers(0, 99)))
    text = state.to_position()
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        insert = data.draw(st.text(alphabet="0123456789,/:-+*=ABPYRW x\u00e9\n", max_size=4))
        text = text[:where] + insert + text[where + cut:]
    try:
        restored = game.state_from_position(text)
    except PositionError as error:
        assert "\n" not in str(error)
    else:
        assert game.state_from_position(restored.to_position()).to_position() == \
            restored.to_position()


@tuned(200)
@given(text=st.text(max_size=200))
def test_random_text_raises_only_position_errors(text: str) -> None:
    with pytest.raises(PositionError):
        _game().state_from_position(text)


def test_the_documented_example_restores() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "positions.md").read_text()
    text = next(line for line in doc.splitlines() if line.startswith("austerity/1 "))
    game = _game(players=3, deck=Path(cardtable.__file__).parent / "games" / "austerity"
                 / "decks" / "medium.deck", tokens=4, points=15)
    state = game.state_from_position(text)
    assert state.to_position() == text
    assert len(text.split(" ")) == len(FIELDS)
    section = doc[doc.index("## Austerity"):]
    exec(section[section.index("```python\n") + 10:].split("```")[0], {})
