"""Keeping an external program's processes in hand: whatever it starts ends with it.

A process group is not enough (a child that calls ``setsid()`` leaves it), so on Linux the
process that runs programs becomes a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``):
a process orphaned anywhere below it is given to it rather than to init, and it finds every
process still below it by walking ``/proc``. :func:`end_descendants` stops them all (so that
none can start another), kills them and reaps those that are its children.

Run as a program (``python -I -S contain.py STATUS_FD HEAD TAIL -- COMMAND ...``), this module
is the supervisor an external seat starts its program through (docs/bots.md, "Processes"):

* it becomes a subreaper, starts ``COMMAND`` with execvp semantics on the standard input and
  output it was given, and writes ``ok`` or ``error ERRNO`` (the program could not be started)
  as one line to ``STATUS_FD``;
* with ``HEAD`` or ``TAIL`` above 0, the program's standard error comes to it through a pipe and
  goes to its own standard error (the log file), the first ``HEAD`` bytes as they come and of
  the rest only the last ``TAIL`` bytes, after a line saying how many were cut; the pipe is read
  to its end at once, so a program writing fast never waits on it;
* when the program exits, every process it left is killed; on SIGTERM (the table ending the
  seat, or the table's death on Linux) the program gets SIGTERM, and after
  :data:`GRACE_SECONDS` it and everything it started get SIGKILL;
* it then exits as the program did (with its status, or by the same signal).

It imports nothing beyond the standard library, so that it starts without ``site``, and the
Austerity hub imports only the functions it needs.
"""

import os
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36

GRACE_SECONDS = 0.5
"""How long the program has between SIGTERM and SIGKILL."""
DRAIN_SECONDS = 2.0
"""How long the rest of the standard error is awaited once every process is ended (a process
outside this tree might still hold the pipe)."""
END_SECONDS = 5.0
"""The longest :func:`end_descendants` keeps looking for processes to end."""

_PRCTL: list[object] = []


def prctl(option: int, value: int) -> bool:
    """Linux's ``prctl(option, value)``; False where there is none or it fails."""
    if not sys.platform.startswith("linux"):
        return False
    if not _PRCTL:
        try:
            import ctypes

            _PRCTL.append(ctypes.CDLL(None, use_errno=True).prctl)
        except (ImportError, OSError, AttributeError):
            _PRCTL.append(None)
    function = _PRCTL[0]
    if function is None:
        return False
    return bool(function(option, value, 0, 0, 0) == 0)  # type: ignore[operator]


def become_subreaper() -> bool:
    """Make this process the child subreaper of everything it starts; False where the kernel
    has no such thing (then only what is still a child or a group member can be found)."""
    return prctl(PR_SET_CHILD_SUBREAPER, 1)


def descendants(root: int) -> list[int]:
    """The processes below ``root`` (children first, then theirs), read from ``/proc``."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    children: dict[int, list[int]] = {}
    for name in names:
        if not name.isdigit():
            continue
        try:
            fd = os.open(f"/proc/{name}/stat", os.O_RDONLY)
        except OSError:
            continue  # gone meanwhile
        try:
            data = os.read(fd, 512)
        except OSError:
            continue
        finally:
            os.close(fd)
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        fields = data[data.rfind(b")") + 2:].split()
        if len(fields) > 1 and fields[1].isdigit():
            children.setdefault(int(fields[1]), []).append(int(name))
    found: list[int] = []
    parents = [root]
    while parents:
        below = [child for parent in parents for child in children.get(parent, ())]
        found += below
        parents = below
    return found


def _signal(pid: int, number: int) -> None:
    try:  # noqa: SIM105 (contextlib costs the start)
        os.kill(pid, number)
    except (ProcessLookupError, PermissionError):
        pass


def _reap(pid: int, flags: int, statuses: dict[int, int]) -> bool:
    """Reap ``pid`` when it is this process's child and has ended; True once it is gone."""
    try:
        done, status = os.waitpid(pid, flags)
    except ChildProcessError:
        return True  # not (or no longer) a child of this process
    if done == pid:
        statuses[pid] = status
        return True
    return False


def end_descendants(seconds: float = END_SECONDS) -> dict[int, int]:
    """Stop every process below this one, kill them all and reap those that are (or become)
    children of this process; returns the wait statuses of the children reaped.

    Every process found is stopped first (SIGSTOP), until a look finds no new one, so that
    none can start another while they are killed; then all get SIGKILL, and the tree is
    looked at again until it is empty (or ``seconds`` have passed). Only processes found below
    this one are reaped: a child it started in another way is waited for by its own owner.
    """
    me = os.getpid()
    deadline = time.monotonic() + seconds
    statuses: dict[int, int] = {}
    stopped: set[int] = set()
    while time.monotonic() < deadline:
        new = [pid for pid in descendants(me) if pid not in stopped]
        if not new:
            break
        for pid in new:
            _signal(pid, 19)  # SIGSTOP (the signal module costs the hub's start)
            stopped.add(pid)
    for pid in stopped:
        _signal(pid, 9)  # SIGKILL
    while time.monotonic() < deadline:
        left = descendants(me)
        if not left:
            break
        for pid in left:
            _signal(pid, 9)
        children = [pid for pid in left if _parent(pid) == me]
        for pid in children:
            _reap(pid, os.WNOHANG, statuses)
        if children or left:
            time.sleep(0.001)
    return statuses


def _parent(pid: int) -> int:
    try:
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
    except OSError:
        return -1
    try:
        data = os.read(fd, 512)
    except OSError:
        return -1
    finally:
        os.close(fd)
    fields = data[data.rfind(b")") + 2:].split()
    return int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else -1


class StderrCap:
    """Writes what it is fed to ``fd``: the first ``head`` bytes as they come; of the rest the
    last ``tail`` bytes, at :meth:`finish`, after a line saying how many were cut."""

    def __init__(self, fd: int, head: int, tail: int) -> None:
        self.fd = fd
        self.head = head
        self.tail = tail
        self.written = 0
        self.total = 0
        self.kept = bytearray()
        self.last = b"\n"

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        room = self.head - self.written
        if room > 0:
            self._write(data[:room])
            self.written += min(room, len(data))
            data = data[room:]
        if data:
            self.kept += data
            if len(self.kept) > 2 * self.tail + 65536:
                del self.kept[:len(self.kept) - self.tail]

    def finish(self) -> None:
        kept = bytes(self.kept[-self.tail:]) if self.tail else b""
        cut = self.total - self.written - len(kept)
        if cut > 0:
            newline = b"" if self.last == b"\n" else b"\n"
            self._write(newline + b"[cardtable] %d bytes of standard error cut here (the first "
                        b"%d and the last %d are kept)\n" % (cut, self.head, self.tail))
        self._write(kept)
        self.kept.clear()

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                done = os.write(self.fd, view)
            except OSError:
                return  # a full disk or a closed log: the rest is lost, the game goes on
            view = view[done:]
        if data:
            self.last = data[-1:]


def _exec_child(command: list[str], report: int, stderr: int) -> None:  # pragma: no cover
    """In the forked child: default signals, death with the supervisor, then the program."""
    import signal

    try:
        signal.set_wakeup_fd(-1)
        for number in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM, signal.SIGCHLD,
                       signal.SIGINT):
            signal.signal(number, signal.SIG_DFL)
        prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))
        if stderr >= 0:
            os.dup2(stderr, 2)
        os.execvp(command[0], command)
    except OSError as error:
        try:  # noqa: SIM105
            os.write(report, str(error.errno or 0).encode())
        except OSError:
            pass
    finally:
        os._exit(127)


def _exit_as(status: int) -> int:
    """Leave as the program did: its exit code, or killed by the same signal."""
    code = os.waitstatus_to_exitcode(status)
    if code >= 0:
        return code
    import signal

    prctl(PR_SET_DUMPABLE, 0)  # no core file of the supervisor's own
    try:  # noqa: SIM105
        signal.signal(-code, signal.SIG_DFL)
    except (OSError, ValueError):
        pass  # SIGKILL and SIGSTOP keep their default
    os.kill(os.getpid(), -code)
    return 128 - code


def supervise(status_fd: int, head: int, tail: int, command: list[str]) -> int:
    """Run ``command`` as described in the module's docstring; the exit status to leave with."""
    import select
    import signal

    os.set_inheritable(status_fd, False)
    become_subreaper()
    ending: list[bool] = []
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    os.set_blocking(wake_read, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGTERM, lambda number, frame: ending.append(True))
    signal.signal(signal.SIGCHLD, lambda number, frame: None)
    # The table dying now ends this process gracefully, and with it the program.
    prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))
    capped = head > 0 or tail > 0
    err_read, err_write = os.pipe() if capped else (-1, -1)
    report_read, report_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - replaced by the program
        _exec_child(command, report_write, err_write)
    os.close(report_write)
    if capped:
        os.close(err_write)
    failure = b""
    while chunk := os.read(report_read, 64):
        failure += chunk
    os.close(report_read)
    try:
        os.write(status_fd, b"error " + failure + b"\n" if failure else b"ok\n")
        os.close(status_fd)
    except OSError:
        pass
    # The program holds the table's pipes; this process lets go of its copies, so that the
    # table sees the end of the program's output when the program's processes are gone.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    cap = StderrCap(2, head, tail) if capped else None
    status: int | None = None
    terminated_at: float | None = None
    killed = False
    while status is None:
        # Reaps the program and any orphan given to this process meanwhile.
        while True:
            try:
                done, code = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                done = 0
            if done == 0:
                break
            if done == pid:
                status = code
        if status is not None:
            break
        timeout: float | None = None
        if ending and terminated_at is None:
            terminated_at = time.monotonic()
            _signal(pid, signal.SIGTERM)
        if terminated_at is not None and not killed:
            timeout = terminated_at + GRACE_SECONDS - time.monotonic()
            if timeout <= 0:
                killed = True
                status = end_descendants().get(pid)
                if status is not None:
                    break
                timeout = None
        watched = [wake_read] + ([err_read] if err_read >= 0 else [])
        ready = select.select(watched, [], [], timeout)[0]
        if wake_read in ready:
            try:  # noqa: SIM105
                os.read(wake_read, 512)
            except BlockingIOError:
                pass
        if err_read >= 0 and err_read in ready:
            err_read = _pump(err_read, cap)
    end_descendants()
    if err_read >= 0:
        deadline = time.monotonic() + DRAIN_SECONDS
        while err_read >= 0:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([err_read], [], [], remaining)[0]:
                break
            err_read = _pump(err_read, cap)
    if cap is not None:
        cap.finish()
    assert status is not None
    return _exit_as(status)


def _pump(fd: int, cap: StderrCap | None) -> int:
    """One read of the program's standard error into ``cap``; -1 (``fd`` closed) at its end."""
    try:
        data = os.read(fd, 1 << 16)
    except OSError:
        data = b""
    if not data:
        os.close(fd)
        return -1
    if cap is not None:
        cap.feed(data)
    return fd


def main(argv: list[str]) -> int:
    """``STATUS_FD HEAD TAIL -- COMMAND ...`` (see the module's docstring)."""
    if len(argv) < 5 or argv[3] != "--":
        os.write(2, b"usage: contain.py STATUS_FD HEAD TAIL -- COMMAND ...\n")
        return 2
    return supervise(int(argv[0]), int(argv[1]), int(argv[2]), argv[4:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
