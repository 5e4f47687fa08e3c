"""A seat played by an external program over the JSON-lines bot protocol (docs/bots.md).

``exec:COMMAND`` (the command split like a shell line) starts the program in a process group
of its own, through a supervisor (:mod:`cardtable.engine.contain`) that caps its standard error
and ends whatever it starts; it says ``hello`` and waits for ``ready``; then each turn sends the
seat's observation, its legal actions in notation and the clock, and reads one ``move``.
Everything the program receives is built from the seat's observation. A program that breaks the
protocol or the clock forfeits (:class:`~cardtable.engine.match.Forfeit`), and its processes are
ended — also when the match ends in any other way, when the table exits, and when the table is
interrupted.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from cardtable.agents.external_games import adapter
from cardtable.engine.description import Bot, BotSpec, ExternalAdapter, UnknownBot
from cardtable.engine.errors import GameError, IllegalAction
from cardtable.engine.match import Forfeit
from cardtable.engine.one_line import shortened
from cardtable.engine.protocol import Result

PROTOCOL = 1
MAX_LINE_BYTES = 1 << 20
"""The longest line a program may send (1 MiB); a longer one is not a line of the protocol."""
STDERR_HEAD_BYTES = 1 << 20
STDERR_TAIL_BYTES = 1 << 20
"""What a log file keeps of a program's standard error: its first and its last MiB, with a line
saying how many bytes were cut between them."""
INFO_BYTES = 1 << 20
"""How much of a program's ``info`` lines a log file takes (1 MiB); later ones are not kept."""
CONTAIN = str(Path(__file__).parent.parent / "engine" / "contain.py")
"""The supervisor every program is started through (:mod:`cardtable.engine.contain`)."""
SUPERVISOR_SECONDS = 3.0
"""How long the supervisor has, after SIGTERM, to end the program (it gives the program half a
second) and its other processes, before SIGKILL goes to the whole process group."""


@dataclass(frozen=True)
class Limits:
    """The clock of an external seat (defaults as in docs/bots.md)."""

    startup_s: float = 15.0
    """Time to answer ``hello`` with ``ready``."""
    move_ms: int = 1000
    """Time per move; a slower move earns a warning."""
    hard_ms: int = 3000
    """A move slower than this forfeits at once."""
    warnings: int = 3
    """The warning that forfeits (the third, by default)."""

    @classmethod
    def from_environment(cls) -> Limits:
        """The defaults, overridden by ``CARDTABLE_BOT_STARTUP_S``, ``CARDTABLE_BOT_MOVE_MS``,
        ``CARDTABLE_BOT_HARD_MS`` and ``CARDTABLE_BOT_WARNINGS``."""
        limits = cls()
        values: dict[str, Any] = {}
        for field, variable, kind in (("startup_s", "CARDTABLE_BOT_STARTUP_S", float),
                                      ("move_ms", "CARDTABLE_BOT_MOVE_MS", int),
                                      ("hard_ms", "CARDTABLE_BOT_HARD_MS", int),
                                      ("warnings", "CARDTABLE_BOT_WARNINGS", int)):
            text = os.environ.get(variable)
            if text is None:
                continue
            try:
                value = kind(text)
            except ValueError:
                raise GameError(f"{variable} must be a number (got '{text[:20]}').") from None
            if value <= 0:
                raise GameError(f"{variable} must be above 0 (got '{text[:20]}').")
            values[field] = value
        return cls(**{**limits.__dict__, **values})


_LIVE: set[ExternalSeat] = set()
"""Every program started and not yet ended. Held strongly: a seat whose owner lost it (a web
table stopped while the seat was still being made in a worker thread) is still ended by
:func:`close_all`, at the server's shutdown or at exit, with the processes it started."""


def close_all() -> None:
    """End every external program still running (at exit, and on the table's interrupt)."""
    for seat in list(_LIVE):
        if seat.closed:  # a close under way elsewhere: end the group without waiting for it
            seat._end_group()
            _LIVE.discard(seat)
        else:
            seat.close()


atexit.register(close_all)


def _prctl() -> Any:
    """Linux's ``prctl``, looked up before any fork (the child must not import anything)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """On Linux, have the kernel kill the program if the table dies without ending it."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, int(signal.SIGKILL))


def _started(status: int, seconds: float) -> str | None:
    """Why the supervisor could not start the program (from its one line on ``status``, which
    this closes), or None once it has."""
    line = b""
    deadline = time.monotonic() + seconds
    try:
        while not line.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([status], [], [], remaining)[0]:
                return f"no word from its supervisor within {seconds:g} s"
            chunk = os.read(status, 64)
            if not chunk:
                break
            line += chunk
    finally:
        os.close(status)
    if line == b"ok\n":
        return None
    word = line.removeprefix(b"error ").strip()
    if line.startswith(b"error ") and word.isdigit():
        return os.strerror(int(word))
    return "its supervisor ended before starting it"


class _Reader(threading.Thread):
    """Reads the program's lines into a queue; ``None`` marks the end of its output."""

    def __init__(self, stream: IO[bytes]) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.lines: queue.Queue[bytes | None] = queue.Queue()

    def run(self) -> None:
        try:
            while True:
                line = self.stream.readline(MAX_LINE_BYTES + 1)
                if not line:
                    break
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)


class ExternalSeat:
    """One seat played by a program speaking protocol version 1 on its stdin and stdout."""

    def __init__(self, game: Any, seat: str, command: list[str], *,
                 limits: Limits | None = None, stderr_path: str | Path | None = None,
                 info_path: str | Path | None = None, keep_open: bool = False) -> None:
        found = adapter(game.name)
        if found is None:
            raise UnknownBot(f"exec: seats do not play {game.name} (its player programs speak "
                             "their own protocol).")
        if not command:
            raise UnknownBot("The bot 'exec' needs a command after 'exec:'.")
        self.adapter: ExternalAdapter = found
        self.game = game
        self.seat = seat
        self.command = command
        self.limits = limits or Limits()
        self.keep_open = keep_open
        """Keep the program after a game's result, for the next game (``new_game``); the
        owner then calls :meth:`close` (the table's exit does too)."""
        self.name = command[0]
        self.warnings = 0
        self.refused = False
        self.closed = False
        self._log_path = Path(stderr_path) if stderr_path is not None else None
        self._info_path = Path(info_path) if info_path is not None else self._log_path
        self._process: subprocess.Popen[bytes] | None = None
        self._reader: _Reader | None = None
        self._retry = False
        self._info_bytes = 0
        self._over = False
        self._ready = False
        self._started = 0.0
        self.start()

    # -- the process -------------------------------------------------------------------------

    def start(self) -> None:
        """Start the program and say hello; its ``ready`` is awaited before its first turn (so
        several programs start at once, and a late one forfeits inside the match).

        Raises :class:`UnknownBot` when the command cannot be started at all.
        """
        stderr: Any = subprocess.DEVNULL
        log = None
        if self._log_path is not None:
            try:
                log = open(self._log_path, "ab")  # noqa: SIM115 - handed to the child
            except OSError as error:
                raise UnknownBot(f"Cannot open '{str(self._log_path)[:60]}' for the standard "
                                 f"error of {self.seat}: {error.strerror or error}.") from None
            stderr = log
        head, tail = (STDERR_HEAD_BYTES, STDERR_TAIL_BYTES) if log is not None else (0, 0)
        status_read, status_write = os.pipe()
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-I", "-S", CONTAIN, str(status_write), str(head), str(tail),
                 "--", *self.command],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                process_group=0, close_fds=True, pass_fds=(status_write,),
                preexec_fn=_die_with_parent if _PRCTL is not None else None)
        except OSError as error:
            os.close(status_read)
            raise UnknownBot(f"Cannot start '{self.command[0][:60]}' for {self.seat}: "
                             f"{error.strerror or error}.") from None
        finally:
            os.close(status_write)
            if log is not None:
                log.close()
        failure = _started(status_read, self.limits.startup_s)
        if failure is not None:
            self._end_group()
            raise UnknownBot(f"Cannot start '{self.command[0][:60]}' for {self.seat}: "
                             f"{failure}.")
        _LIVE.add(self)
        assert self._process.stdout is not None
        self._reader = _Reader(self._process.stdout)
        self._reader.start()
        self._started = time.monotonic()
        self._send({"type": "hello", "protocol": PROTOCOL, "game": self.game.name,
                    "seat": self.seat, "seats": list(self.game.seats),
                    "rules": self.adapter.rules_json(self.game), "clock": self._clock()},
                   quiet=True)

    def _await_ready(self) -> None:
        left = self.limits.startup_s - (time.monotonic() - self._started)
        ready = self._read(left, "ready", "hello", shown_s=self.limits.startup_s)
        self._ready = True
        name = ready.get("name")
        if isinstance(name, str) and name.strip():
            self.name = name.strip()[:40]

    def close(self) -> None:
        """Say ``quit`` and end the program and its process group (never raises). A close
        already under way in another thread is not waited for: :func:`close_all` ends the
        group itself (the server may be exiting while a table's thread still closes)."""
        if self.closed:
            return
        self.closed = True
        process = self._process
        if process is None:
            _LIVE.discard(self)
            return
        try:
            if process.poll() is None:
                self._send({"type": "quit"}, quiet=True)
                if process.stdin is not None:
                    process.stdin.close()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(0.5)
        except OSError:
            pass
        self._end_group()
        _LIVE.discard(self)

    def _stop_supervisor(self) -> None:
        """SIGTERM to the supervisor, which ends the program and everything it started (see
        :mod:`cardtable.engine.contain`); then SIGKILL to the process group, should anything
        of it be left (a supervisor that did not end in time, say)."""
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(SUPERVISOR_SECONDS)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(5)

    def _end_group(self) -> None:
        """End the program with everything it started, and release its streams."""
        process = self._process
        if process is None:
            return
        self._stop_supervisor()
        if self._reader is not None:
            # The reader sees the end of the output once the group is gone; closing the
            # stream under a reader still blocked in it would wait for that reader.
            self._reader.join(1.0)
        streams = [process.stdin]
        if self._reader is None or not self._reader.is_alive():
            streams.append(process.stdout)
        for stream in streams:
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    # -- the seat ------------------------------------------------------------------------------

    def choose(self, observation: Any) -> Any:
        if self._over:
            self._over = False
            self.warnings = 0
            self.refused = self._retry = False
            self._send({"type": "new_game", "game": self.game.name, "seat": self.seat,
                        "seats": list(self.game.seats),
                        "rules": self.adapter.rules_json(self.game), "clock": self._clock()})
        if not self._ready:
            self._await_ready()
        if self._retry:
            # The match loop asks again after a refusal: the error went out in ``rejected``,
            # and the program's answer to it is the move.
            self._retry = False
            return self._move(observation)
        self.refused = False
        legal = self.adapter.legal(self.game, observation)
        self._send({"type": "turn", "observation": self.adapter.observation_json(observation),
                    "legal": list(legal), "clock": self._clock()})
        return self._move(observation)

    def rejected(self, error: IllegalAction) -> None:
        self._refuse(str(error))
        self._retry = True

    def update(self, observation: Any) -> None:
        """Tell the program the table as it now stands (after another seat's move)."""
        if not self.closed:
            view = self.adapter.observation_json(observation)
            self._send({"type": "update", "observation": view}, quiet=True)

    def match_over(self, observation: Any, result: Result | None) -> None:
        """Send the result (when the game has one), then end the program (unless it is kept
        open for another game and the game was not cut short)."""
        self._over = True
        try:
            if result is not None and not self.closed and self._alive():
                self._send({"type": "result", "winners": list(result.winners),
                            "reason": result.reason,
                            "details": _plain(result.details),
                            "observation": self.adapter.observation_json(observation)},
                           quiet=True)
        finally:
            if not self.keep_open or result is None:
                self.close()

    # -- the protocol ---------------------------------------------------------------------------

    def _refuse(self, message: str) -> None:
        if self.refused:
            raise Forfeit(self.seat, f"a second refused move ({message})")
        self.refused = True
        self._send({"type": "error", "message": message})

    def _move(self, observation: Any) -> Any:
        started = time.monotonic()
        reply = self._read(self.limits.hard_ms / 1000, "move", "a move")
        elapsed_ms = (time.monotonic() - started) * 1000
        if elapsed_ms > self.limits.move_ms:
            self.warnings += 1
            self._info(f"{self.seat}: move took {elapsed_ms:.0f} ms (limit {self.limits.move_ms}"
                       f" ms), warning {self.warnings} of {self.limits.warnings}")
            if self.warnings >= self.limits.warnings:
                raise Forfeit(self.seat, f"over the move time limit {self.warnings} times "
                                         f"({self.limits.move_ms} ms)")
        text = reply.get("move")
        if not isinstance(text, str):
            raise Forfeit(self.seat, "its move message has no 'move' string")
        try:
            return self.adapter.parse(self.game, observation, text)
        except (GameError, ValueError) as error:
            self._refuse(str(error))
            return self._move(observation)

    def _read(self, timeout_s: float, wanted: str, what: str,
              shown_s: float | None = None) -> dict[str, Any]:
        """The next message of type ``wanted``; ``info`` lines are logged on the way."""
        assert self._reader is not None
        deadline = time.monotonic() + timeout_s
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._reader.lines.get(timeout=max(left, 0))
            except queue.Empty:
                limit = timeout_s if shown_s is None else shown_s
                raise Forfeit(self.seat, f"no answer to {what} within {limit:g} s") from None
            if line is None:
                raise Forfeit(self.seat, self._ended_why())
            if len(line) > MAX_LINE_BYTES:
                raise Forfeit(self.seat, f"a line longer than {MAX_LINE_BYTES} bytes")
            try:
                message = json.loads(line)
            except (ValueError, RecursionError):
                raise Forfeit(self.seat, f"a line that is not JSON: {_shown(line)}") from None
            if not isinstance(message, dict):
                raise Forfeit(self.seat, f"a line that is not a JSON object: {_shown(line)}")
            kind = message.get("type")
            if kind == "info":
                self._info_line(line)
                continue
            if kind != wanted:
                shown = kind if isinstance(kind, str) else json.dumps(kind)
                raise Forfeit(self.seat, f"a message of type '{str(shown)[:20]}' where "
                                         f"'{wanted}' was expected")
            return message

    def _ended_why(self) -> str:
        process = self._process
        code = None
        if process is not None:
            try:
                code = process.wait(1)
            except subprocess.TimeoutExpired:
                code = None
        if code is None:
            return "its program closed its output (EOF)"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            return f"its program was killed by {name}"
        return f"its program exited with status {code}"

    def _send(self, message: dict[str, Any], *, quiet: bool = False) -> None:
        process = self._process
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        try:
            assert process is not None and process.stdin is not None
            process.stdin.write(data)
            process.stdin.flush()
        except (OSError, ValueError, AssertionError):
            if quiet:
                return
            raise Forfeit(self.seat, self._ended_why()) from None

    def _alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def _clock(self) -> dict[str, Any]:
        return {"move_ms": self.limits.move_ms, "hard_ms": self.limits.hard_ms,
                "warnings": self.warnings, "max_warnings": self.limits.warnings}

    def _info_line(self, line: bytes) -> None:
        """Log an ``info`` line, up to :data:`INFO_BYTES` of them, then say that no more are."""
        if self._info_bytes > INFO_BYTES:
            return
        text = f"{self.seat} info: {_shown(line)}"
        self._info_bytes += len(text) + 13
        if self._info_bytes > INFO_BYTES:
            text = f"{self.seat}: info lines past {INFO_BYTES} bytes are not logged"
        self._info(text)

    def _info(self, text: str) -> None:
        if self._info_path is None:
            return
        try:
            with open(self._info_path, "a", encoding="utf-8") as log:
                log.write(f"[cardtable] {text}\n")
        except OSError:
            pass


def _plain(value: Any) -> Any:
    """``value`` with tuples as lists and anything else JSON cannot hold as text."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _shown(line: bytes) -> str:
    text = line.decode("utf-8", "replace").strip()
    return shortened(text, 60)


def split_command(text: str) -> list[str]:
    """``COMMAND`` split like a shell line; raises :class:`UnknownBot` when it cannot be."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise UnknownBot(f"The command of 'exec:{text[:40]}' cannot be read ({error}).") from None
    if not words:
        raise UnknownBot("The bot 'exec' needs a command after 'exec:'.")
    return words


def stderr_path_from_environment(seat: str) -> Path | None:
    """Where the program's stderr goes: ``CARDTABLE_BOT_LOG_DIR/SEAT-PID.log``, else nowhere."""
    directory = os.environ.get("CARDTABLE_BOT_LOG_DIR")
    if not directory:
        return None
    return Path(directory) / f"{seat}-{os.getpid()}-{time.monotonic_ns()}.log"


def _factory(game: Any, spec: BotSpec, seat: str, seed: int | str) -> ExternalSeat:
    return ExternalSeat(game, seat, split_command(spec.raw), limits=Limits.from_environment(),
                        stderr_path=stderr_path_from_environment(seat))


def described_bot() -> Bot:
    """``exec:COMMAND``, for every game whose description has an external adapter."""
    return Bot("exec", _factory, "an external program speaking the JSON-lines bot protocol "
               "(docs/bots.md)", raw=True)
