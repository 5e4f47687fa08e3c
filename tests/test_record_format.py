"""The one record format: every game writes it, every replay reads it (the former dialects
upgraded in memory), a record of another game is named, and a wrong line is refused with its
number.

Round trips run in process over many seeds (hypothesis); the command lines are run as real
programs for the messages and exit statuses people see.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable import __version__
from cardtable.engine.errors import RecordError
from cardtable.engine.match import play_match
from cardtable.engine.record import (
    FORMAT,
    RecordFormatError,
    RecordWriter,
    read_lines,
    read_record,
    record_game,
)
from cardtable.engine.record_upgrade import dialect_of
from counts import count

BIN = Path(sys.executable).parent
LEGACY = Path(__file__).parent / "records" / "legacy"
CURRENT = Path(__file__).parent / "records" / "current"
EXAMPLES = count(20, 50)
"""Games per round-trip test (``CARDTABLE_FULL=1``: 50)."""
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def run(program: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / program), *args], capture_output=True, text=True,
                          timeout=120, check=False, stdin=subprocess.DEVNULL,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})


def objects(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# ------------------------------------------------------------------ writing each game


def caravan_record(path: Path, preset: str, seed: int, bots: tuple[str, str],
                   first: int = 0) -> Any:
    from cardtable.engine.match import MatchAbandoned
    from cardtable.games.caravan.bots import make_bot
    from cardtable.games.caravan.record import GameRecorder
    from cardtable.games.caravan.rules import SeatRules
    from cardtable.games.caravan.state import CaravanState

    game = CaravanState.new(replace(SeatRules.preset(preset), stuck_plies=200), seed, first)
    players = {"ABC": f"bot:{bots[0]}", "DEF": f"bot:{bots[1]}"}
    with RecordWriter(path) as writer:
        recorder = GameRecorder(writer, str(path), players, ("random", "random"))
        recorder.start(game)
        seats = {"ABC": make_bot(bots[0], 0, seed), "DEF": make_bot(bots[1], 1, seed)}
        try:
            play_match(game, seats, (recorder,))
        except MatchAbandoned as stopped:
            game.abandon(stopped.cause)  # as the command line does
    return game


def obsession_record(path: Path, seed: int, **rules: Any) -> Any:
    from cardtable.games.obsession.bots import make_bot
    from cardtable.games.obsession.record import RecordListener, header
    from cardtable.games.obsession.rules import Rules
    from cardtable.games.obsession.state import ObsessionState, seat_name

    table = Rules(**rules)
    kinds = [("obsessed", "random")[(seed + seat) % 2] for seat in range(table.players)]
    game = ObsessionState.new(table, [False] * table.players, seed)
    seats = {seat_name(seat): make_bot(kind, seat, seed) for seat, kind in enumerate(kinds)}
    with RecordWriter(path) as writer:
        play_match(game, seats, (RecordListener(writer.write, header(game, seed, kinds)),))
    return game


def austerity_record(path: Path, seed: int, tokens: int, points: int, players: int,
                     turns: int = 400) -> Any:
    """Drive the hub's recorder with the events of a game played by random legal actions
    (stopped like an interrupted hub after ``turns``)."""
    from cardtable.games.austerity.deck import load_deck
    from cardtable.games.austerity.record import Recorder
    from cardtable.games.austerity.state import AusterityState

    deck = load_deck(str(LEGACY / "austerity-small.deck"))
    state = AusterityState(list(deck), tokens, points, players)
    recorder = Recorder(str(path))
    recorder.write("start", version=1, tokens=tokens, points=points,
                   deck=[card.text() for card in deck],
                   players=[f"player-{n}" for n in range(players)])
    recorder.write("send", to="*", msg=f"tokens{tokens}")
    rng = random.Random(seed)
    while state.result is None and state.turns < turns:
        seat = state.to_move
        assert seat is not None
        if rng.random() < 0.1:
            recorder.write("recv", **{"from": seat}, msg="bogus", valid=False)
        action = rng.choice(state.legal_actions())
        recorder.write("recv", **{"from": seat}, msg=state.action_text(action), valid=True)
        state.apply(action)
    if state.result is None:
        recorder.write("end", reason="sigint", exit=130, winners=[],
                       points=list(state.game.table.points), status=["exit 0"] * players)
    else:
        recorder.write("end", reason="normal", exit=0, winners=list(state.result.winners),
                       points=list(state.game.table.points), status=["exit 0"] * players)
    recorder.close()
    return state


def check_shape(path: Path, game: str) -> list[dict[str, Any]]:
    """Every line of ``path`` is a line of the one format, in order."""
    lines = objects(path)
    header = lines[0]
    assert header["type"] == "header" and header["game"] == game
    assert header["format"] == FORMAT and header["cardtable"] == __version__
    assert {"rules", "seed", "seats"} <= set(header)
    seats = [seat["seat"] for seat in header["seats"]]
    assert lines[-1]["type"] == "result"
    assert set(lines[-1]) == {"type", "winners", "reason", "cause", "details"}
    for line in lines[1:-1]:
        assert line["type"] in ("chance", "action", "message")
        if line["type"] == "action":
            assert set(line) == {"type", "seat", "action"} and line["seat"] in seats
    return lines


# ------------------------------------------------------------------ round trips


CARAVAN_PRESETS = ["power", "nv", "foxon", "karavane"]


@pytest.mark.parametrize("preset", CARAVAN_PRESETS)
@SETTINGS
@given(seed=st.integers(0, 2**31), bots=st.sampled_from(
    [("normal", "random"), ("random", "friendly"), ("friendly", "normal")]),
    first=st.integers(0, 1))
def test_caravan_round_trip(tmp_path: Path, preset: str, seed: int, bots: tuple[str, str],
                            first: int) -> None:
    from cardtable.games.caravan.record import load_replay

    path = tmp_path / "caravan.jsonl"
    game = caravan_record(path, preset, seed, bots, first)
    lines = check_shape(path, "caravan")
    assert lines[0]["first"] == ("ABC", "DEF")[first]
    assert sum(line["type"] == "action" for line in lines) == game.plies
    replay = load_replay(path)
    replayed = replay.start()
    for step in replay.moves:
        replay.apply(replayed, step)
    replay.finish(replayed)
    assert replayed.result == game.result
    assert (replayed.caravans, replayed.hands, replayed.decks) == (
        game.caravans, game.hands, game.decks)


@SETTINGS
@given(seed=st.integers(0, 2**31), players=st.integers(2, 10), run_kill=st.integers(3, 4),
       kill_order=st.sampled_from(["effect-first", "kill-first"]),
       max_plays=st.sampled_from([30, 5000]))
def test_obsession_round_trip(tmp_path: Path, seed: int, players: int, run_kill: int,
                              kill_order: str, max_plays: int) -> None:
    from cardtable.games.obsession.checked_replay import check_replay
    from cardtable.games.obsession.record import load

    path = tmp_path / "obsession.jsonl"
    game = obsession_record(path, seed, players=players, run_kill=run_kill,
                            kill_order=kill_order, max_plays=max_plays)
    lines = check_shape(path, "obsession")
    assert lines[1]["event"] == "deck"
    assert lines[-1]["reason"] == game.result.reason == lines[-1]["cause"]
    checked = check_replay(load(read_lines(path), str(path)))
    assert checked.ending == "over"
    replayed = checked.start()
    for action in checked.actions:
        replayed.apply(action)
    assert replayed.result == game.result


@SETTINGS
@given(seed=st.integers(0, 2**31), tokens=st.integers(1, 8), points=st.integers(1, 12),
       players=st.integers(2, 5))
def test_austerity_round_trip(tmp_path: Path, seed: int, tokens: int, points: int,
                              players: int) -> None:
    from cardtable.games.austerity.record import read_hub_record, replay_hub_record

    path = tmp_path / "hub.jsonl"
    state = austerity_record(path, seed, tokens, points, players)
    lines = check_shape(path, "austerity")
    assert lines[0]["seed"] is None and lines[0]["rules"] == {
        "tokens": tokens, "points": points, "players": players}
    replayed = replay_hub_record(read_hub_record(str(path), read_lines(path)))
    assert replayed.result == state.result
    assert replayed.to_position() == state.to_position()


def test_the_real_hub_writes_a_record_that_replays(tmp_path: Path) -> None:
    from cardtable.games.austerity.record import read_hub_record, replay_hub_record

    path = tmp_path / "hub.jsonl"
    players = [str(BIN / name) for name in ("shenzi", "banzai", "ed")]
    done = run("austerity", "--record", str(path), "5", "3",
               str(LEGACY / "austerity-small.deck"), *players)
    assert done.returncode == 0
    lines = check_shape(path, "austerity")
    assert [seat["player"] for seat in lines[0]["seats"]] == players
    state = replay_hub_record(read_hub_record(str(path), read_lines(path)))
    assert state.result is not None
    assert done.stdout.splitlines()[-1] == f"Winner(s) {','.join(state.result.winners)}"


def test_a_replay_rewrites_the_same_obsession_record(tmp_path: Path) -> None:
    """``obsession --replay OLD --record NEW`` writes the one format for any record."""
    for source in (LEGACY / "obsession-bots4.jsonl", LEGACY / "obsession-cap40.jsonl"):
        new = tmp_path / f"new-{source.name}"
        done = run("obsession", "--plain", "--replay", str(source), "--record", str(new))
        assert done.returncode == 0, done.stderr
        lines = check_shape(new, "obsession")
        old_end = objects(source)[-1]
        assert lines[-1]["details"]["placings"] == old_end["placings"]
        assert lines[-1]["cause"] == (old_end["reason"] or "out")
        again = run("obsession", "--plain", "--replay", str(new))
        assert again.returncode == 0 and again.stderr == ""


# ------------------------------------------------------------------ records of today


def test_current_records_replay() -> None:
    """The files under tests/records/current, written by this format, keep replaying."""
    from cardtable.games.austerity.record import read_hub_record, replay_hub_record

    for path in sorted(CURRENT.glob("*.jsonl")):
        game = objects(path)[0]["game"]
        if game == "austerity":
            replay_hub_record(read_hub_record(str(path), read_lines(path)))
            continue
        done = run(game, "--plain", "--replay", str(path), "--delay", "0")
        assert (done.returncode, done.stderr) == (0, ""), path


# ------------------------------------------------------------------ the former dialects


@pytest.mark.parametrize("path", sorted(LEGACY.glob("caravan-*.jsonl")), ids=lambda p: p.name)
def test_former_caravan_records_replay(path: Path) -> None:
    from cardtable.games.caravan.record import load_replay

    assert dialect_of(read_lines(path)) is not None
    replay = load_replay(path)
    assert replay.missing_result() is None
    done = run("caravan", "--plain", "--replay", str(path), "--delay", "0")
    assert (done.returncode, done.stderr) == (0, "")
    last = objects(path)[-1]
    if last["reason"] == "quit":
        assert done.stdout.splitlines()[-1] == (
            f"The recorded game was not finished ({last['cause']}).")
    else:
        assert done.stdout.splitlines()[-1].startswith(("WINNER: ", "DRAW"))


@pytest.mark.parametrize("path", sorted(LEGACY.glob("obsession-*.jsonl")), ids=lambda p: p.name)
def test_former_obsession_records_replay(path: Path) -> None:
    from cardtable.games.obsession.checked_replay import check_replay
    from cardtable.games.obsession.record import load

    assert dialect_of(read_lines(path)) is not None
    loaded = load(read_lines(path), str(path))
    last = objects(path)[-1]
    checked = check_replay(loaded)
    assert checked.ending == ("over" if last["t"] == "end" else "abandoned")
    done = run("obsession", "--plain", "--replay", str(path))
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("name", ["austerity-three.jsonl", "austerity-badstart.jsonl"])
def test_former_hub_records_are_read(name: str) -> None:
    from cardtable.games.austerity.record import read_hub_record, replay_hub_record

    path = LEGACY / name
    record = read_hub_record(str(path), read_lines(path))
    state = replay_hub_record(record)
    end = objects(path)[-1]
    if end["reason"] == "normal":
        assert state.result is not None and list(state.result.winners) == end["winners"]
    else:
        assert state.result is None and record.actions == []


def test_a_changed_former_caravan_record_still_gets_its_reasons(tmp_path: Path) -> None:
    """The former dialect keeps its own checks (card identities, ply numbers), at the file's
    line numbers."""
    from cardtable.games.caravan.record import load_replay

    lines = (LEGACY / "caravan-power-normal-normal.jsonl").read_text().splitlines()
    number = next(n for n, line in enumerate(lines) if json.loads(line)["type"] == "move")
    move = json.loads(lines[number])
    move["card"] = "KH@3"
    path = tmp_path / "changed.jsonl"
    path.write_text("\n".join([*lines[:number], json.dumps(move), *lines[number + 1:]]) + "\n")
    with pytest.raises(RecordError) as caught:
        load_replay(path)
    assert caught.value.message == f"Replay '{path}', line {number + 1}: card mismatch."


# ------------------------------------------------------------------ another game's record


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A record of each game in each format."""
    folder = tmp_path_factory.mktemp("records")
    made = {
        "caravan-old": LEGACY / "caravan-power-normal-normal.jsonl",
        "obsession-old": LEGACY / "obsession-bots4.jsonl",
        "austerity-old": LEGACY / "austerity-three.jsonl",
    }
    caravan_record(folder / "caravan.jsonl", "power", 1, ("normal", "normal"))
    obsession_record(folder / "obsession.jsonl", 1, players=3)
    austerity_record(folder / "austerity.jsonl", 1, 5, 3, 2)
    made.update({game: folder / f"{game}.jsonl" for game in ("caravan", "obsession",
                                                             "austerity")})
    return made


GAME_OF = {"caravan": "caravan", "caravan-old": "caravan", "obsession": "obsession",
           "obsession-old": "obsession", "austerity": "austerity",
           "austerity-old": "austerity"}


def named(path: Path, game: str) -> str:
    if game == "caravan":
        return f"Replay '{path}': this is a Caravan record; replay it with: caravan --replay {path}"
    if game == "obsession":
        return (f"Replay '{path}': this is an Obsession record; "
                f"replay it with: obsession --replay {path}")
    return f"Replay '{path}': this is an Austerity record; replay it with: cardtable replay {path}"


@pytest.mark.parametrize("replayer", ["caravan", "obsession"])
@pytest.mark.parametrize("record", sorted(GAME_OF))
def test_each_replay_names_another_games_record(records: dict[str, Path], replayer: str,
                                                record: str) -> None:
    if GAME_OF[record] == replayer:
        return
    path = records[record]
    assert record_game(read_lines(path)) == GAME_OF[record]
    done = run(replayer, "--plain", "--replay", str(path))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == f"{replayer}: {named(path, GAME_OF[record])}\n"
    assert done.stdout == ""


@pytest.mark.parametrize("record", sorted(GAME_OF))
def test_the_full_screen_replays_and_the_hub_reader_name_it_too(records: dict[str, Path],
                                                                record: str) -> None:
    from cardtable.games.austerity.record import read_hub_record
    from cardtable.games.caravan.record import load_replay
    from cardtable.games.obsession.record import load

    path = records[record]
    lines = read_lines(path)
    game = GAME_OF[record]
    if game != "caravan":
        with pytest.raises(RecordError) as caught:
            load_replay(path)  # what both Caravan replays (line mode, full screen) read
        assert caught.value.message == named(path, game)
    if game != "austerity":
        with pytest.raises(RecordError) as caught:
            read_hub_record(str(path), lines)
        assert caught.value.message == named(path, game)
    if game == "caravan":
        with pytest.raises(RecordFormatError) as refused:
            read_record(str(path), lines, "obsession")
        assert refused.value.message == named(path, "caravan")
    if game == "obsession":
        loaded = load(lines, str(path))  # the Obsession replays name others before this
        assert loaded.rules.players >= 2


# ------------------------------------------------------------------ wrong lines


def one_error_line(done: subprocess.CompletedProcess[str], status: int) -> str:
    assert done.returncode == status, done
    assert "Traceback" not in done.stderr + done.stdout
    text = done.stderr or done.stdout.splitlines()[-1] + "\n"
    assert text.count("\n") == 1
    return text.rstrip("\n")


BREAKS = {
    "not JSON": (lambda lines: [*lines[:3], "{nope", *lines[4:]], 4, "malformed line"),
    "no type": (lambda lines: [*lines[:3], "[1, 2]", *lines[4:]], 4,
                'malformed line (not an object with a "type")'),
    "unknown kind": (lambda lines: [*lines[:3], '{"type":"comment"}', *lines[4:]], 4,
                     'unknown kind of line "comment"'),
    "second header": (lambda lines: [*lines[:3], lines[0], *lines[4:]], 4, "a second header"),
    "after the result": (lambda lines: [*lines, lines[-1]], "end", "a line after the result line"),
    "bad seat": (lambda lines: [*lines[:3], '{"type":"action","seat":"Q","action":"x"}',
                                *lines[4:]], 4,
                 'the action\'s seat "Q" is not a seat of the header'),
    "bad result": (lambda lines: [*lines[:-1], '{"type":"result","winners":"ABC"}'], "last",
                   'a result line is {"type":"result","winners":[...],"reason":R,"cause":C,'
                   '"details":{...}}'),
}


def _header_change(field: str, value: object) -> Any:
    def change(lines: list[str]) -> list[str]:
        header = json.loads(lines[0])
        if value is None:
            del header[field]
        else:
            header[field] = value
        return [json.dumps(header), *lines[1:]]
    return change


HEADER_BREAKS = {
    "format 3": (_header_change("format", 3), 1,
                 "record format 3 is not one this version reads (1 and 2)"),
    "format true": (_header_change("format", True), 1,
                    "record format true is not one this version reads (1 and 2)"),
    "unknown game": (_header_change("game", "chess"), 1,
                     'the header\'s game is "chess", not "GAME"'),
    "rules not an object": (_header_change("rules", [1]), 1,
                            "the header's 'rules' field is not an object"),
    "seats not a list": (_header_change("seats", "ABC"), 1,
                         "the header's 'seats' field is not a list of seats"),
    "seat twice": (_header_change("seats", [{"seat": "A", "player": "x"}] * 2), 1,
                   "the header names a seat twice"),
    **{f"no {field}": (_header_change(field, None), 1, f"the header has no '{field}' field")
       for field in ("game", "format", "cardtable", "rules", "seed", "seats")},
}


def _broken(records: dict[str, Path], tmp_path: Path, game: str, change: Any) -> Path:
    lines = records[game].read_text(encoding="utf-8").splitlines()
    path = tmp_path / f"broken-{game}.jsonl"
    path.write_text("".join(line + "\n" for line in change(lines)), encoding="utf-8")
    return path


def _number(where: object, path: Path) -> int:
    """The line a case names: a number, or ``end``/``last`` for the file's last line."""
    if isinstance(where, int):
        return where
    return len(path.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("game", ["caravan", "obsession", "austerity"])
@pytest.mark.parametrize("case", [*BREAKS, *HEADER_BREAKS])
def test_a_wrong_line_is_named_with_its_number(records: dict[str, Path], tmp_path: Path,
                                               game: str, case: str) -> None:
    """Each game's reader gives "Replay 'FILE', line L: REASON." (the line mode of Obsession
    says "!!! Replay mismatch at line L: REASON" and exits 4, Caravan's exits 1)."""
    from cardtable.games.austerity.record import read_hub_record
    from cardtable.games.caravan.record import load_replay
    from cardtable.games.obsession.record import ReplayMismatch, load

    change, where, reason = {**BREAKS, **HEADER_BREAKS}[case]
    reason = reason.replace("GAME", game)
    path = _broken(records, tmp_path, game, change)
    line = _number(where, path)
    expected = f"Replay '{path}', line {line}: {reason}."
    if game == "caravan":
        with pytest.raises(RecordError) as caught:
            load_replay(path)
        assert caught.value.message == expected
        done = run("caravan", "--plain", "--replay", str(path))
        assert one_error_line(done, 1) == f"caravan: {expected}"
    elif game == "obsession":
        with pytest.raises(ReplayMismatch) as mismatch:
            load(read_lines(path), str(path))
        assert (mismatch.value.line, mismatch.value.reason) == (line, reason)
        done = run("obsession", "--plain", "--replay", str(path))
        assert one_error_line(done, 4) == f"!!! Replay mismatch at line {line}: {reason}"
    else:
        with pytest.raises(RecordError) as caught:
            read_hub_record(str(path), read_lines(path))
        assert caught.value.message == expected


def test_the_engine_reader_checks_kinds_and_results() -> None:
    header = {"type": "header", "game": "obsession", "format": 2, "cardtable": "0",
              "rules": {}, "seed": 1, "seats": [{"seat": "P1", "player": "human"},
                                                {"seat": "P2", "player": "bot:random"}]}
    lines = [json.dumps(header), json.dumps({"type": "chance", "event": "deck"}),
             json.dumps({"type": "action", "seat": "P2", "action": "blind 1"}),
             "",
             json.dumps({"type": "result", "winners": ["P1"], "reason": "out", "cause": "out",
                         "details": {}})]
    record = read_record("f", lines, "obsession")
    assert [entry.kind for entry in record.entries] == ["chance", "action", "result"]
    assert record.actions[0].seat == "P2" and record.actions[0].text == "blind 1"
    assert record.result is not None and record.result.line == 5
    assert record.end_line == 6
    with pytest.raises(RecordFormatError) as caught:
        read_record("f", [*lines[:4], json.dumps({"type": "chance"})], "obsession")
    assert caught.value.message == "Replay 'f', line 5: a chance line has no 'event' name."
    with pytest.raises(RecordFormatError) as caught:
        read_record("f", [], "obsession")
    assert caught.value.message == "Replay 'f', line 1: the record is empty."
    winners = json.dumps({"type": "result", "winners": ["P9"], "reason": "out",
                          "cause": "out", "details": {}})
    with pytest.raises(RecordFormatError) as caught:
        read_record("f", [*lines[:4], winners], "obsession")
    assert caught.value.message == (
        "Replay 'f', line 5: a winner of the result line is not a seat of the header.")


def test_the_writer_writes_compact_lines() -> None:
    from cardtable.engine.record import SeatEntry, action_line, header_line, result_line

    stream = io.StringIO()
    writer = RecordWriter(stream)
    writer.write(header_line("caravan", {"x": 1}, 3, [SeatEntry("ABC", "human")], first="ABC"))
    writer.write(action_line("ABC", "P2B"))
    writer.write(result_line((), "abandoned", "eof", {"plies": 1}))
    assert stream.getvalue().splitlines() == [
        '{"type":"header","game":"caravan","format":2,"cardtable":' + json.dumps(__version__)
        + ',"rules":{"x":1},"seed":3,"seats":[{"seat":"ABC","player":"human"}],"first":"ABC"}',
        '{"type":"action","seat":"ABC","action":"P2B"}',
        '{"type":"result","winners":[],"reason":"abandoned","cause":"eof",'
        '"details":{"plies":1}}',
    ]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.sampled_from(
        ["", "ABC", "DEF", "P1", "A", "deck", "shuffle", "mulligan", "action", "result",
         "chance", "header", "abandoned", "7S@1", "JO@1.2", "9H", "P1A", "blind 1", "wild"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                               max_size=2),
    max_leaves=6)


@pytest.mark.parametrize("name", ["caravan-nv-mulligan.jsonl", "obsession-cap40.jsonl",
                                  "austerity-three.jsonl"])
@settings(max_examples=100, deadline=None,
          derandomize=True, database=None)
@given(data=st.data())
def test_any_changed_field_is_refused_with_a_line_never_a_traceback(name: str,
                                                                    data: st.DataObject) -> None:
    """A field of any line set to any JSON value: the record replays, or its reader says which
    line is wrong (a ``RecordError`` with a one-line message); nothing else escapes."""
    from cardtable.games.austerity.record import read_hub_record, replay_hub_record
    from cardtable.games.caravan.record import load_replay
    from cardtable.games.obsession.checked_replay import check_replay
    from cardtable.games.obsession.record import load

    path = CURRENT / name
    lines = path.read_text(encoding="utf-8").splitlines()
    index = data.draw(st.integers(0, len(lines) - 1), label="line")
    obj = json.loads(lines[index])
    key = data.draw(st.sampled_from(sorted(obj)), label="field")
    obj[key] = data.draw(JSON_VALUES, label="value")
    changed = [*lines[:index], json.dumps(obj), *lines[index + 1:]]
    game = name.split("-")[0]
    try:
        if game == "caravan":
            import tempfile

            with tempfile.TemporaryDirectory() as folder:
                copy = Path(folder) / name
                copy.write_text("\n".join(changed) + "\n", encoding="utf-8")
                load_replay(copy)
        elif game == "obsession":
            check_replay(load(changed, str(path)))
        else:
            replay_hub_record(read_hub_record(str(path), changed))
    except RecordError as error:
        assert "\n" not in error.message and error.line >= 1
