"""``cardtable bench austerity``: one game as processes, timed from outside, medians over runs.

Three figures, each the median (with the fastest and slowest) of ``--runs`` runs after one
warm-up run:

* **whole game**: the wall time of the ``austerity`` program playing one game with its player
  programs (``austerity TOKENS POINTS DECK PLAYER ...``), from start to exit;
* **whole game CPU**: the user and system CPU time of that same run, the hub's and every player's
  it reaped (the operating system's accounting, from ``wait4``). On a busy machine the wall time
  follows the load (every turn waits for two processes to be scheduled); the CPU time moves far
  less, so it is the figure to compare versions by;
* **player ready**: for each player program, the time from the hub's spawn call (the very
  function the hub uses) to the player's first reply, a ``dowhat`` being sent at once. For this
  installation's own players that call forks (see ``hub._fork_player``), so the figure is the
  fork's and the first answer's, not an interpreter's start-up.

The programs are looked up where this Python installs its console scripts first, then on
``PATH``, as the hub does for its players.

When Python may not write bytecode (``PYTHONDONTWRITEBYTECODE``) and the package's modules have
none up to date (an editable install writes none), every start of the hub compiles them again,
which costs more than the rest of its start-up: the bench says so on stderr before it measures.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import sysconfig
import time
from collections.abc import Callable
from functools import partial

from cardtable.engine.error_line import OneLineArgumentParser
from cardtable.games.austerity import hub
from cardtable.games.austerity.strategies import STRATEGIES


def search_path() -> str:
    """``PATH`` with this installation's scripts directory first."""
    scripts = sysconfig.get_path("scripts")
    return os.pathsep.join([scripts, os.environ.get("PATH", hub.DEFAULT_PATH)])


def whole_game(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds of wall time and of CPU time (user and system, the hub's and its reaped
    players') for one run of the hub; raises RuntimeError when it fails.

    Started with ``posix_spawn`` and its output sent to ``/dev/null``, so that the figure holds
    as little of this process's own work as possible."""
    null = os.open(os.devnull, os.O_RDWR)
    try:
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=[
            (os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1),
            (os.POSIX_SPAWN_DUP2, null, 2)])
        _, wait_status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
    finally:
        os.close(null)
    status = os.waitstatus_to_exitcode(wait_status)
    if status != 0:
        raise RuntimeError(f"'{' '.join(argv)}' ended with status {status}")
    return elapsed, usage.ru_utime + usage.ru_stime


def player_ready(program: str, players: int) -> float:
    """Seconds from spawning ``program`` (as the hub does) to its first reply to ``dowhat``."""
    child_in, to_child = os.pipe()
    from_child, child_out = os.pipe()
    start = time.perf_counter()
    try:
        process = hub._spawn(program, [program, str(players), "0"], child_in, child_out)
    finally:
        os.close(child_in)
        os.close(child_out)
    try:
        os.write(to_child, b"dowhat\n")
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = os.read(from_child, 4096)
            if not chunk:
                break
            reply += chunk
        elapsed = time.perf_counter() - start
        os.write(to_child, b"eog\n")
    finally:
        os.close(to_child)
        os.close(from_child)
        process.wait()
    if not reply.endswith(b"\n"):
        raise RuntimeError(f"{program} gave no reply to dowhat")
    return elapsed


def spread(seconds: list[float]) -> tuple[float, float, float]:
    """(median, min, max) of ``seconds``, in milliseconds."""
    times = [value * 1000 for value in seconds]
    return statistics.median(times), min(times), max(times)


def stale_bytecode(sources: list[str]) -> list[str]:
    """The source files among ``sources`` whose cached bytecode is missing or no longer matches
    them, so that Python compiles them on every import when it may not write bytecode.

    The check is Python's own for a timestamp-based ``.pyc``: the source's modification time
    and size recorded in its header; a hash-based ``.pyc`` counts as up to date."""
    stale = []
    for source in sources:
        try:
            with open(importlib.util.cache_from_source(source), "rb") as cached:
                header = cached.read(16)
            status = os.stat(source)
        except (OSError, ValueError, NotImplementedError):
            stale.append(source)
            continue
        if len(header) < 16 or header[:4] != importlib.util.MAGIC_NUMBER:
            stale.append(source)
        elif int.from_bytes(header[4:8], "little") & 1:
            continue  # hash-based: checked (or trusted) by Python as the file says
        elif (int.from_bytes(header[8:12], "little") != int(status.st_mtime) & 0xFFFFFFFF
              or int.from_bytes(header[12:16], "little") != status.st_size & 0xFFFFFFFF):
            stale.append(source)
    return stale


def script_sources(script: str, package: str) -> list[str]:
    """The source files of the modules that the console script ``script`` of this installation
    imports to reach its function (its module and the packages holding it, below the
    ``cardtable`` package in the folder ``package``), found from the installed entry points
    without importing them; empty when no such script is installed."""
    from importlib.machinery import PathFinder
    from importlib.metadata import entry_points

    sources = []
    for entry in entry_points(group="console_scripts", name=script):
        top, *names = entry.module.split(".")
        if top != "cardtable":
            continue
        folders, dotted = [package], top
        for name in names:
            dotted += "." + name
            spec = PathFinder.find_spec(dotted, folders)
            if spec is None or not isinstance(spec.origin, str):
                break
            sources.append(spec.origin)
            folders = list(spec.submodule_search_locations or ())
    return sources


def bytecode_note() -> str | None:
    """A note when the hub will compile the package's modules on every start, else None."""
    if not sys.dont_write_bytecode:
        return None  # the warm-up run writes whatever bytecode is missing
    # What the hub and its forked players load, besides this module's own; the console
    # script's module (the command line's, above the game) is found without importing it.
    import cardtable.games.austerity.player  # noqa: F401 (imported for what it loads)

    sources = []
    for name, module in list(sys.modules.items()):
        source = getattr(module, "__file__", None)
        if name.split(".")[0] == "cardtable" and isinstance(source, str) \
                and source.endswith(".py"):
            sources.append(source)
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sources += [source for source in script_sources("austerity", package)
                if source not in sources]
    stale = stale_bytecode(sources)
    if not stale:
        return None
    root = os.path.dirname(package)
    return (f"cardtable bench austerity: note: {len(stale)} of {len(sources)} cardtable "
            "modules loaded here lack up-to-date bytecode and PYTHONDONTWRITEBYTECODE is set: "
            "every start of the hub compiles them, and the figures include that; "
            f"'{sys.executable} -m compileall -q {root}' writes it")


def timed(measure: Callable[[], float], runs: int) -> tuple[float, float, float]:
    """(median, min, max) of ``runs`` measurements after one warm-up, in milliseconds."""
    measure()
    return spread([measure() for _ in range(runs)])


def figure_line(name: str, figures: tuple[float, float, float]) -> str:
    median, low, high = figures
    return f"{name:<22} median {median:7.1f}   min {low:7.1f}   max {high:7.1f}"


def main(argv: list[str]) -> int:
    parser = OneLineArgumentParser(
        prog="cardtable bench austerity",
        description="Time one Austerity game as processes (the hub and its player programs) "
                    "and each player's start, as medians over several runs.")
    parser.add_argument("--deck", required=True, help="deck file of the game")
    parser.add_argument("--tokens", type=int, default=5, help="tokens per pile (default 5)")
    parser.add_argument("--points", type=int, default=15, help="points to win (default 15)")
    parser.add_argument("--players", default="shenzi,banzai,ed",
                        help="comma list of player programs (default shenzi,banzai,ed)")
    parser.add_argument("--runs", type=int, default=20, help="timed runs (default 20)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:
        return 0 if done.code == 0 else 1
    players = args.players.split(",")
    if args.runs < 1 or args.tokens < 0 or args.points < 0 or not 2 <= len(players) <= 26 \
            or any(name not in STRATEGIES for name in players):
        print("cardtable bench austerity: --runs must be >= 1, --tokens and --points >= 0, "
              f"--players 2 to 26 of {', '.join(STRATEGIES)}", file=sys.stderr)
        return 1
    if not os.path.isfile(args.deck):
        print(f"cardtable bench austerity: no deck file '{args.deck}'", file=sys.stderr)
        return 1
    note = bytecode_note()
    if note is not None:
        print(note, file=sys.stderr)
    env = dict(os.environ, PATH=search_path())
    command = ["austerity", str(args.tokens), str(args.points), args.deck, *players]
    print(f"austerity bench: {' '.join(command)}; {args.runs} runs after one warm-up; "
          "milliseconds, wall (CPU: user + system of the hub and its players)")
    # The hub and the readiness probe look programs up on PATH: this installation's first.
    os.environ["PATH"] = env["PATH"]
    try:
        hub_path = next((path for path in hub._spawn_candidates("austerity")
                         if os.access(path, os.X_OK)), "austerity")
        game = partial(whole_game, [hub_path, *command[1:]], env)
        game()
        games = [game() for _ in range(args.runs)]
        print(figure_line("whole game", spread([wall for wall, _ in games])))
        print(figure_line("whole game CPU", spread([cpu for _, cpu in games])))
        for name in dict.fromkeys(players):
            print(figure_line("player ready: " + name,
                              timed(partial(player_ready, name, len(players)), args.runs)))
    except (OSError, RuntimeError) as error:
        print(f"cardtable bench austerity: {error}", file=sys.stderr)
        return 1
    return 0
