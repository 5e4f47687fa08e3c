"""What a program leaves behind is bounded: its standard error file keeps a first and a last part,
and no process it started outlives the table, not even one in a session of its own."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.agents.external import INFO_BYTES, STDERR_HEAD_BYTES, STDERR_TAIL_BYTES
from cardtable.engine import contain

from .helpers import BIN, SCRIPTS, gone, pids_in, spec, wait_gone

CARAVAN = BIN / "caravan"
LINUX = sys.platform.startswith("linux")
needs_subreaper = pytest.mark.skipif(not LINUX, reason="a child subreaper exists only on Linux")


def stderr_stream(size: int) -> bytes:
    """What ``unruly.py stderr SIZE`` writes."""
    body = size - len(b"FIRST\n") - len(b"LAST\n")
    return (b"FIRST\n" + (b"x" * 99 + b"\n") * (body // 100) + b"y" * (body % 100)
            + b"LAST\n")


@contextlib.contextmanager
def killed_afterwards(pidfile: Path):  # type: ignore[no-untyped-def]
    """Ends the process named in ``pidfile`` after the test, should the table not have."""
    try:
        yield
    finally:
        if pidfile.exists():
            with contextlib.suppress(ValueError, ProcessLookupError):
                os.kill(int(pidfile.read_text()), signal.SIGKILL)


def test_a_flood_of_standard_error_keeps_its_first_and_last_mib(tmp_path: Path) -> None:
    size = 20_000_000
    record = tmp_path / "game.jsonl"
    done = subprocess.run([str(CARAVAN), "--bvb", "--plain", "--seed", "4", "--delay", "0",
                           "--bot-abc", spec(SCRIPTS / "unruly.py", "stderr", size),
                           "--bot-def", "random", "--record", str(record)],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert "WINNER:" in done.stdout and "forfeits" not in done.stdout
    log = (tmp_path / "game.jsonl.ABC.stderr").read_bytes()
    assert len(log) < STDERR_HEAD_BYTES + STDERR_TAIL_BYTES + 4096
    stream = stderr_stream(size)
    cut = size - STDERR_HEAD_BYTES - STDERR_TAIL_BYTES
    marker = re.search(rb"\n?\[cardtable\] (\d+) bytes of standard error cut here [^\n]*\n",
                       log)
    assert marker is not None, log[STDERR_HEAD_BYTES:STDERR_HEAD_BYTES + 200]
    assert int(marker.group(1)) == cut
    assert log[:STDERR_HEAD_BYTES] == stream[:STDERR_HEAD_BYTES]
    assert log.startswith(b"FIRST\n")
    assert log[marker.end():] == stream[-STDERR_TAIL_BYTES:]
    assert log.endswith(b"LAST\n")


def test_standard_error_under_the_cap_is_kept_whole(tmp_path: Path) -> None:
    size = STDERR_HEAD_BYTES + STDERR_TAIL_BYTES // 2
    record = tmp_path / "game.jsonl"
    done = subprocess.run([str(CARAVAN), "--bvb", "--plain", "--seed", "4", "--delay", "0",
                           "--bot-abc", spec(SCRIPTS / "unruly.py", "stderr", size),
                           "--bot-def", "random", "--record", str(record)],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "game.jsonl.ABC.stderr").read_bytes() == stderr_stream(size)


def test_the_notes_of_info_lines_stop_after_a_mib(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    env = {**os.environ, "CARDTABLE_BOT_MOVE_MS": "120000", "CARDTABLE_BOT_HARD_MS": "120000"}
    done = subprocess.run([str(CARAVAN), "--bvb", "--plain", "--seed", "4", "--delay", "0",
                           "--bot-abc", spec(SCRIPTS / "unruly.py", "info", 40_000),
                           "--bot-def", "random", "--record", str(record)],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert "WINNER:" in done.stdout and "forfeits" not in done.stdout
    log = (tmp_path / "game.jsonl.ABC.stderr").read_text()
    assert len(log.encode()) <= INFO_BYTES + 200
    assert log.startswith('[cardtable] ABC info: {"type": "info", "text": "note 0"}\n')
    assert log.count("\n") == log.count("[cardtable] ABC info: ") + 1
    assert log.endswith(f"[cardtable] ABC: info lines past {INFO_BYTES} bytes are not logged\n")


@pytest.mark.parametrize("head, tail, size", [(10, 5, 40), (10, 5, 12), (0, 8, 30),
                                              (10, 0, 30), (10, 5, 15), (4, 4, 100_000)])
def test_the_cap_writes_head_marker_and_tail(tmp_path: Path, head: int, tail: int,
                                             size: int) -> None:
    path = tmp_path / "log"
    data = bytes(range(256)) * (size // 256 + 1)
    data = data[:size]
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        cap = contain.StderrCap(fd, head, tail)
        for start in range(0, size, 7):  # in pieces, as a pipe gives them
            cap.feed(data[start:start + 7])
        cap.finish()
    finally:
        os.close(fd)
    written = path.read_bytes()
    if size <= head + tail:
        assert written == data
        return
    assert written.startswith(data[:head])
    assert written.endswith(data[size - tail:] if tail else b"\n")
    middle = written[head:len(written) - tail]
    assert middle.lstrip(b"\n").startswith(
        b"[cardtable] %d bytes of standard error cut here" % (size - head - tail))


@needs_subreaper
@pytest.mark.parametrize("how", ["setsid", "daemon"])
def test_a_child_in_a_session_of_its_own_ends_with_the_game(tmp_path: Path, how: str) -> None:
    pidfile = tmp_path / "child.pid"
    with killed_afterwards(pidfile):
        done = subprocess.run([str(CARAVAN), "--bvb", "--plain", "--seed", "4", "--delay", "0",
                               "--bot-abc", spec(SCRIPTS / "unruly.py", how, pidfile),
                               "--bot-def", "random"],
                              capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stderr
        assert "WINNER:" in done.stdout and "forfeits" not in done.stdout
        assert wait_gone(pids_in(pidfile, 1), 30) == []


@needs_subreaper
def test_a_killed_table_takes_the_escaped_child_with_it(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    env = {**os.environ, "UNRULY_DELAY": "60", "CARDTABLE_BOT_HARD_MS": "100000"}
    with killed_afterwards(pidfile):
        table = subprocess.Popen([str(CARAVAN), "--bvb", "--plain", "--delay", "0",
                                  "--bot-abc", spec(SCRIPTS / "unruly.py", "setsid", pidfile),
                                  "--bot-def", "random"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 stdin=subprocess.DEVNULL, env=env)
        try:
            (child,) = pids_in(pidfile, 1)
            assert not gone(child)
        finally:
            table.kill()
            table.wait(30)
        assert wait_gone([child], 30) == []


def test_a_program_that_cannot_start_is_one_line() -> None:
    done = subprocess.run([str(CARAVAN), "--bvb", "--plain", "--delay", "0",
                           "--bot-abc", "exec:cardtable-missing-bot --fast",
                           "--bot-def", "random"],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert done.stderr == ("caravan: Cannot start 'cardtable-missing-bot' for ABC: "
                           "No such file or directory.\n")


@needs_subreaper
def test_end_descendants_finds_orphans_given_to_a_subreaper(tmp_path: Path) -> None:
    # In a child of the test (the subreaper setting is for the whole process): a grandchild
    # in a session of its own, orphaned, is ended and reaped.
    pidfile = tmp_path / "grandchild.pid"
    code = ("import os, time\n"
            "from cardtable.engine import contain\n"
            "assert contain.become_subreaper()\n"
            "read, write = os.pipe()\n"
            "middle = os.fork()\n"
            "if middle == 0:\n"
            "    os.close(read)\n"
            "    os.setsid()\n"
            "    if os.fork() == 0:\n"
            f"        open({str(pidfile)!r} + '.part', 'w').write(str(os.getpid()))\n"
            f"        os.rename({str(pidfile)!r} + '.part', {str(pidfile)!r})\n"
            "        os.write(write, str(os.getpid()).encode())\n"
            "        time.sleep(600)\n"
            "    os._exit(0)\n"
            # Blocking reads and waits, no polling: the grandchild's pid comes through the
            # pipe, and once the middle process is reaped its orphan is already ours (the
            # kernel hands a dying process's children to the subreaper before it can be
            # waited for).
            "os.close(write)\n"
            "pid = int(os.read(read, 64))\n"
            "os.waitpid(middle, 0)\n"
            "assert pid in contain.descendants(os.getpid()), 'the orphan is not under us'\n"
            "contain.end_descendants()\n"
            "print(contain.descendants(os.getpid()))\n")
    with killed_afterwards(pidfile):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "[]"
        assert wait_gone(pids_in(pidfile, 1), 30) == []


def test_supervisor_leaves_as_the_program_did(tmp_path: Path) -> None:
    status_read, status_write = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-S", contain.__file__, str(status_write), "0", "0", "--",
             sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGUSR1)"],
            pass_fds=(status_write,), stdin=subprocess.DEVNULL)
        os.close(status_write)
        assert process.wait(60) == -signal.SIGUSR1
        assert os.read(status_read, 64) == b"ok\n"
    finally:
        os.close(status_read)
    process = subprocess.Popen([sys.executable, "-I", "-S", contain.__file__, "1", "0", "0", "--",
                                sys.executable, "-c", "raise SystemExit(7)"],
                               stdout=subprocess.DEVNULL)
    assert process.wait(60) == 7


@needs_subreaper
def test_supervisor_kills_a_program_that_ignores_sigterm_and_its_children(
        tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    program = ("import os, signal, sys, time\n"
               "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
               "if os.fork() == 0:\n"
               "    os.setsid()\n"
               f"    open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
               "    time.sleep(600)\n"
               "    os._exit(0)\n"
               "print('up', flush=True)\n"
               "time.sleep(600)\n")
    status_read, status_write = os.pipe()
    with killed_afterwards(pidfile):
        process = subprocess.Popen([sys.executable, "-I", "-S", contain.__file__,
                                    str(status_write), "0", "0", "--", sys.executable, "-c",
                                    program],
                                   stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                   pass_fds=(status_write,))
        os.close(status_write)
        try:
            assert process.stdout is not None
            assert os.read(status_read, 64) == b"ok\n"
            assert process.stdout.readline() == b"up\n"
            (child,) = pids_in(pidfile, 1)
            process.send_signal(signal.SIGTERM)
            assert process.wait(60) == -signal.SIGKILL
        finally:
            os.close(status_read)
            process.kill()
            process.wait()
        assert wait_gone([child], 30) == []
