"""exec: seats through the real commands: caravan, obsession and cardtable tournament, records
and replays of a forfeit, and no program left running after a forfeit or an interrupt."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .helpers import BIN, EXAMPLES, SCRIPTS, pids_in, spec, wait_gone

CARAVAN = BIN / "caravan"
OBSESSION = BIN / "obsession"


def run(program: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(program), *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def last_line(path: Path) -> dict[str, object]:
    line: dict[str, object] = json.loads(path.read_text().splitlines()[-1])
    return line


def test_caravan_bot_vs_bot_with_example_programs_records_and_replays(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    done = run(CARAVAN, "--bvb", "--plain", "--seed", "5", "--delay", "0",
               "--bot-abc", spec(EXAMPLES / "caravan_random.py", 5),
               "--bot-def", spec(EXAMPLES / "caravan_heuristic.py"), "--record", str(record))
    assert done.returncode == 0, done.stderr
    assert "WINNER:" in done.stdout and done.stderr == ""
    header = json.loads(record.read_text().splitlines()[0])
    assert header["seats"][1]["player"].startswith("bot:exec:")
    assert last_line(record)["reason"] in ("lanes", "out_of_cards", "no_legal_move", "draw")
    replayed = run(CARAVAN, "--replay", str(record), "--plain", "--delay", "0")
    assert replayed.returncode == 0, replayed.stderr


def test_caravan_forfeit_is_said_recorded_and_replayed(tmp_path: Path) -> None:
    record = tmp_path / "forfeit.jsonl"
    done = run(CARAVAN, "--plain", "--seed", "3", "--bvb", "--delay", "0",
               "-b", spec(SCRIPTS / "misbehave.py", "crash"), "--record", str(record))
    assert done.returncode == 0, done.stderr
    assert "ABC forfeits: its program exited with status 3" in done.stdout
    assert "about to crash" not in done.stdout + done.stderr
    assert "about to crash" in (tmp_path / "forfeit.jsonl.ABC.stderr").read_text()
    result = last_line(record)
    assert result == {"type": "result", "winners": ["DEF"], "reason": "forfeit",
                      "cause": "forfeit",
                      "details": {"lanes": [None, None, None], "plies": 0, "seat": "ABC",
                                  "why": "its program exited with status 3"}}
    replayed = run(CARAVAN, "--replay", str(record), "--plain", "--delay", "0")
    assert replayed.returncode == 0, replayed.stderr
    assert "ABC forfeits: its program exited with status 3" in replayed.stdout


def _forfeit_record_by(tmp_path: Path, seat: str, winners: list[str]) -> Path:
    """A record of ABC's program crashing at once, its result line rewritten as ``seat``'s
    forfeit won by ``winners``."""
    record = tmp_path / "forfeit.jsonl"
    run(CARAVAN, "--plain", "--seed", "3", "--bvb", "--delay", "0",
        "-b", spec(SCRIPTS / "misbehave.py", "crash"), "--record", str(record))
    lines = record.read_text().splitlines()
    result = json.loads(lines[-1])
    result["details"]["seat"] = seat
    result["winners"] = winners
    record.write_text("\n".join([*lines[:-1], json.dumps(result)]) + "\n")
    return record


def test_caravan_replay_takes_a_forfeit_by_a_seat_not_to_move(tmp_path: Path) -> None:
    # A program that cannot start forfeits at once, whichever seat is to move.
    record = _forfeit_record_by(tmp_path, "DEF", ["ABC"])
    replayed = run(CARAVAN, "--replay", str(record), "--plain", "--delay", "0")
    assert replayed.returncode == 0, replayed.stderr
    assert "DEF forfeits: its program exited with status 3" in replayed.stdout


@pytest.mark.parametrize(("seat", "winners", "message"), [
    ("XYZ", ["ABC", "DEF"], "the forfeiting seat should be one of ABC, DEF"),
    ("DEF", ["DEF"], 'the result line\'s winners should be ["ABC"]'),
])
def test_caravan_replay_refuses_a_forfeit_that_does_not_fit(
        tmp_path: Path, seat: str, winners: list[str], message: str) -> None:
    record = _forfeit_record_by(tmp_path, seat, winners)
    replayed = run(CARAVAN, "--replay", str(record), "--plain", "--delay", "0")
    assert replayed.returncode == 1
    assert message in replayed.stderr


def test_caravan_unknown_program_is_one_line_at_start(tmp_path: Path) -> None:
    done = run(CARAVAN, "--plain", "--bvb", "-b", "exec:/nonexistent/bot")
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0
    assert "Cannot start '/nonexistent/bot' for ABC" in done.stderr


def test_obsession_exec_seats_and_forfeit(tmp_path: Path) -> None:
    seats = ",".join([spec(EXAMPLES / "obsession_random.py", 1),
                      spec(EXAMPLES / "obsession_heuristic.py"), "obsessed"])
    done = run(OBSESSION, "--seats", seats, "--seed", "4", "--quiet", "--delay", "0")
    assert done.returncode == 0, done.stderr
    assert "Game Over" in done.stdout
    record = tmp_path / "o.jsonl"
    done = run(OBSESSION, "--humans", "0", "--players", "3", "--seed", "4", "--delay", "0",
               "--bot", spec(SCRIPTS / "misbehave.py", "junk"), "--record", str(record))
    assert done.returncode == 0, done.stderr
    assert "!!! P1 forfeits: a line that is not JSON: no json here" in done.stdout
    assert last_line(record)["reason"] == "forfeit"
    replayed = run(OBSESSION, "--replay", str(record), "--delay", "0")
    assert replayed.returncode == 0, replayed.stderr
    assert "!!! P1 forfeits: a line that is not JSON: no json here" in replayed.stdout


def test_tournament_with_an_exec_entrant() -> None:
    entrant = spec(EXAMPLES / "caravan_heuristic.py")
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "tournament", "caravan",
                           "--seat", entrant, "--seat", "random", "--games", "4", "--json"],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 4
    (program,) = [row for row in summary["players"] if row["spec"] == entrant]
    assert program["games"] == 4


def test_tournament_counts_a_forfeit_as_a_loss() -> None:
    entrant = spec(SCRIPTS / "misbehave.py", "junk")
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "tournament", "caravan",
                           "--seat", entrant, "--seat", "random", "--games", "2", "--json"],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    (program,) = [row for row in summary["players"] if row["spec"] == entrant]
    assert (program["games"], program["losses"]) == (2, 2)


def test_ctrl_c_of_the_table_ends_the_programs_and_their_children(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    env = {**os.environ, "SPY_DELAY": "0.2"}
    bot = spec(SCRIPTS / "spy.py", tmp_path / "log", pid_file, "child")
    table = subprocess.Popen([str(CARAVAN), "--bvb", "--plain", "--delay", "0",
                              "--bot-abc", bot, "--bot-def", "random"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, env=env)
    pids = pids_in(pid_file, 2)
    time.sleep(0.5)
    table.send_signal(signal.SIGINT)
    table.wait(30)
    assert table.returncode == 130
    assert wait_gone(pids) == []


def test_a_forfeit_ends_the_program_and_its_children(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    env = {**os.environ, "SPY_DELAY": "1", "CARDTABLE_BOT_HARD_MS": "300"}
    bot = spec(SCRIPTS / "spy.py", tmp_path / "log", pid_file, "child")
    done = subprocess.run([str(CARAVAN), "--bvb", "--plain", "--delay", "0", "--bot-abc", bot,
                           "--bot-def", "random"], capture_output=True, text=True, timeout=60,
                          env=env, stdin=subprocess.DEVNULL)
    assert "ABC forfeits: no answer to a move within 0.3 s" in done.stdout
    assert wait_gone(pids_in(pid_file, 2)) == []


def test_bad_limit_in_the_environment_is_one_line() -> None:
    env = {**os.environ, "CARDTABLE_BOT_MOVE_MS": "fast"}
    done = subprocess.run([str(CARAVAN), "--bvb", "--plain", "-b",
                           spec(EXAMPLES / "caravan_random.py")], capture_output=True,
                          text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode != 0
    assert done.stderr.strip() == "caravan: CARDTABLE_BOT_MOVE_MS must be a number (got 'fast')."


def test_sigterm_of_an_obsession_table_ends_its_programs(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    env = {**os.environ, "SPY_DELAY": "0.2"}
    bot = spec(SCRIPTS / "spy.py", tmp_path / "log", pid_file, "child")
    record = tmp_path / "o.jsonl"
    table = subprocess.Popen([str(OBSESSION), "--humans", "0", "--players", "2", "--delay", "0",
                              "--bot", bot, "--record", str(record)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, env=env)
    pids = pids_in(pid_file, 2)
    time.sleep(0.5)
    table.send_signal(signal.SIGTERM)
    table.wait(30)
    assert table.returncode == 143
    assert wait_gone(pids) == []
    assert last_line(record)["cause"] == "sigterm"


def test_a_killed_table_takes_its_program_with_it(tmp_path: Path) -> None:
    if not sys.platform.startswith("linux"):
        import pytest

        pytest.skip("the kernel ends a program whose table was killed only on Linux")
    pid_file = tmp_path / "pids"
    # The program sleeps on its first turn (it does not read its input, so only the kernel
    # can end it), and the table would wait for it a long time.
    env = {**os.environ, "CARDTABLE_BOT_HARD_MS": "100000"}
    bot = spec(SCRIPTS / "misbehave.py", "very_slow", pid_file)
    table = subprocess.Popen([str(CARAVAN), "--bvb", "--plain", "--delay", "0",
                              "--bot-abc", bot, "--bot-def", "random"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL, env=env)
    pids = pids_in(pid_file, 1)
    time.sleep(0.5)
    table.kill()
    table.wait(30)
    assert wait_gone(pids) == []
