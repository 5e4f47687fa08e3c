"""The hub ``austerity``: starts the player programs, runs the game over pipes, reports on stdout.

The structure follows the specification's sections: command line (checks in a fixed order,
each with its exit status), starting players (execvp semantics, failures detected at once),
the turn loop (one re-prompt per turn), the endings and the shutdown procedure (``eog``, up to
two seconds of grace, then SIGKILL, then one status line per player that did not exit with 0).

All protocol I/O is done on raw descriptors, and a player's pipe is read only while its reply is
awaited. The game itself is an :class:`~cardtable.games.austerity.state.AusterityState`: every
reply is validated and applied by ``state.apply``.

What a player is told goes to it in one write when the hub next turns to it: the broadcasts since
its last turn together with its ``dowhat`` (or with ``eog``). Each player receives exactly the
same bytes in the same order as if every broadcast were written at once, but a turn wakes only
the player who moves instead of every player, which is most of the cost of a turn.

Start-up time matters (a whole game takes a few tens of milliseconds), so this module imports
only C modules besides the small Austerity ones: players are started with ``posix_spawn``
rather than ``subprocess`` (which loads threading, signal, contextlib, locale and re), and
signals are set with the C core of ``signal`` (the ``signal`` module loads enum). This
installation's own players (``shenzi``, ``banzai``, ``ed`` run by the hub's interpreter) run
in forks of the hub instead, which spares each of them the interpreter's start-up.
"""

# The C core of the signal module is loaded by the interpreter at start-up anyway.
import _signal  # type: ignore[import-not-found]
import errno
import os
import select
import sys
import time

from cardtable.engine.errors import IllegalAction
from cardtable.games.austerity.codec import (
    DISCONNECT_LINE,
    LINE_LIMIT,
    action_line,
    action_message,
    newcard_line,
    newcard_message,
    parse_action,
    parse_argument,
    winners_text,
)
from cardtable.games.austerity.deck import DeckError, load_deck
from cardtable.games.austerity.rules import Card, letter
from cardtable.games.austerity.state import AusterityState

# Not ``typing.TYPE_CHECKING`` (typing costs the start; mypy reads any constant of this name
# as true). The record module is loaded only when a record is asked for.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

    from cardtable.games.austerity.record import Recorder

USAGE = "Usage: austerity tokens points deck player player [player ...]\n"
BAD_ARGUMENT = "Bad argument\n"
GRACE_SECONDS = 2.0
DEFAULT_PATH = "/bin:/usr/bin"

EXIT_NORMAL = 0
EXIT_USAGE = 1
EXIT_BAD_ARGUMENT = 2
EXIT_BAD_START = 5
EXIT_DISCONNECT = 6
EXIT_PROTOCOL = 7
EXIT_RECORD = 8
EXIT_SIGINT = 10


def _err(text: str) -> None:
    try:  # noqa: SIM105 (contextlib would slow the start)
        os.write(2, text.encode())
    except OSError:
        pass


class _Interrupted(Exception):
    """Raised by the SIGINT handler to leave whatever the hub is blocked in."""


class _SigintGuard:
    """Decides what a SIGINT does: nothing once an ending is decided, later inside a spawn."""

    def __init__(self) -> None:
        self.decided = False
        self.deferred = False
        self.pending = False

    def handler(self, signum: int, frame: object) -> None:
        if self.decided:
            return
        self.pending = True
        if not self.deferred:
            raise _Interrupted

    def check(self) -> None:
        if self.pending and not self.decided:
            raise _Interrupted


class _Process:
    """A started player program: its process id and, once reaped, its exit code (the negated
    signal number when a signal ended it), as ``subprocess.Popen`` reports them."""

    __slots__ = ("pid", "returncode")

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def _reaped(self, flags: int) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, flags)
            except ChildProcessError:
                # Reaped elsewhere: nothing more can be known about it.
                self.returncode = 0
                return 0
            if pid == self.pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def poll(self) -> int | None:
        return self._reaped(os.WNOHANG)

    def wait(self) -> int | None:
        return self._reaped(0)

    def kill(self) -> None:
        if self.returncode is None:
            try:  # noqa: SIM105 (contextlib would slow the start)
                os.kill(self.pid, _signal.SIGKILL)
            except ProcessLookupError:
                pass


class _Seat:
    """One started player: its process, both pipe ends and the bytes read but not yet used."""

    __slots__ = ("buffer", "head", "letter", "pending", "pidfd", "process", "reader", "writer")

    def __init__(self, player: int, process: _Process, writer: int, reader: int) -> None:
        self.letter = letter(player)
        self.process = process
        self.writer = writer
        self.reader = reader
        self.buffer = bytearray()
        # Broadcasts not yet written: they go out with the player's next dowhat (or eog).
        self.pending = bytearray()
        # The first bytes of a line that grew past LINE_LIMIT; the rest is dropped up to "\n".
        self.head: bytes | None = None
        self.pidfd = -1
        # Lets the shutdown sleep until a child exits instead of polling.
        try:  # noqa: SIM105 (contextlib would slow the start)
            self.pidfd = os.pidfd_open(process.pid)
        except (AttributeError, OSError):
            pass


def _spawn_candidates(program: str) -> list[str]:
    """Where execvp would look for ``program``, in order."""
    if "/" in program:
        return [program]
    path = os.environ.get("PATH")
    if path is None:
        path = DEFAULT_PATH
    # An empty PATH entry means the current directory, as for execvp.
    return [os.path.join(entry or ".", program) for entry in path.split(":")]


# What a child must not inherit from the hub's own signal settings: Python ignores SIGPIPE
# and SIGXFSZ, and subprocess restores both to their defaults in the child as well.
_RESTORED_SIGNALS = (_signal.SIGPIPE, _signal.SIGXFSZ)


def _above_standard(fd: int) -> int:
    """``fd`` itself when it is above 2, else a non-inheritable copy above 2 (``fd`` closed).

    When the hub was started with a standard descriptor closed, a pipe end can land on 0, 1 or
    2, where the child's own redirections would overwrite it."""
    if fd > 2:
        return fd
    import fcntl  # only here: a shared library to load, for a rare case

    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    os.close(fd)
    return moved


def _pipe() -> tuple[int, int]:
    """A pipe (read end, write end), both non-inheritable and above the standard descriptors."""
    read, write = os.pipe()
    return _above_standard(read), _above_standard(write)


def _close_inherited() -> None:
    """Mark every descriptor above 2 that the hub inherited as close-on-exec, so that players
    started as programs get only their standard descriptors (as ``close_fds`` would; a player
    run in a fork closes every other descriptor itself)."""
    try:
        descriptors = [int(name) for name in os.listdir("/proc/self/fd")]
    except (OSError, ValueError):
        return
    for fd in descriptors:
        if fd > 2:
            try:  # noqa: SIM105 (contextlib would slow the start)
                os.set_inheritable(fd, False)
            except OSError:
                pass  # the descriptor of the listing itself, closed by now


def _start(path: str, argv: list[str], stdin: int, stdout: int) -> _Process:
    actions = [(os.POSIX_SPAWN_DUP2, stdin, 0), (os.POSIX_SPAWN_DUP2, stdout, 1),
               (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    return _Process(os.posix_spawn(path, argv, os.environ, file_actions=actions,
                                   setsigdef=_RESTORED_SIGNALS))


PLAYER_SCRIPT = b"from cardtable.cli.austerity_player import "
"""How the installed console scripts ``shenzi``, ``banzai`` and ``ed`` call their player."""

_LAST_FD = 1 << 20
"""Above any descriptor a process here can have open (``closerange`` closes up to it)."""


def _own_player(candidate: str) -> str | None:
    """``shenzi``, ``banzai`` or ``ed`` when ``candidate`` is this installation's own console
    script of that player (run by the hub's own interpreter), else None.

    Such a script would start the interpreter with its site start-up only to import the very
    player code the hub has at hand, so the hub runs it in a fork of itself (see
    :func:`_fork_player`). Anything else (another interpreter's script, another program, an
    unreadable file) starts as it is.
    """
    if not os.access(candidate, os.X_OK):
        return None
    try:
        fd = os.open(candidate, os.O_RDONLY)
        try:
            head = os.read(fd, 512)
        finally:
            os.close(fd)
    except OSError:
        return None
    interpreter = sys.executable
    if not interpreter or not head.startswith(b"#!" + os.fsencode(interpreter) + b"\n"):
        return None
    start = head.find(PLAYER_SCRIPT)
    if start < 0:
        return None
    name = head[start + len(PLAYER_SCRIPT):].partition(b"\n")[0].decode("ascii", "replace")
    return name if name in ("shenzi", "banzai", "ed") else None


def _single_threaded() -> bool:
    """Whether this process runs one thread only: a fork taken while another thread holds a
    lock could leave the child stuck, so a hub run inside a threaded program (a server, say)
    starts its players as programs."""
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() <= 1


def _fork_player(name: str, argv: list[str], stdin: int, stdout: int) -> _Process:
    """Run this installation's player ``name`` with ``argv`` in a fork of the hub.

    The child is what the console script would be once started, without the interpreter's
    start-up (most of a player's start): its standard descriptors are the two pipes and
    ``/dev/null``, it keeps no other descriptor of the hub, SIGINT, SIGPIPE and SIGXFSZ are
    back to their defaults, and it runs the player's main loop and leaves with its status.
    """
    # Imported by the hub once, before the first fork: every player then has it at hand.
    from cardtable.games.austerity.player import main as player_main

    # Above the standard descriptors, which the child's own redirections would overwrite.
    null = _above_standard(os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC))
    try:
        pid = os.fork()
    except OSError:
        os.close(null)
        raise
    if pid == 0:  # the player; nothing here may return into the hub
        status = 1
        try:
            for number in (_signal.SIGINT, *_RESTORED_SIGNALS):
                _signal.signal(number, _signal.SIG_DFL)
            os.dup2(stdin, 0)
            os.dup2(stdout, 1)
            os.dup2(null, 2)
            os.closerange(3, _LAST_FD)
            # The hub's own sys.stdin may be None (started with descriptor 0 closed).
            reader = open(0, "rb", closefd=False)  # noqa: SIM115 (the process ends below)
            status = player_main(name, argv[1:], reader.readline)
        finally:
            os._exit(status)
    os.close(null)
    return _Process(pid)


_SUBREAPER: list[bool] = []
"""Holds True once this process is the child subreaper of the programs it starts."""


def _contain() -> None:
    """Before the first player started as a program: make the hub the child subreaper of
    everything it starts (Linux), so that whatever a player leaves running, even in a session
    of its own, stays below the hub and ends with the game (:meth:`Hub._shutdown`). Players run
    in forks of the hub start nothing, and a run with only those pays nothing for it."""
    if not _SUBREAPER:
        from cardtable.engine.contain import become_subreaper

        _SUBREAPER.append(become_subreaper())


def _spawn(program: str, argv: list[str], stdin: int, stdout: int) -> _Process:
    """Start ``program`` with execvp semantics; raise ``OSError`` when it cannot be started."""
    if not program:
        raise FileNotFoundError(errno.ENOENT, "empty program name")
    denied: OSError | None = None
    last: OSError = FileNotFoundError(errno.ENOENT, "not found", program)
    closed = False
    for candidate in _spawn_candidates(program):
        own = _own_player(candidate) if _single_threaded() else None
        if own is not None:
            try:
                return _fork_player(own, argv, stdin, stdout)
            except OSError:
                pass  # started as it is below
        if not closed:
            _contain()
            _close_inherited()
            closed = True
        try:
            return _start(candidate, argv, stdin, stdout)
        except OSError as error:
            if error.errno == errno.ENOEXEC:
                # A text file without "#!": execvp hands it to the shell.
                return _start("/bin/sh", ["/bin/sh", candidate, *argv[1:]], stdin, stdout)
            if error.errno == errno.EACCES:
                denied = error
            elif error.errno not in (errno.ENOENT, errno.ENOTDIR, errno.ESTALE, errno.ENODEV,
                                     errno.ETIMEDOUT):
                raise
            last = error
    raise denied if denied is not None else last


class Hub:
    """One run of the hub: the game, the seats and how the run ends."""

    def __init__(self, guard: _SigintGuard) -> None:
        self.guard = guard
        self.state: AusterityState | None = None
        self.programs: list[str] = []
        self.seats: list[_Seat] = []
        self.timeout: float | None = None
        self.timed_out = False
        self.recorder: Recorder | None = None

    # --- output -------------------------------------------------------------------------------

    def _out(self, text: str) -> None:
        """A stdout line, written at once; a closed stdout is ignored."""
        if self.recorder is not None:
            self.recorder.write("out", line=text[:-1])
        try:  # noqa: SIM105 (contextlib would slow the start)
            os.write(1, text.encode())
        except OSError:
            pass

    def _send(self, seat: _Seat, data: bytes) -> None:
        # A dead player is noticed only when its reply is read (SIGPIPE is ignored).
        try:  # noqa: SIM105 (contextlib would slow the start)
            os.write(seat.writer, data)
        except OSError:
            pass

    def _send_to(self, seat: _Seat, data: bytes) -> None:
        """``data`` to one player, after the broadcasts it has not been sent yet."""
        if self.recorder is not None:
            from cardtable.games.austerity.record import message_text

            self.recorder.write("send", to=seat.letter, msg=message_text(data))
        pending = seat.pending
        if pending:
            pending += data
            data = bytes(pending)
            pending.clear()
        self._send(seat, data)

    def _broadcast(self, data: bytes) -> None:
        """``data`` to every player: kept until the hub next writes to each (see above)."""
        if self.recorder is not None and self.seats:
            from cardtable.games.austerity.record import message_text

            self.recorder.write("send", to="*", msg=message_text(data))
        for seat in self.seats:
            seat.pending += data

    def _deliver_all(self) -> None:
        """Write every player's pending broadcasts, in id order."""
        for seat in self.seats:
            if seat.pending:
                data = bytes(seat.pending)
                seat.pending.clear()
                self._send(seat, data)

    def _new_card(self, card: Card) -> None:
        self._out(newcard_line(card))
        self._broadcast(newcard_message(card))

    # --- input --------------------------------------------------------------------------------

    def _read_reply(self, seat: _Seat) -> bytes | None:
        """The player's next line without ``\\n``; None at EOF (or when the timeout expires)."""
        buffer = seat.buffer
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[:end + 1]
                if seat.head is not None:
                    line, seat.head = seat.head, None
                return line
            if len(buffer) > LINE_LIMIT:
                if seat.head is None:
                    seat.head = bytes(buffer[:LINE_LIMIT + 1])
                buffer.clear()
            if deadline is not None:
                remaining = deadline - time.monotonic()
                ready = remaining > 0 and select.select([seat.reader], [], [], remaining)[0]
                if not ready:
                    self.timed_out = True
                    return None
            try:
                chunk = os.read(seat.reader, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                return None
            buffer += chunk

    # --- players --------------------------------------------------------------------------------

    def start_players(self) -> bool:
        """Start every player in order; False (with nothing left half-made) on the first failure."""
        count = str(len(self.programs))
        for player, program in enumerate(self.programs):
            fds: list[int] = []
            # A SIGINT during a spawn waits until the child is registered, so none is lost.
            self.guard.deferred = True
            try:
                child_in, to_child = _pipe()
                fds += [to_child, child_in]
                from_child, child_out = _pipe()
                fds += [child_out, from_child]
                process = _spawn(program, [program, count, str(player)], child_in, child_out)
            except (OSError, ValueError):
                # ValueError: a program name with an embedded NUL byte.
                for fd in fds:
                    os.close(fd)
                self.guard.deferred = False
                # A SIGINT that came during the failed spawn came before the Bad start.
                self.guard.check()
                return False
            os.close(child_in)
            os.close(child_out)
            self.seats.append(_Seat(player, process, to_child, from_child))
            self.guard.deferred = False
            self.guard.check()
        return True

    def _shutdown(self) -> None:
        """``eog`` to everyone, up to two seconds to exit, then SIGKILL; reap every player; then
        kill and reap every process the players left (on Linux, see :func:`_contain`)."""
        self._broadcast(b"eog\n")
        self._deliver_all()
        deadline = time.monotonic() + GRACE_SECONDS
        waiting = list(self.seats)
        while True:
            waiting = [seat for seat in waiting if seat.process.poll() is None]
            if not waiting:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                for seat in waiting:
                    seat.process.kill()
                    seat.process.wait()
                break
            pidfds = [seat.pidfd for seat in waiting if seat.pidfd >= 0]
            if len(pidfds) == len(waiting):
                select.select(pidfds, [], [], remaining)
            else:
                time.sleep(min(remaining, 0.002))
        if _SUBREAPER and _SUBREAPER[0]:
            # Whatever the players left running (given to the hub as their subreaper).
            from cardtable.engine.contain import end_descendants

            end_descendants()
        # Pipes stay open until every player has been reaped, as the original does.
        for seat in self.seats:
            for fd in (seat.writer, seat.reader, seat.pidfd):
                if fd >= 0:
                    os.close(fd)

    def _status_lines(self) -> str:
        lines = []
        for seat in self.seats:
            code = seat.process.returncode
            if code is None or code == 0:
                continue
            if code > 0:
                lines.append(f"Player {seat.letter} ended with status {code}\n")
            else:
                lines.append(f"Player {seat.letter} shutdown after receiving signal {-code}\n")
        return "".join(lines)

    def finish(self, reason: str, status: int, message: str, stdout_line: str = "") -> int:
        """End the run: stdout line, shutdown, status lines, the ending's message, the record."""
        self.guard.decided = True
        if stdout_line:
            self._out(stdout_line)
        self._shutdown()
        all_started = len(self.seats) == len(self.programs)
        lines = self._status_lines() if all_started and reason != "sigint" else ""
        _err(lines + message)
        if self.recorder is not None:
            winners = []
            points: list[int] = []
            if self.state is not None:
                points = list(self.state.table.points)
                if reason == "normal":
                    winners = [letter(p) for p in self.state.table.winners()]
            statuses: list[str | None] = [None] * len(self.programs)
            for index, seat in enumerate(self.seats):
                code = seat.process.returncode
                if code is not None:
                    statuses[index] = f"exit {code}" if code >= 0 else f"signal {-code}"
            self.recorder.write("end", reason=reason, exit=status, winners=winners,
                                points=points, status=statuses)
            self.recorder.close()
        return status

    # --- the game -------------------------------------------------------------------------------

    def play(self, tokens: int) -> int:
        state = self.state
        assert state is not None
        game = state.game
        seats = self.seats
        recorder = self.recorder
        self._broadcast(b"tokens%d\n" % tokens)
        # The state turned the market up when it was made; the players hear of it now.
        for card in list(state.table.market):
            self._new_card(card)
        while True:
            player = game.current
            seat = seats[player]
            drawn: Card | None = None
            for _attempt in range(2):
                self._send_to(seat, b"dowhat\n")
                line = self._read_reply(seat)
                if line is None:
                    if self.timed_out:
                        if recorder is not None:
                            recorder.write("timeout", player=seat.letter)
                        return self.finish("timeout", EXIT_DISCONNECT, "Client disconnected\n",
                                           DISCONNECT_LINE)
                    return self.finish("disconnect", EXIT_DISCONNECT, "Client disconnected\n",
                                       DISCONNECT_LINE)
                action = parse_action(line) if len(line) <= LINE_LIMIT else None
                valid = False
                if action is not None:
                    # The state's refusal is never shown: the only answer is another dowhat.
                    try:
                        drawn = state.apply(action)
                        valid = True
                    except IllegalAction:
                        pass
                if recorder is not None:
                    recorder.write("recv", **{"from": seat.letter}, msg=line.decode("latin-1"),
                                   valid=valid)
                if valid:
                    break
            else:
                return self.finish("protocol", EXIT_PROTOCOL, "Protocol error by client\n")
            assert action is not None
            self._out(action_line(player, action))
            self._broadcast(action_message(player, action))
            if drawn is not None:
                self._new_card(drawn)
            if game.finished:
                return self.finish("normal", EXIT_NORMAL, "",
                                   f"Winner(s) {winners_text(game.table.winners())}\n")


def _parse_timeout(text: str) -> float | None:
    """``--timeout`` value: a plain decimal number above zero (``3``, ``0.5``), else None."""
    whole, _, fraction = text.partition(".")
    if not whole.isascii() or not whole.isdigit():
        return None
    if "." in text and (not fraction.isascii() or not fraction.isdigit()):
        return None
    value = float(text)
    return value if 0 < value < 1e9 else None


def run(hub: Hub, argv: list[str]) -> int:
    """Everything after the SIGINT handler is in place, in the specification's order."""
    args = list(argv)
    options: dict[str, str] = {}
    while args:
        if args[0] == "--":
            args.pop(0)
            break
        if args[0] not in ("--timeout", "--record"):
            break
        if len(args) < 2 or args[0] in options:
            _err(USAGE)
            return EXIT_USAGE
        options[args[0]] = args[1]
        del args[:2]
    if not 5 <= len(args) <= 29:
        _err(USAGE)
        return EXIT_USAGE
    tokens = parse_argument(args[0])
    points = parse_argument(args[1])
    if tokens < 0 or points < 0:
        _err(BAD_ARGUMENT)
        return EXIT_BAD_ARGUMENT
    if "--timeout" in options:
        hub.timeout = _parse_timeout(options["--timeout"])
        if hub.timeout is None:
            _err(BAD_ARGUMENT)
            return EXIT_BAD_ARGUMENT
    try:
        deck = load_deck(args[2])
    except DeckError as error:
        _err(error.message + "\n")
        return error.status
    hub.programs = args[3:]
    if "--record" in options:
        from cardtable.games.austerity.record import RECORD_VERSION, Recorder

        try:
            hub.recorder = Recorder(options["--record"])
        except (OSError, ValueError):
            _err("Cannot open record file\n")
            return EXIT_RECORD
        hub.recorder.write("start", version=RECORD_VERSION, tokens=tokens, points=points,
                           deck=[card.text() for card in deck], players=hub.programs)
    hub.state = AusterityState(deck, tokens, points, len(hub.programs))
    if not hub.start_players():
        return hub.finish("badstart", EXIT_BAD_START, "Bad start\n")
    return hub.play(tokens)


def main(argv: list[str]) -> int:
    """``austerity [--timeout S] [--record FILE] [--] tokens points deck player player ...``."""
    guard = _SigintGuard()
    # Loss of a player is detected by reading its pipe, never by a signal.
    _signal.signal(_signal.SIGPIPE, _signal.SIG_IGN)
    _signal.signal(_signal.SIGINT, guard.handler)
    hub = Hub(guard)
    try:
        return run(hub, argv)
    except _Interrupted:
        return hub.finish("sigint", EXIT_SIGINT, "SIGINT caught\n")


def run_and_exit(argv: list[str]) -> "NoReturn":
    """The console script ``austerity``: :func:`main`, then the process leaves with
    ``os._exit`` and its status once stdout and stderr are flushed. The hub writes everything
    with ``os.write`` as it goes and has closed its record file and reaped its players by then,
    so the interpreter's teardown would only delay the exit that whoever runs the game waits
    for."""
    status = main(argv)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
