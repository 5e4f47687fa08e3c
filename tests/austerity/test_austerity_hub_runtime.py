"""The hub at run time, against scripted fake players misbehaving in every documented way."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from austerity_support import HUB, PLAYERS, TIMEOUT, hub, make_fake, pid_alive, read_log, write_deck

from cardtable import __version__
from waiting import wait_until

SHENZI = PLAYERS["shenzi"]

# A scenario where player A reaches its third turn holding Tokens=1,1,1,0,1 (piles 4,4,4,5):
# it takes a wild, then P+B+Y, while B only ever takes wilds.
SCENARIO_DECK = ["P:1:1,0,0,0", "R:2:2,1,0,0", "B:0:0,0,0,5"]
SCENARIO_PREFIX = ["wild\n", "take1,1,1,0\n"]
OPENING = [
    "New card = Bonus P, worth 1, costs 1,0,0,0",
    "New card = Bonus R, worth 2, costs 2,1,0,0",
    "New card = Bonus B, worth 0, costs 0,0,0,5",
]
BEFORE_THIRD_TURN = [
    *OPENING,
    "Player A took a wild",
    "Player B took a wild",
    "Player A drew 1,1,1,0",
    "Player B took a wild",
]
# shenzi's move at that point: card 1 is worth most and A can pay the missing purple with a wild.
SCENARIO_END = [
    "Player A purchased 1 using 1,1,0,0,1",
    "Player B took a wild",
    "Winner(s) A",
]

INVALID_REPLIES = {
    # state checks (§3.4)
    "wild instead of own purple": "purchase0:0,0,0,0,1",
    "over-payment": "purchase0:1,0,0,0,1",
    "colour not needed": "purchase0:1,1,0,0,0",
    "under-payment": "purchase0:0,0,0,0,0",
    "short of a colour without wild": "purchase1:1,1,0,0,0",
    "unaffordable": "purchase2:0,0,0,0,5",
    "index out of range": "purchase3:0,0,0,0,0",
    "take a 2": "take2,1,0,0",
    "take four": "take1,1,1,1",
    "take two": "take1,1,0,0",
    "take none": "take0,0,0,0",
    # grammar (§4.1)
    "leading zero in payment": "purchase1:01,1,0,0,1",
    "leading zero in index": "purchase01:1,1,0,0,1",
    "space before colon": "purchase1 :1,1,0,0,1",
    "trailing space": "purchase1:1,1,0,0,1 ",
    "leading space": " wild",
    "wild with space": "wild ",
    "upper case": "WILD",
    "wild with a letter": "wildA",
    "purchased keyword": "purchased1:1,1,0,0,1",
    "take five values": "take1,1,1,0,0",
    "take three values": "take1,1,1",
    "take empty field": "take1,,1,1",
    "take plus sign": "take+1,1,1,0",
    "take minus sign": "take-1,1,1,0",
    "purchase four values": "purchase1:1,1,0,0",
    "purchase six values": "purchase1:1,1,0,0,1,0",
    "purchase no index": "purchase:1,1,0,0,1",
    "purchase huge index": "purchase4294967296:1,1,0,0,1",
    "purchase beyond int max": "purchase1:2147483648,1,0,0,1",
    "empty line": "",
    "carriage return": "wild\r",
    "nul byte": "wi\x00ld",
    "non-ascii byte": "wild\xe9",
    "unknown keyword": "pass",
    "over-long line": "x" * 5000,
}


def scenario(tmp_path: Path, replies: list[str], points: int = 1, tokens: int = 5,
             b_spec: dict[str, object] | None = None) -> tuple[subprocess.CompletedProcess[bytes],
                                                                Path, Path]:
    deck = write_deck(tmp_path, SCENARIO_DECK)
    log_a, log_b = tmp_path / "a.log", tmp_path / "b.log"
    fake_a = make_fake(tmp_path, "fake-a", replies=replies, log=str(log_a))
    spec_b = {"replies": ["wild\n"] * 50, "log": str(log_b), **(b_spec or {})}
    fake_b = make_fake(tmp_path, "fake-b", **spec_b)
    return hub(str(tokens), str(points), deck, fake_a, fake_b), log_a, log_b


def lines(data: bytes) -> list[str]:
    return data.decode("latin-1").splitlines()


def test_scenario_plays_as_expected_without_misbehaviour(tmp_path: Path) -> None:
    result, log_a, log_b = scenario(tmp_path, SCENARIO_PREFIX)
    assert result.returncode == 0, result.stderr
    assert lines(result.stdout) == BEFORE_THIRD_TURN + SCENARIO_END
    assert result.stderr == b""
    # Both players receive every broadcast, the actor included; only A gets A's dowhat.
    broadcasts = ["tokens5", "newcardP:1:1,0,0,0", "newcardR:2:2,1,0,0", "newcardB:0:0,0,0,5"]
    assert read_log(log_b) == [
        *broadcasts, "wildA", "dowhat", "wildB", "tookA:1,1,1,0", "dowhat", "wildB",
        "purchasedA:1:1,1,0,0,1", "dowhat", "wildB", "eog"]
    assert read_log(log_a) == [
        *broadcasts, "dowhat", "wildA", "wildB", "dowhat", "tookA:1,1,1,0", "wildB", "dowhat",
        "purchasedA:1:1,1,0,0,1", "wildB", "eog"]


@pytest.mark.parametrize("name", sorted(INVALID_REPLIES))
def test_one_invalid_reply_gets_exactly_one_more_dowhat(tmp_path: Path, name: str) -> None:
    bad = INVALID_REPLIES[name] + "\n"
    result, log_a, log_b = scenario(tmp_path, [*SCENARIO_PREFIX, bad, "@auto"])
    assert result.returncode == 0, result.stderr
    assert lines(result.stdout) == BEFORE_THIRD_TURN + SCENARIO_END
    assert result.stderr == b""
    assert read_log(log_a).count("dowhat") == 4
    # The invalid reply is reported to nobody.
    assert read_log(log_b).count("purchasedA:1:1,1,0,0,1") == 1
    assert len(read_log(log_b)) == 14


@pytest.mark.parametrize("name", sorted(INVALID_REPLIES))
def test_two_invalid_replies_are_a_protocol_error(tmp_path: Path, name: str) -> None:
    bad = INVALID_REPLIES[name] + "\n"
    result, log_a, _ = scenario(tmp_path, [*SCENARIO_PREFIX, bad, bad])
    assert result.returncode == 7
    assert lines(result.stdout) == BEFORE_THIRD_TURN
    assert result.stderr == b"Protocol error by client\n"
    assert read_log(log_a)[-3:] == ["dowhat", "dowhat", "eog"]


def test_the_invalid_count_is_per_turn(tmp_path: Path) -> None:
    # One invalid reply on each of two turns is not a protocol error.
    result, log_a, _ = scenario(tmp_path, ["junk\n", "wild\n", "junk\n", "take1,1,1,0\n"])
    assert result.returncode == 0, result.stderr
    assert lines(result.stdout) == BEFORE_THIRD_TURN + SCENARIO_END
    assert read_log(log_a).count("dowhat") == 5


def test_taking_from_an_empty_pile_is_invalid(tmp_path: Path) -> None:
    result, _, _ = scenario(tmp_path, ["take1,1,1,0\n", "take0,1,1,1\n"], tokens=0)
    assert result.returncode == 7
    assert lines(result.stdout) == OPENING
    assert result.stderr == b"Protocol error by client\n"


def test_unrequested_lines_are_used_as_the_next_replies(tmp_path: Path) -> None:
    # Both lines arrive in one write; the second is consumed at A's next turn.
    result, log_a, _ = scenario(tmp_path, ["wild\ntake1,1,1,0\n", "@hang", "@auto"])
    assert result.returncode == 0, result.stderr
    assert lines(result.stdout) == BEFORE_THIRD_TURN + SCENARIO_END
    assert read_log(log_a).count("dowhat") == 3


def test_disconnect_by_exit_reports_the_status(tmp_path: Path) -> None:
    result, _, _ = scenario(tmp_path, ["wild\n", "@exit:3"])
    assert result.returncode == 6
    assert lines(result.stdout) == [*OPENING, "Player A took a wild", "Player B took a wild",
                                    "Game ended due to disconnect"]
    assert result.stderr == b"Player A ended with status 3\nClient disconnected\n"


def test_disconnect_by_closing_the_pipe(tmp_path: Path) -> None:
    result, log_a, _ = scenario(tmp_path, ["@close"])
    assert result.returncode == 6
    assert lines(result.stdout) == [*OPENING, "Game ended due to disconnect"]
    assert result.stderr == b"Client disconnected\n"
    assert read_log(log_a)[-1] == "eog"


def test_missing_newline_then_eof_is_a_disconnect(tmp_path: Path) -> None:
    result, _, _ = scenario(tmp_path, ["@trunc:wild"])
    assert result.returncode == 6
    assert lines(result.stdout) == [*OPENING, "Game ended due to disconnect"]
    assert result.stderr == b"Client disconnected\n"


def test_player_dead_from_the_start_is_noticed_at_its_turn(tmp_path: Path) -> None:
    deck = write_deck(tmp_path, SCENARIO_DECK)
    dead = tmp_path / "dead"
    dead.write_text("#!/bin/sh\nexit 4\n")
    dead.chmod(0o755)
    result = hub("5", "1", deck, make_fake(tmp_path, "a", replies=["wild\n"]), dead)
    assert result.returncode == 6
    assert lines(result.stdout) == [*OPENING, "Player A took a wild",
                                    "Game ended due to disconnect"]
    assert result.stderr == b"Player B ended with status 4\nClient disconnected\n"


def test_non_zero_exit_after_eog_is_reported_on_a_normal_end(tmp_path: Path) -> None:
    result, _, _ = scenario(tmp_path, SCENARIO_PREFIX, b_spec={"eog": "exit:4"})
    assert result.returncode == 0
    assert lines(result.stdout) == BEFORE_THIRD_TURN + SCENARIO_END
    assert result.stderr == b"Player B ended with status 4\n"


def test_shutdown_returns_as_soon_as_players_exit(tmp_path: Path) -> None:
    result, log_a, log_b = scenario(tmp_path, SCENARIO_PREFIX)
    ended = time.time()
    assert result.returncode == 0
    # Timed from the players' receipt of eog (their logs' last write), not from the start:
    # starting three programs on a loaded machine takes its own time. The hub waits for
    # them, not for its two seconds of grace.
    assert read_log(log_a)[-1] == read_log(log_b)[-1] == "eog"
    heard = min(log_a.stat().st_mtime, log_b.stat().st_mtime)
    assert ended - heard < 1.5


def test_player_ignoring_eog_is_killed_after_the_grace_period(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    started = time.monotonic()
    result, _, _ = scenario(tmp_path, SCENARIO_PREFIX,
                            b_spec={"eog": "ignore", "pidfile": str(pidfile)})
    elapsed = time.monotonic() - started
    assert result.returncode == 0
    assert lines(result.stdout) == BEFORE_THIRD_TURN + SCENARIO_END
    assert result.stderr == b"Player B shutdown after receiving signal 9\n"
    # The grace is two seconds; a hub that never killed the player would not end at all.
    assert 2.0 <= elapsed < 30
    # Killed and reaped by the hub: no process, not even a zombie, is left.
    assert not pid_alive(int(pidfile.read_text()))


def wait_for(path: Path, text: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while text not in read_log(path):
        assert time.monotonic() < deadline, f"{text!r} never arrived"
        time.sleep(0.01)


def test_sigint_mid_game(tmp_path: Path) -> None:
    deck = write_deck(tmp_path, SCENARIO_DECK)
    log_a = tmp_path / "a.log"
    fake_a = make_fake(tmp_path, "fake-a", replies=["wild\n", "@hang"], log=str(log_a),
                       eog="exit:5")
    fake_b = make_fake(tmp_path, "fake-b", replies=["wild\n"])
    process = subprocess.Popen([HUB, "5", "1", str(deck), str(fake_a), str(fake_b)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for(log_a, "wildB")
        time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=TIMEOUT)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 10
    assert lines(stdout) == [*OPENING, "Player A took a wild", "Player B took a wild"]
    # No status lines on SIGINT, even for A's exit status 5.
    assert stderr == b"SIGINT caught\n"
    assert read_log(log_a)[-1] == "eog"


def test_timeout_extension_treats_silence_as_disconnect(tmp_path: Path) -> None:
    deck = write_deck(tmp_path, SCENARIO_DECK)
    fake_a = make_fake(tmp_path, "fake-a", replies=["@hang"])
    started = time.monotonic()
    result = hub("--timeout", "0.3", "5", "1", deck, fake_a, SHENZI)
    # The silent player never answers: a hub that waited for it would not end by itself.
    assert time.monotonic() - started < 30
    assert result.returncode == 6
    assert lines(result.stdout) == [*OPENING, "Game ended due to disconnect"]
    assert result.stderr == b"Client disconnected\n"


def test_timeout_does_not_change_a_normal_game(tmp_path: Path) -> None:
    deck = write_deck(tmp_path, SCENARIO_DECK)
    plain = hub("5", "3", deck, SHENZI, SHENZI)
    timed = hub("--timeout", "5", "--", "5", "3", deck, SHENZI, SHENZI)
    assert plain.returncode == timed.returncode == 0
    assert plain.stdout == timed.stdout


@pytest.mark.parametrize("args, status, message", [
    (["--timeout"], 1, b"Usage: austerity tokens points deck player player [player ...]\n"),
    (["--record"], 1, b"Usage: austerity tokens points deck player player [player ...]\n"),
    (["--timeout", "1", "--timeout", "1", "1", "1", "d", "p", "p"], 1,
     b"Usage: austerity tokens points deck player player [player ...]\n"),
    (["--record", "r", "--record", "r", "1", "1", "d", "p", "p"], 1,
     b"Usage: austerity tokens points deck player player [player ...]\n"),
    (["--timeout", "1", "1", "1", "d", "p"], 1,
     b"Usage: austerity tokens points deck player player [player ...]\n"),
    (["--timeout", "0", "1", "1", "missing", "p", "p"], 2, b"Bad argument\n"),
    (["--timeout", "-1", "1", "1", "missing", "p", "p"], 2, b"Bad argument\n"),
    (["--timeout", "x", "1", "1", "missing", "p", "p"], 2, b"Bad argument\n"),
    (["--timeout", "1e3", "1", "1", "missing", "p", "p"], 2, b"Bad argument\n"),
    (["--timeout", "0.5", "1", "1", "missing", "p", "p"], 3, b"Cannot access deck file\n"),
    (["--record", "/nonexistent-dir/r", "1", "1", "missing", "p", "p"], 3,
     b"Cannot access deck file\n"),
    (["--", "--timeout", "1", "1", "missing", "p", "p"], 2, b"Bad argument\n"),
])
def test_extension_option_errors(args: list[str], status: int, message: bytes) -> None:
    result = hub(*args)
    assert (result.returncode, result.stdout, result.stderr) == (status, b"", message)


def test_record_file_that_cannot_be_created(tmp_path: Path) -> None:
    deck = write_deck(tmp_path, SCENARIO_DECK)
    log = tmp_path / "log"
    fake = make_fake(tmp_path, "fake", log=str(log))
    result = hub("--record", tmp_path, "5", "1", deck, fake, fake)
    assert (result.returncode, result.stdout, result.stderr) == (
        8, b"", b"Cannot open record file\n")
    assert not log.exists()


def test_record_extension_writes_the_conversation(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    result, _, _ = scenario(tmp_path, [*SCENARIO_PREFIX, "bogus\n", "@auto"])
    deck = tmp_path / "deck"
    recorded = hub("--record", record, "5", "1", deck, tmp_path / "fake-a", tmp_path / "fake-b")
    # Recording changes nothing the programs print.
    assert (recorded.returncode, recorded.stdout, recorded.stderr) == (
        result.returncode, result.stdout, result.stderr)
    events = [json.loads(line) for line in record.read_text().splitlines()]
    assert events[0] == {"type": "header", "game": "austerity", "format": 2,
                         "cardtable": __version__,
                         "rules": {"tokens": 5, "points": 1, "players": 2}, "seed": None,
                         "seats": [{"seat": "A", "player": str(tmp_path / "fake-a")},
                                   {"seat": "B", "player": str(tmp_path / "fake-b")}]}
    assert events[1] == {"type": "chance", "event": "deck", "cards": SCENARIO_DECK}
    messages = [e for e in events if e["type"] == "message"]
    assert [e["line"] for e in messages if e["event"] == "out"] == lines(result.stdout)
    assert {"type": "message", "event": "recv", "from": "A", "msg": "bogus",
            "valid": False} in events
    assert {"type": "message", "event": "send", "to": "*", "msg": "tokens5"} in events
    assert {"type": "message", "event": "send", "to": "A", "msg": "dowhat"} in events
    assert any(e["type"] == "action" and e["seat"] == "A" for e in events)
    assert events[-2] == {"type": "message", "event": "send", "to": "*", "msg": "eog"}
    assert events[-1] == {"type": "result", "winners": ["A"], "reason": "points",
                          "cause": "points",
                          "details": {"points": [2, 0], "exit": 0,
                                      "status": ["exit 0", "exit 0"]}}


def test_record_of_a_bad_start(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    deck = write_deck(tmp_path, SCENARIO_DECK)
    result = hub("--record", record, "5", "1", deck, SHENZI, tmp_path / "missing")
    assert result.returncode == 5
    events = [json.loads(line) for line in record.read_text().splitlines()]
    assert events[-1] == {"type": "result", "winners": [], "reason": "abandoned",
                          "cause": "badstart",
                          "details": {"points": [0, 0], "exit": 5, "status": ["exit 0", None]}}


def test_shell_script_player_plays_a_whole_game(tmp_path: Path) -> None:
    script = tmp_path / "wild.sh"
    script.write_text('#!/bin/sh\n# Takes a wild at every turn.\n'
                      'while IFS= read -r line; do\n'
                      '  case "$line" in\n'
                      '    dowhat) printf "wild\\n" ;;\n'
                      '    eog) exit 0 ;;\n'
                      '  esac\n'
                      'done\nexit 6\n')
    script.chmod(0o755)
    deck = write_deck(tmp_path, SCENARIO_DECK)
    result = hub("5", "3", deck, script, SHENZI)
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    assert lines(result.stdout)[-1] == "Winner(s) B"
    assert "Player A took a wild" in lines(result.stdout)


LEAVES_A_CHILD = """
import os, sys, time
pidfile, how, program = sys.argv[1], sys.argv[2], sys.argv[3]
if os.fork() == 0:
    if how != "background":
        os.setsid()
    if how == "daemon" and os.fork() != 0:
        os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    with open(pidfile + ".part", "w") as file:
        file.write(str(os.getpid()))
    os.rename(pidfile + ".part", pidfile)
    time.sleep(600)
    os._exit(0)
deadline = time.monotonic() + 60
while not os.path.exists(pidfile) and time.monotonic() < deadline:
    time.sleep(0.01)
os.execv(program, [program, *sys.argv[4:]])
"""


def running(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return pid_alive(pid)
    return "\nState:\tZ" not in status


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="a child subreaper exists only on Linux")
@pytest.mark.parametrize("how", ["background", "setsid", "daemon"])
def test_a_players_background_child_ends_with_the_game(tmp_path: Path, how: str) -> None:
    # The player leaves a child running (in the hub's group, in a session of its own, or
    # orphaned at once as a daemon), then becomes shenzi.
    pidfile = tmp_path / "child.pid"
    launcher = tmp_path / "leaves-a-child"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} {tmp_path / 'leave.py'} "
                        f"{pidfile} {how} {SHENZI} \"$@\"\n")
    launcher.chmod(0o755)
    (tmp_path / "leave.py").write_text(LEAVES_A_CHILD)
    deck = write_deck(tmp_path, SCENARIO_DECK)
    try:
        result = hub("5", "3", deck, launcher, SHENZI)
        assert result.returncode == 0, result.stderr
        assert result.stderr == b""
        assert lines(result.stdout)[-1].startswith("Winner(s)")
        child = int(pidfile.read_text())
        wait_until(lambda: not running(child), "the player's child to end", TIMEOUT)
    finally:
        if pidfile.exists():
            with contextlib.suppress(ValueError, ProcessLookupError):
                os.kill(int(pidfile.read_text()), signal.SIGKILL)


C_PLAYER = r"""
#include <stdio.h>
#include <string.h>
/* Takes three tokens in order P, B, Y, R while it can, else a wild; tracks piles only. */
int main(int argc, char **argv) {
    char line[8192];
    long piles[4] = {0, 0, 0, 0};
    if (argc != 3) return 1;
    while (fgets(line, sizeof line, stdin)) {
        long v[4];
        char who;
        if (strcmp(line, "eog\n") == 0) return 0;
        if (sscanf(line, "tokens%ld", &v[0]) == 1) {
            for (int c = 0; c < 4; c++) piles[c] = v[0];
        } else if (sscanf(line, "took%c:%ld,%ld,%ld,%ld", &who, &v[0], &v[1], &v[2], &v[3]) == 5) {
            for (int c = 0; c < 4; c++) piles[c] -= v[c];
        } else if (sscanf(line, "purchased%c:%*d:%ld,%ld,%ld,%ld", &who, &v[0], &v[1], &v[2],
                          &v[3]) == 5) {
            for (int c = 0; c < 4; c++) piles[c] += v[c];
        } else if (strcmp(line, "dowhat\n") == 0) {
            int marks[4] = {0, 0, 0, 0}, n = 0;
            for (int c = 0; c < 4 && n < 3; c++) if (piles[c] > 0) { marks[c] = 1; n++; }
            if (n == 3) printf("take%d,%d,%d,%d\n", marks[0], marks[1], marks[2], marks[3]);
            else printf("wild\n");
            fflush(stdout);
        }
    }
    return 6;
}
"""


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_c_player_plays_a_whole_game(tmp_path: Path) -> None:
    source = tmp_path / "player.c"
    source.write_text(C_PLAYER)
    binary = tmp_path / "cplayer"
    subprocess.run(["cc", "-std=c99", "-O1", "-o", str(binary), str(source)], check=True,
                   timeout=TIMEOUT)
    deck = write_deck(tmp_path, SCENARIO_DECK)
    result = hub("5", "3", deck, binary, PLAYERS["banzai"], binary)
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    out = lines(result.stdout)
    assert "Player A drew 1,1,1,0" in out
    assert out[-1].startswith("Winner(s) ")


def test_many_players_and_environment_path(tmp_path: Path) -> None:
    deck = write_deck(tmp_path, SCENARIO_DECK)
    env = dict(os.environ, PATH=f"{Path(SHENZI).parent}:{os.environ.get('PATH', '')}")
    result = hub("5", "1", deck, *(["shenzi", "banzai"] * 13), env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith(b"\n")
    assert lines(result.stdout)[-1].startswith("Winner(s) ")


C_DRIVER = r"""
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
/* A minimal hub in C: runs one player through execvp, answers nothing itself, relays the
   player's replies to stdout and prints how the player ended. */
int main(int argc, char **argv) {
    const char *messages[] = {"tokens2\n", "newcardB:1:1,0,0,0\n", "newcardY:0:0,3,0,2\n",
                              "dowhat\n", "tookA:1,1,1,0\n", "tookB:1,1,1,0\n", "dowhat\n",
                              "purchasedA:0:1,0,0,0,0\n", "wildB\n", "eog\n"};
    int to_child[2], from_child[2];
    char reply[256];
    if (argc != 2 || pipe(to_child) || pipe(from_child)) return 1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[0]); close(to_child[1]); close(from_child[0]); close(from_child[1]);
        execlp(argv[1], argv[1], "2", "0", (char *)0);
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    FILE *in = fdopen(from_child[0], "r");
    for (size_t i = 0; i < sizeof messages / sizeof *messages; i++) {
        write(to_child[1], messages[i], strlen(messages[i]));
        if (strcmp(messages[i], "dowhat\n") == 0) {
            if (!fgets(reply, sizeof reply, in)) return 2;
            fputs(reply, stdout);
        }
    }
    int status;
    waitpid(pid, &status, 0);
    printf("exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_our_players_under_a_hub_written_in_c(tmp_path: Path) -> None:
    source = tmp_path / "driver.c"
    source.write_text(C_DRIVER)
    binary = tmp_path / "driver"
    subprocess.run(["cc", "-std=c99", "-D_POSIX_C_SOURCE=200809L", "-o", str(binary),
                    str(source)], check=True, timeout=TIMEOUT)
    # The player is found through PATH by execlp, as a C hub would find it.
    env = dict(os.environ, PATH=f"{Path(SHENZI).parent}:{os.environ.get('PATH', '')}")
    result = subprocess.run([str(binary), "shenzi"], capture_output=True, env=env,
                            timeout=TIMEOUT, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"take1,1,1,0\npurchase0:1,0,0,0,0\nexit 0\n"


def test_closed_stdout_does_not_stop_the_hub(tmp_path: Path) -> None:
    # SIGPIPE is ignored and write errors on stdout are swallowed: the game still ends normally.
    deck = write_deck(tmp_path, SCENARIO_DECK)
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([HUB, "5", "3", str(deck), SHENZI, SHENZI], stdout=write_end,
                                stderr=subprocess.PIPE, timeout=TIMEOUT, check=False)
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (0, b"")


def test_players_start_with_default_signal_dispositions(tmp_path: Path) -> None:
    # The hub ignores SIGPIPE and catches SIGINT; its children must not inherit either.
    script = tmp_path / "sigcheck"
    script.write_text('#!/bin/sh\ngrep SigIgn /proc/self/status > "$SIG_LOG"\n'
                      'while read -r line; do\n'
                      '  case "$line" in dowhat) echo wild ;; eog) exit 0 ;; esac\n'
                      'done\n')
    script.chmod(0o755)
    deck = write_deck(tmp_path, SCENARIO_DECK)
    log = tmp_path / "sig"
    result = hub("5", "1", deck, script, SHENZI, env=dict(os.environ, SIG_LOG=str(log)))
    assert result.returncode == 0, result.stderr
    ignored = int(log.read_text().split()[1], 16)
    assert not ignored & (1 << (signal.SIGPIPE - 1))
    assert not ignored & (1 << (signal.SIGINT - 1))


def test_players_started_as_programs_do_not_inherit_the_hubs_descriptors(
        tmp_path: Path) -> None:
    # A descriptor the hub inherited (inheritable) must not reach a player it execs.
    script = tmp_path / "fdcheck"
    script.write_text('#!/bin/sh\nls /proc/$$/fd > "$FD_LOG"\n'
                      'while read -r line; do\n'
                      '  case "$line" in dowhat) echo wild ;; eog) exit 0 ;; esac\n'
                      'done\n')
    script.chmod(0o755)
    deck = write_deck(tmp_path, SCENARIO_DECK)
    log = tmp_path / "fds"
    read_end, write_end = os.pipe()
    inherited = os.dup2(write_end, 57)  # a number the shell itself does not use
    try:
        result = subprocess.run([HUB, "5", "1", str(deck), str(script), SHENZI],
                                env=dict(os.environ, FD_LOG=str(log)), pass_fds=(inherited,),
                                capture_output=True, timeout=TIMEOUT, check=False)
    finally:
        for fd in (read_end, write_end, inherited):
            os.close(fd)
    assert result.returncode == 0, result.stderr
    descriptors = log.read_text().split()
    assert {"0", "1", "2"} <= set(descriptors) and "57" not in descriptors, descriptors


def test_each_player_receives_every_message_in_order_whatever_the_batching(
        tmp_path: Path) -> None:
    """The hub writes a player's broadcasts together with its next dowhat (or eog); what each
    player reads is still every message the record says was sent to it, in order."""
    import json

    from austerity_support import DECKS

    logs = [tmp_path / f"{name}.log" for name in "abc"]
    fakes = [make_fake(tmp_path, f"fake-{name}", replies=[], log=str(log))
             for name, log in zip("abc", logs, strict=True)]
    record = tmp_path / "game.jsonl"
    result = hub("--record", record, "4", "12", DECKS / "medium.deck", *fakes)
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in record.read_text().splitlines()]
    for letter, log in zip("ABC", logs, strict=True):
        sent = [event["msg"].rstrip("\n") for event in events
                if event.get("event") == "send" and event["to"] in ("*", letter)]
        assert read_log(log) == sent, letter
        assert sent.count("dowhat") > 5 and sent[-1] == "eog"


def test_hub_started_with_its_standard_descriptors_closed_still_plays(tmp_path: Path) -> None:
    """Pipe ends and /dev/null then land on 0, 1 and 2 in the hub; the players (run in forks of
    the hub, or started as programs) must still get the right three descriptors."""
    deck = tmp_path / "deck"
    deck.write_text("P:1:1,0,0,0\nB:2:0,1,1,0\nY:1:0,0,2,1\nR:3:1,1,1,1\n")
    script = f"exec <&- >&- 2>&-; exec {HUB} 3 4 {deck} {SHENZI} {PLAYERS['ed']} {SHENZI}"
    result = subprocess.run(["/bin/sh", "-c", script], capture_output=True, timeout=TIMEOUT,
                            check=False)
    assert result.returncode == 0
