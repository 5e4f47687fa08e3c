"""``cardtable bench web``: the web server under load.

Starts ``cardtable serve`` on loopback (a real uvicorn process on a temporary SQLite file, bots
without delay), creates N tables of a person against a bot, and plays them all at once through
WebSocket clients in this process. The move round trip is the time from sending a move to
receiving the state frame that shows it; the report gives its p50/p95/p99, the moves per
second (the clients' moves, and every move the server applied, bots' included) and the
server's CPU time per move.

``--servers K`` starts K server processes on one PostgreSQL database (``--db``) and plays
tables of two people instead, whose two seats sit on different servers (table t is made on
server t mod K, where its first seat plays; its second seat plays through server t+1 mod K):
every move then crosses servers, forwarded to the table's owner or fanned out to the other
one. The CPU time is the sum over the server processes. ``--together`` plays both seats of
a table through the server it was made on instead: the tables are spread over the servers and
no move crosses, which tells what K processes cost apart from what crossing costs.

The server runs with its rate limits on. Every table is made and played from this one client,
so the limits on new tables and on WebSockets open at once are raised to the number of tables
(``--rate-limits`` sets them all; the report's first line shows those in effect).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from cardtable.engine.error_line import OneLineArgumentParser, print_error

if TYPE_CHECKING:
    from cardtable.web.limits import Limits

PROG = "cardtable bench web"


def parser() -> OneLineArgumentParser:
    parse = OneLineArgumentParser(prog=PROG, description=__doc__.split("\n\n")[1] if __doc__
                                  else None)
    parse.add_argument("--tables", type=int, default=500, metavar="N",
                       help="concurrent tables (default 500)")
    parse.add_argument("--moves", type=int, default=20, metavar="M",
                       help="moves each client plays before it stops (default 20)")
    from cardtable.engine.game_registry import names

    games = names()
    parse.add_argument("--game", default=games[0], choices=games,
                       help=f"the game (default {games[0]})")
    parse.add_argument("--bot", default=None,
                       help="the opponent (default: random)")
    parse.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                       help="each client waits a random 0.5x to 1.5x SECONDS before each move, "
                       "as people do (default 0: every client moves at once)")
    parse.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    parse.add_argument("--db", default=None, metavar="URL",
                       help="the server's database (default: a temporary SQLite file)")
    parse.add_argument("--rate-limits", default=None, metavar="SPEC",
                       help="the server's rate limits (cardtable serve --rate-limits; default: "
                       "the server's, with create=N/60 and sockets=N for N tables made and "
                       "played from this one client; sockets=2N with --servers)")
    parse.add_argument("--servers", type=int, default=None, metavar="K",
                       help="K server processes on the one database of --db (PostgreSQL when "
                       "K > 1), playing tables of two people whose seats sit on different "
                       "servers (default: one server, a person against a bot)")
    parse.add_argument("--together", action="store_true",
                       help="with --servers: both seats of a table play through the server "
                       "the table was made on, so that no move crosses servers (default: "
                       "its two seats on two servers, every move crossing)")
    return parse


MAX_SERVERS = 16
LOG_LINES = 10
"""Lines of each server's log shown when clients failed."""
RETRIES = 20
"""How many times a client sends a move the server could not save again."""
SILENCE = 60.0
"""A client that gets no frame for this long fails (its table stopped)."""


def bench_limits(tables: int, sockets_per_table: int = 1) -> Limits:
    """The server's default limits, with room for ``tables`` new tables at once and their
    WebSockets (``sockets_per_table`` each) open from the bench's one client."""
    from dataclasses import replace

    from cardtable.web.limits import Limits, Rate

    defaults = Limits()
    create = defaults.create
    if create is not None and create.count < tables:
        create = Rate(tables, create.seconds)
    sockets = defaults.sockets
    if sockets is not None and sockets < tables * sockets_per_table:
        sockets = tables * sockets_per_table
    return replace(defaults, create=create, sockets=sockets)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


class Totals:
    def __init__(self) -> None:
        self.round_trips: list[float] = []
        self.client_moves = 0
        self.plies: dict[str, int] = {}
        """The last ply any client of each table saw (the moves the servers applied)."""
        self.finished = 0
        self.retries = 0
        """Moves sent again after the server could not save them."""
        self.failures: list[str] = []

    def server_moves(self) -> int:
        return sum(self.plies.values())


async def _client(url: str, token: str, moves: int, chooser: random.Random,
                  totals: Totals, think: float, last: int | None = None,
                  counts: bool = True) -> None:
    """One seat's client: ``moves`` moves, or (a table of two people, ``last`` set) moves
    until the table's ply ``last``; ``counts``: this client counts the table's moves and
    its end (one client of each table does)."""
    import websockets

    from cardtable.web.hand_over import SAVE_FAILED

    table = url.split("/api/tables/")[-1]  # (its two clients may play through two servers)
    async with websockets.connect(f"{url}?token={token}", max_size=1 << 22,
                                  open_timeout=SILENCE) as ws:
        ply = -1
        sent_at: float | None = None
        sent_ply = 0
        played = 0
        retries = 0
        move = ""
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), SILENCE)
            except TimeoutError:
                totals.failures.append(f"no frame for {SILENCE:.0f} s at ply {ply}")
                return
            frame = json.loads(raw)
            kind = frame.get("type")
            if kind == "error":
                if frame.get("message") == SAVE_FAILED and sent_at is not None \
                        and retries < RETRIES:
                    # Not saved (the table's server changes hands): a person tries again.
                    retries += 1
                    totals.retries += 1
                    await asyncio.sleep(0.1 * retries)
                    await ws.send(json.dumps({"type": "move", "move": move}))
                    continue
                totals.failures.append(frame.get("message", "?"))
                return
            if kind != "state":
                continue
            ply = frame["ply"]
            totals.plies[table] = max(totals.plies.get(table, 0), ply)
            if sent_at is not None and ply > sent_ply:
                totals.round_trips.append(time.perf_counter() - sent_at)
                sent_at = None
            if frame["result"] is not None:
                totals.finished += counts
                break
            if last is not None and ply >= last:
                break
            if sent_at is None and frame["legal"]:
                if last is None and played >= moves:
                    break
                legal = frame["legal"]
                plays = [move for move in legal if move.split(":")[-1][:1] in ("P", "p")]
                move = chooser.choice(plays or legal)
                if think > 0:
                    await asyncio.sleep(think * (0.5 + chooser.random()))
                sent_ply = ply
                retries = 0
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": move}))
                played += 1
                totals.client_moves += 1


def seat_servers(table: int, seats: int, servers: int, together: bool = False) -> list[int]:
    """The servers (by number) through which the seats of the ``table``-th table play: the
    table is made on server ``table`` mod ``servers``; its seats go round the servers from
    there, or (``together``) all play through that one."""
    home = table % servers
    return [home if together else (home + seat) % servers for seat in range(seats)]


async def _tables(bases: list[str], options: argparse.Namespace
                  ) -> list[list[tuple[str, str, str]]]:
    """Make the tables: per table, (server, table, token) of each seat a client plays. One
    server: a person against bots. Several: two people, table t made on server t mod K, its
    second seat played through the next server (``--together``: through the same one)."""
    import httpx

    from cardtable.engine.game_registry import description

    described = description(options.game)
    # The game's caps on a game between bots keep a long game (Obsession's) bounded.
    params = dict(described.bot_params)
    people = options.servers is not None
    seats = (["human", "human"] if people else
             ["human", *[f"bot:{options.bot or 'random'}"] * (max(described.seat_counts[0], 2)
                                                             - 1)])
    made: list[list[tuple[str, str, str]]] = []
    clients = [httpx.AsyncClient(base_url=base, timeout=60) for base in bases]
    try:
        for number in range(options.tables):
            home = number % len(bases)
            response = await clients[home].post("/api/tables", json={
                "game": options.game, "params": params, "seats": seats})
            response.raise_for_status()
            data = response.json()
            tokens = list(data["tokens"].values())
            where = [bases[server] for server in
                     seat_servers(number, len(tokens), len(bases), options.together)]
            made.append([(base, data["table"], token)
                         for base, token in zip(where, tokens, strict=True)])
    finally:
        for client in clients:
            await client.aclose()
    return made


async def _run(bases: list[str], options: argparse.Namespace,
               cpu: Callable[[], tuple[float, float] | None]
               ) -> tuple[Totals, float, tuple[float, float] | None]:
    """Play every table; the totals, the seconds it took and the servers' CPU seconds (user,
    system)."""
    totals = Totals()
    tables = await _tables(bases, options)
    chooser = random.Random(options.seed)
    last = 2 * options.moves if options.servers is not None else None
    cpu_before = cpu()
    started = time.perf_counter()
    results = await asyncio.gather(*(
        _client(f"{base.replace('http://', 'ws://')}/api/tables/{table}/ws", token,
                options.moves, random.Random(chooser.random()), totals, options.think, last,
                counts=index == 0)
        for seats in tables for index, (base, table, token) in enumerate(seats)),
        return_exceptions=True)
    elapsed = time.perf_counter() - started
    cpu_after = cpu()
    for result in results:
        if isinstance(result, BaseException):
            totals.failures.append(f"{type(result).__name__}: {result}")
    used = None if cpu_before is None or cpu_after is None else (
        cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1])
    return totals, elapsed, used


def cpu_seconds(pids: list[int]) -> tuple[float, float] | None:
    """The user and the system CPU seconds the processes ``pids`` used so far (from /proc),
    or None where /proc cannot tell."""
    user = system = 0
    try:
        for pid in pids:
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            user += int(fields[11])
            system += int(fields[12])
    except (OSError, ValueError, IndexError):
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return user / ticks, system / ticks


def _wait_ready(base: str, process: subprocess.Popen[bytes], seconds: float = 60) -> bool:
    import httpx

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                return True
        time.sleep(0.2)
    return False


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def main(argv: list[str]) -> int:
    options = parser().parse_args(argv)
    if options.tables < 1 or options.moves < 1:
        print_error(PROG, "--tables and --moves must be at least 1")
        return 1
    count = 1 if options.servers is None else options.servers
    if not 1 <= count <= MAX_SERVERS:
        print_error(PROG, f"--servers must be 1 to {MAX_SERVERS}")
        return 1
    if options.together and options.servers is None:
        print_error(PROG, "--together needs --servers K (the seats of a table of two people)")
        return 1
    if count > 1 and (options.db is None or is_sqlite(options.db)):
        print_error(PROG, f"--servers {count} needs --db postgresql://USER:PASSWORD@HOST/NAME "
                          "(several servers share one PostgreSQL database)")
        return 1
    try:
        import httpx  # noqa: F401
        import websockets  # noqa: F401

        from cardtable.web.limits import Limits
    except ImportError as error:
        print_error(PROG, f"the web extra is not installed ({error.name}): "
                          "pip install 'cardtable[web]'")
        return 1
    per_table = 1 if options.servers is None else 2
    try:
        limits = (bench_limits(options.tables, per_table) if options.rate_limits is None
                  else Limits.parse(options.rate_limits))
    except ValueError as error:
        print_error(PROG, f"--rate-limits: {error}")
        return 1
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 4 * per_table * options.tables + 256))
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-") as directory:
        db = options.db or f"sqlite:///{os.path.join(directory, 'bench.sqlite3')}"
        servers: list[tuple[str, subprocess.Popen[bytes], str]] = []
        try:
            for number in range(count):
                port = _free_port()
                command = [sys.executable, "-m", "cardtable.cli.main", "serve", "--port",
                           str(port), "--db", db, "--bot-delay", "0", "--max-messages",
                           "100000", "--rate-limits", str(limits), "--log-level", "warning"]
                log_path = os.path.join(directory, f"server{number + 1}.log")
                with open(log_path, "wb") as log:
                    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
                servers.append((f"http://127.0.0.1:{port}", process, log_path))
                if number == 0 and not _wait_ready(*servers[0][:2]):
                    # (the first one made and migrated the database: the others find it ready)
                    return _not_started(servers[0][2])
            for base, process, log_path in servers[1:]:
                if not _wait_ready(base, process):
                    return _not_started(log_path)
            pids = [process.pid for _base, process, _log in servers]
            shown = (f"server pid {pids[0]}" if count == 1 else
                     f"{count} servers (pids {', '.join(map(str, pids))}), "
                     + ("both seats of each table on the server it was made on"
                        if options.together else "the two seats of each table on two of them"))
            players = (f"a WebSocket client against bot:{options.bot or 'random'}"
                       if options.servers is None else "two WebSocket clients")
            print(f"{PROG}: {options.tables} tables of {options.game} ({players}), "
                  f"{options.moves} client moves each, think time {options.think:g} s, "
                  f"{shown}, rate limits {limits}", flush=True)
            totals, elapsed, cpu = asyncio.run(_run(
                [base for base, _process, _log in servers], options,
                lambda: cpu_seconds(pids)))
            if totals.failures:  # (what the servers said, before their logs go)
                for number, (_base, _process, log_path) in enumerate(servers):
                    with open(log_path, encoding="utf-8", errors="replace") as log_text:
                        said = log_text.read().strip().splitlines()[-LOG_LINES:]
                    for line in said:
                        print(f"server {number + 1}: {line}")
        finally:
            for _base, process, _log in servers:
                process.terminate()
            for _base, process, _log in servers:
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
    trips = [seconds * 1000 for seconds in totals.round_trips]
    print(f"move round trip: p50 {percentile(trips, 0.5):.1f} ms, "
          f"p95 {percentile(trips, 0.95):.1f} ms, p99 {percentile(trips, 0.99):.1f} ms "
          f"(mean {statistics.fmean(trips) if trips else float('nan'):.1f} ms, "
          f"{len(trips)} moves)")
    print(f"moves per second: {totals.client_moves / elapsed:.0f} client moves, "
          f"{totals.server_moves() / elapsed:.0f} moves in all (bots included), "
          f"over {elapsed:.1f} s; {totals.finished} games finished"
          + (f"; {totals.retries} moves sent again (not saved at first)" if totals.retries
             else ""))
    if cpu is not None and totals.server_moves():
        user, system = cpu
        print(f"server CPU: {user + system:.2f} s "
              f"({'the server' if count == 1 else f'{count} servers'}), "
              f"{1000 * (user + system) / totals.server_moves():.3f} ms per move "
              f"(user {1000 * user / totals.server_moves():.3f} ms, "
              f"system {1000 * system / totals.server_moves():.3f} ms)")
    if totals.failures:
        print(f"{len(totals.failures)} clients failed, first: {totals.failures[0]}")
        return 1
    return 0


def _not_started(log_path: str) -> int:
    with open(log_path, encoding="utf-8", errors="replace") as log_text:
        lines = log_text.read().strip().splitlines()
    reason = f": {lines[-1]}" if lines else ""
    print_error(PROG, "the server did not start" + reason)
    return 1
