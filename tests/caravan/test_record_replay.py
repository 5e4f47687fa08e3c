"""Game records (§7.3): what they hold, that replay reproduces every state, and the exact
errors of records that do not replay."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import __version__
from cardtable.engine.errors import RecordError
from cardtable.engine.match import play_match
from cardtable.engine.record import RecordWriter
from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.cards import identity
from cardtable.games.caravan.deck import read_deck_file
from cardtable.games.caravan.record import GameRecorder, load_replay
from cardtable.games.caravan.rules import FOXON, PRESETS, SeatRules
from cardtable.games.caravan.rules_assembly import rules_to_json
from cardtable.games.caravan.state import CaravanState
from counts import count

Snapshot = tuple[object, ...]


def snapshot(game: CaravanState) -> Snapshot:
    """Everything that makes up a game state (decks in order included)."""
    return (
        tuple(game.caravans), tuple(game.held), tuple(map(tuple, game.hands)),
        tuple(map(tuple, game.decks)), tuple(map(tuple, game.piles)), tuple(game.placed),
        tuple(game.moves_made), game.turn, game.plies, game.result, game.history,
    )


def record_game(
    path: Path,
    rules: SeatRules,
    seed: int,
    bots: tuple[str, str],
    decks: list[list[int] | None] | None = None,
    max_plies: int | None = None,
) -> tuple[CaravanState, list[Snapshot]]:
    """Play a bot game, recording it to ``path``; returns the game and, when stopped after
    ``max_plies``, its state after each move (full games go through the match loop)."""
    game = CaravanState.new(rules, seed, 0, decks)
    sources = tuple("random" if decks is None or decks[s] is None else "file" for s in (0, 1))
    players = {"ABC": f"bot:{bots[0]}", "DEF": f"bot:{bots[1]}"}
    states = [snapshot(game)]
    with RecordWriter(path) as writer:
        recorder = GameRecorder(writer, str(path), players, (sources[0], sources[1]))
        recorder.start(game)
        seats = [make_bot(bots[0], 0, seed), make_bot(bots[1], 1, seed)]
        if max_plies is None:
            play_match(game, {"ABC": seats[0], "DEF": seats[1]}, (recorder,))
            return game, []
        while game.result is None and game.plies < max_plies:
            event = game.play(seats[game.turn].choose(game.observation(game.turn)))
            recorder.on_action(game, "ABC", None, event)
            states.append(snapshot(game))
    return game, states


def _replayed_states(path: Path) -> list[Snapshot]:
    replay = load_replay(path)
    game = replay.start()
    states = [snapshot(game)]
    for step in replay.moves:
        replay.apply(game, step)
        states.append(snapshot(game))
    replay.finish(game)
    return states


def states_of_play(rules: SeatRules, seed: int, bots: tuple[str, str],
                   decks: list[list[int] | None] | None = None) -> list[Snapshot]:
    """The states of the same game played again without a record, move by move."""
    game = CaravanState.new(rules, seed, 0, decks)
    seats = [make_bot(bots[0], 0, seed), make_bot(bots[1], 1, seed)]
    states = [snapshot(game)]
    while game.result is None:
        game.play(seats[game.turn].choose(game.observation(game.turn)))
        states.append(snapshot(game))
    return states


def lines_of(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# ------------------------------------------------------------------- writing


def test_record_holds_header_decks_moves_and_result(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    game, _ = record_game(path, SeatRules.preset("power"), 11, ("normal", "random"))
    lines = lines_of(path)
    header = lines[0]
    assert header == {
        "type": "header", "game": "caravan", "format": 2, "cardtable": __version__,
        "rules": {"ABC": rules_to_json(PRESETS["power"]), "DEF": rules_to_json(PRESETS["power"])},
        "seed": 11,
        "seats": [{"seat": "ABC", "player": "bot:normal"}, {"seat": "DEF", "player": "bot:random"}],
        "first": "ABC",
    }
    for seat, line in zip(("ABC", "DEF"), lines[1:3], strict=True):
        index = ("ABC", "DEF").index(seat)
        assert line == {"type": "chance", "event": "deck", "seat": seat, "source": "random",
                        "cards": [identity(card) for card in game.initial_decks[index]]}
    moves = [line for line in lines if line["type"] == "action"]
    assert len(moves) == game.plies
    assert [line["seat"] for line in moves[:4]] == ["ABC", "DEF", "ABC", "DEF"]
    assert all(set(line) == {"type", "seat", "action"} for line in moves)
    assert all(":" not in str(line["action"]) for line in moves)
    assert game.result is not None
    assert lines[-1] == {"type": "result", "winners": list(game.result.winners),
                         "reason": game.result.reason, "cause": game.result.reason,
                         "details": {"lanes": game.result.details["lanes"],
                                     "plies": game.plies}}


def test_moves_are_written_in_the_notation_of_the_seat_to_move(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    record_game(path, SeatRules.preset("power"), 3, ("normal", "normal"))
    moves = [line for line in lines_of(path) if line["type"] == "action"]
    faces = [line for line in moves if str(line["action"])[-1].isdigit()]
    assert faces, "the normal bots play faces in this game"
    replay = load_replay(path)
    assert [step.move.notation for step in replay.moves] == [line["action"] for line in moves]


# -------------------------------------------------------- replay reproduces


# Under foxon a random seat needs a normal opponent for the game to end in reasonable time
# (see test_properties.py); the other presets mix all three bots.
PAIRINGS = {
    "power": [("normal", "random"), ("random", "friendly"), ("random", "random")],
    "nv": [("normal", "random"), ("random", "friendly"), ("random", "random")],
    "karavane": [("normal", "random"), ("random", "friendly"), ("random", "random")],
    "foxon": [("random", "normal"), ("normal", "random")],
}


# Games per preset (CARDTABLE_FULL=1: 400).
REPLAYED = count(40, 400)


@pytest.mark.parametrize("preset", list(PAIRINGS))
@settings(max_examples=REPLAYED, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), pairing=st.integers(0, 2))
def test_replay_reproduces_every_state(tmp_path: Path, preset: str, seed: int,
                                       pairing: int) -> None:
    """A record written during a random game replays through every state of the game."""
    rules = SeatRules.preset(preset)
    bots = PAIRINGS[preset][pairing % len(PAIRINGS[preset])]
    path = tmp_path / f"{preset}.jsonl"
    record_game(path, rules, seed, bots)
    assert _replayed_states(path) == states_of_play(rules, seed, bots)


def test_replay_reproduces_foxon_reshuffles(tmp_path: Path) -> None:
    # Seed 37 with two normal bots keeps discarding: the piles become decks again and again.
    path = tmp_path / "foxon.jsonl"
    _, states = record_game(path, SeatRules.preset("foxon"), 37, ("normal", "normal"),
                            max_plies=400)
    assert sum(line.get("event") == "shuffle" for line in lines_of(path)) >= 5
    assert _replayed_states(path) == states


def test_replay_reproduces_mulligans(tmp_path: Path) -> None:
    for preset in ("nv", "foxon"):
        rules = SeatRules.preset(preset)
        path = tmp_path / f"{preset}.jsonl"
        # Two normal bots may discard forever under foxon: stop after 300 plies.
        _, states = record_game(path, rules, 216, ("normal", "normal"), max_plies=300)
        mulligans = [line for line in lines_of(path) if line.get("event") == "mulligan"]
        assert len(mulligans) == len(CaravanState.new(rules, 216).mulligans) >= 1
        seat, hand, deck = CaravanState.new(rules, 216).mulligans[0]
        assert mulligans[0] == {"type": "chance", "event": "mulligan",
                                "seat": ("ABC", "DEF")[seat],
                                "hand": [identity(c) for c in hand],
                                "cards": [identity(c) for c in deck]}
        assert _replayed_states(path) == states


def test_replay_of_custom_decks_keeps_jack_as_joker(tmp_path: Path) -> None:
    deck_file = tmp_path / "nojokers.txt"
    deck_file.write_text("\n".join(f"{rank}{suit}" for suit in "SHDC"
                                   for rank in ("A", *map(str, range(2, 11)), "J", "Q", "K")))
    rules = SeatRules.both(replace(FOXON, deck_exhaustion="shrink"))
    cards = read_deck_file(str(deck_file), rules.abc, 0)
    decks: list[list[int] | None] = [cards, None]
    for seed in range(4):
        path = tmp_path / f"file-{seed}.jsonl"
        game, _ = record_game(path, rules, seed, ("random", "normal"), decks)
        assert game.jack_as_joker == (True, False)
        assert [line.get("source") for line in lines_of(path)[1:3]] == ["file", "random"]
        assert load_replay(path).start().jack_as_joker == (True, False)
        assert _replayed_states(path) == states_of_play(rules, seed, ("random", "normal"), decks)


# ------------------------------------------------------- corrupted records


@pytest.fixture
def recorded(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    record_game(path, SeatRules.preset("power"), 3, ("normal", "normal"))
    return path


def rewrite(path: Path, change: dict[int, str | None]) -> None:
    """Replace (or with None, delete) lines by 1-based number."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = [change.get(number, line) for number, line in enumerate(lines, 1)]
    path.write_text("".join(line + "\n" for line in out if line is not None), encoding="utf-8")


def replay_message(path: Path) -> str:
    with pytest.raises(RecordError) as caught:
        load_replay(path)
    return caught.value.message


def edit(path: Path, number: int, **fields: object) -> None:
    line = lines_of(path)[number - 1]
    line.update(fields)
    rewrite(path, {number: json.dumps(line)})


def first_line(path: Path, kind: str, start: int = 1) -> int:
    """The number of the first line from ``start`` on whose ``type`` (or chance ``event``)
    is ``kind``."""
    for number, line in enumerate(lines_of(path), 1):
        if number >= start and kind in (line["type"], line.get("event")):
            return number
    raise AssertionError(kind)


def test_unreadable_record(tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    assert replay_message(missing) == (
        f"Cannot open record file '{missing}': No such file or directory."
    )


def test_malformed_json_line(recorded: Path) -> None:
    rewrite(recorded, {5: "{not json"})
    assert replay_message(recorded) == f"Replay '{recorded}', line 5: malformed line."


def test_unknown_line_type(recorded: Path) -> None:
    rewrite(recorded, {6: '{"type":"comment"}'})
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line 6: unknown kind of line \"comment\".")


def test_header_of_another_game_names_it(recorded: Path) -> None:
    edit(recorded, 1, game="obsession")
    assert replay_message(recorded) == (
        f"Replay '{recorded}': this is an Obsession record; "
        f"replay it with: obsession --replay {recorded}")


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("format", 3, "record format 3 is not one this version reads (1 and 2)"),
    ("seed", -1, "the header's 'seed' field is not a whole number >= 0"),
    ("seats", [{"seat": "ABC", "player": "human"}], "the header's seats are not ABC and DEF"),
    ("first", "XYZ", "the header's 'first' field is not ABC or DEF"),
    ("cardtable", 1, "the header's 'cardtable' field is not a version string"),
])
def test_bad_header_field(recorded: Path, field: str, value: object, reason: str) -> None:
    edit(recorded, 1, **{field: value})
    assert replay_message(recorded) == f"Replay '{recorded}', line 1: {reason}."


@pytest.mark.parametrize("field", ["game", "format", "cardtable", "rules", "seed", "seats"])
def test_missing_header_field(recorded: Path, field: str) -> None:
    header = lines_of(recorded)[0]
    del header[field]
    rewrite(recorded, {1: json.dumps(header)})
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line 1: the header has no '{field}' field.")


def test_bad_rules_in_header(recorded: Path) -> None:
    header = lines_of(recorded)[0]
    rules = header["rules"]
    assert isinstance(rules, dict)
    rules["DEF"]["sold_min"] = 30
    edit(recorded, 1, rules=rules)
    message = replay_message(recorded)
    assert message.startswith(f"Replay '{recorded}', line 1: the header's rules: ")
    assert "\n" not in message


CARAVAN = Path(sys.executable).parent / "caravan"

# Rules that pass each field's own check but that ``caravan`` refuses to deal random decks
# with: too many or too few sample decks, a deck size out of bounds, too few cards to sample.
REFUSED_RULES = [
    {"samples": 999},
    {"samples": 0},
    {"deck_size": 20},
    {"deck_size": 5000},
    {"deck_size": 60, "samples": 1},
]


@pytest.mark.parametrize("changes", REFUSED_RULES, ids=str)
def test_header_rules_the_command_refuses_are_refused_with_its_message(
        recorded: Path, changes: dict[str, int]) -> None:
    overrides = [f"--rule={name}={value}" for name, value in changes.items()]
    done = subprocess.run([str(CARAVAN), "--plain", "--bvb", *overrides], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 1 and done.stderr.startswith("caravan: "), done
    refusal = done.stderr.removeprefix("caravan: ").rstrip("\n")
    header = lines_of(recorded)[0]
    rules = header["rules"]
    assert isinstance(rules, dict)
    for seat in ("ABC", "DEF"):
        rules[seat].update(changes)
    edit(recorded, 1, rules=rules)
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line 1: the header's rules: {refusal}")


def test_header_samples_of_a_seat_playing_a_deck_file_are_not_checked(tmp_path: Path) -> None:
    """As ``caravan`` ignores the sample rules of a seat that plays a deck file, so does the
    replay of its record."""
    deck_file = tmp_path / "deck.txt"
    deck_file.write_text("\n".join(f"{rank}{suit}" for suit in "SHDC"
                                   for rank in ("A", *"23456789", "10", "J", "Q", "K")) + "\n")
    rules = SeatRules.preset("power")
    cards = read_deck_file(str(deck_file), rules.abc, 0)
    path = tmp_path / "game.jsonl"
    record_game(path, rules, 5, ("normal", "normal"), [cards, cards])
    header = lines_of(path)[0]
    rules_json = header["rules"]
    assert isinstance(rules_json, dict)
    for seat in ("ABC", "DEF"):
        rules_json[seat]["samples"] = 999
    rewrite(path, {1: json.dumps(header)})
    load_replay(path)


def test_empty_record(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    assert replay_message(path) == f"Replay '{path}', line 1: the record is empty."


def test_illegal_move_gives_the_game_error(recorded: Path) -> None:
    number = first_line(recorded, "action")
    edit(recorded, number, action="P1D")
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line {number}: "
        "A numeral card can only be played on a player's own caravan."
    )


def test_move_by_the_wrong_seat(recorded: Path) -> None:
    number = first_line(recorded, "action")
    edit(recorded, number, seat="DEF", action="P1D")
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line {number}: It is not DEF's turn."
    )


def test_move_by_a_seat_the_header_does_not_name(recorded: Path) -> None:
    number = first_line(recorded, "action")
    edit(recorded, number, seat="XYZ")
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line {number}: "
        "the action's seat \"XYZ\" is not a seat of the header."
    )


def test_unparsable_move(recorded: Path) -> None:
    number = first_line(recorded, "action")
    edit(recorded, number, action="Q1")
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line {number}: "
        "Invalid option 'Q', must be one of: (P)lay, (D)iscard, (C)lear."
    )


def test_reordered_deck_is_caught(recorded: Path) -> None:
    deck = lines_of(recorded)[1]
    cards = deck["cards"]
    assert isinstance(cards, list)
    cards[0], cards[5] = cards[5], cards[0]
    edit(recorded, 2, cards=cards)
    # Another game follows from another deck: some later move or the result does not fit.
    with pytest.raises(RecordError) as caught:
        load_replay(recorded)
    assert caught.value.line > 2


def test_bad_identity_in_deck(recorded: Path) -> None:
    deck = lines_of(recorded)[2]
    cards = deck["cards"]
    assert isinstance(cards, list)
    cards[0] = "XX@1"
    edit(recorded, 3, cards=cards)
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line 3: expected the chance line 'deck' of DEF.")


def test_changed_result(recorded: Path) -> None:
    number = len(lines_of(recorded))
    result = lines_of(recorded)[-1]
    winners = result["winners"]
    assert isinstance(winners, list)
    edit(recorded, number, winners=["ABC"] if winners == ["DEF"] else ["DEF"])
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line {number}: the result line's winners should be "
        f"{json.dumps(winners, separators=(',', ':'))}.")


def test_line_after_the_result(recorded: Path) -> None:
    count = len(lines_of(recorded))
    with recorded.open("a") as stream:
        stream.write('{"type":"action","seat":"ABC","action":"D1"}\n')
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line {count + 1}: a line after the result line.")


def test_move_after_a_finished_game(recorded: Path) -> None:
    lines = lines_of(recorded)
    result = lines[-1]
    assert isinstance(result["winners"], list)
    loser = "DEF" if result["winners"] == ["ABC"] else "ABC"
    rewrite(recorded, {len(lines): json.dumps({"type": "action", "seat": loser,
                                               "action": "D1"})})
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line {len(lines)}: The game has already been won."
    )


def test_abandoned_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "quit.jsonl"
    record_game(path, SeatRules.preset("power"), 5, ("normal", "normal"), max_plies=10)
    with path.open("a") as stream:
        stream.write(json.dumps({"type": "result", "winners": [], "reason": "abandoned",
                                 "cause": "quit",
                                 "details": {"lanes": [None, None, None], "plies": 10}}) + "\n")
    replay = load_replay(path)
    assert len(replay.moves) == 10
    game = replay.start()
    for step in replay.moves:
        replay.apply(game, step)
    replay.finish(game)
    assert game.result is not None and game.result.reason == "quit"
    assert game.result.details["cause"] == "quit"


def test_quit_after_the_end_is_refused(recorded: Path) -> None:
    count = len(lines_of(recorded))
    edit(recorded, count, winners=[], reason="abandoned", cause="quit")
    assert replay_message(recorded) == (
        f"Replay '{recorded}', line {count}: the game is over, but the result line says "
        "abandoned.")


def _shuffled_record(tmp_path: Path) -> Path:
    path = tmp_path / "foxon.jsonl"
    record_game(path, SeatRules.preset("foxon"), 37, ("normal", "normal"), max_plies=150)
    return path


def test_missing_shuffle_line(tmp_path: Path) -> None:
    path = _shuffled_record(tmp_path)
    number = first_line(path, "shuffle")
    rewrite(path, {number: None})
    assert replay_message(path) == f"Replay '{path}', line {number - 1}: card mismatch."


def test_shuffle_with_other_cards(tmp_path: Path) -> None:
    path = _shuffled_record(tmp_path)
    number = first_line(path, "shuffle")
    deck = lines_of(path)[number - 1]["cards"]
    assert isinstance(deck, list)
    edit(path, number, cards=deck[:-1])
    assert replay_message(path) == f"Replay '{path}', line {number}: card mismatch."


def test_extra_shuffle_line(tmp_path: Path) -> None:
    path = _shuffled_record(tmp_path)
    number = first_line(path, "action", 5)
    lines = path.read_text().splitlines()
    lines.insert(number, json.dumps({"type": "chance", "event": "shuffle", "seat": "ABC",
                                     "cards": ["7S@1"]}))
    path.write_text("\n".join(lines) + "\n")
    assert replay_message(path) == f"Replay '{path}', line {number + 1}: card mismatch."


def test_mulligan_mismatch(tmp_path: Path) -> None:
    path = tmp_path / "nv.jsonl"
    record_game(path, SeatRules.preset("nv"), 216, ("normal", "normal"), max_plies=4)
    number = first_line(path, "mulligan")
    line = lines_of(path)[number - 1]
    hand = line["hand"]
    assert isinstance(hand, list)
    edit(path, number, hand=hand[::-1])
    assert replay_message(path) == f"Replay '{path}', line {number}: card mismatch."


def test_deck_shorter_than_the_rules_allow_is_a_card_mismatch(recorded: Path) -> None:
    deck = lines_of(recorded)[1]
    cards = deck["cards"]
    assert isinstance(cards, list)
    edit(recorded, 2, cards=cards[:29])  # power: deck_min 30
    assert replay_message(recorded) == f"Replay '{recorded}', line 2: card mismatch."


def test_random_deck_of_another_size_than_deck_size_is_a_card_mismatch(recorded: Path) -> None:
    cards = lines_of(recorded)[2]["cards"]
    assert isinstance(cards, list)
    edit(recorded, 3, cards=cards[:-1])  # 53 cards where deck_size is 54
    assert replay_message(recorded) == f"Replay '{recorded}', line 3: card mismatch."


def test_deck_from_a_sample_beyond_samples_max_is_a_card_mismatch(recorded: Path) -> None:
    cards = lines_of(recorded)[1]["cards"]
    assert isinstance(cards, list)
    cards[0] = str(cards[0]).split("@")[0] + "@4"  # power: samples_max 3
    edit(recorded, 2, cards=cards)
    assert replay_message(recorded) == f"Replay '{recorded}', line 2: card mismatch."


def test_record_without_result_replays_then_says_so(recorded: Path) -> None:
    count = len(lines_of(recorded))
    rewrite(recorded, {count: None})
    replay = load_replay(recorded)
    assert replay.result is None
    missing = replay.missing_result()
    assert missing is not None
    assert missing.message == f"Replay '{recorded}', line {count}: missing result line."
    complete = recorded.with_name("complete.jsonl")
    record_game(complete, SeatRules.preset("power"), 3, ("normal", "normal"))
    assert load_replay(complete).missing_result() is None
