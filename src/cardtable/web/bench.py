"""``cardtable bench web``: the web server under load.

Starts ``cardtable serve`` on loopback (a real uvicorn process on a temporary SQLite file, bots
without delay), creates N tables of a person against a bot, and plays them all at once through
WebSocket clients in this process. The move round trip is the time from sending a move to
receiving the state frame that shows it; the report gives its p50/p95/p99 and the moves per
second (the clients' moves, and every move the server applied, bots' included).

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
                       "played from this one client)")
    return parse


def bench_limits(tables: int) -> Limits:
    """The server's default limits, with room for ``tables`` new tables at once and as many
    WebSockets open from the bench's one client."""
    from dataclasses import replace

    from cardtable.web.limits import Limits, Rate

    defaults = Limits()
    create = defaults.create
    if create is not None and create.count < tables:
        create = Rate(tables, create.seconds)
    sockets = defaults.sockets
    if sockets is not None and sockets < tables:
        sockets = tables
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
        self.server_moves = 0
        self.finished = 0
        self.failures: list[str] = []


async def _client(url: str, token: str, moves: int, chooser: random.Random,
                  totals: Totals, think: float) -> None:
    import websockets

    async with websockets.connect(f"{url}?token={token}", max_size=1 << 22) as ws:
        ply = -1
        sent_at: float | None = None
        sent_ply = 0
        played = 0
        last_ply = 0
        async for raw in ws:
            frame = json.loads(raw)
            kind = frame.get("type")
            if kind == "error":
                totals.failures.append(frame.get("message", "?"))
                return
            if kind != "state":
                continue
            ply = frame["ply"]
            last_ply = max(last_ply, ply)
            if sent_at is not None and ply > sent_ply:
                totals.round_trips.append(time.perf_counter() - sent_at)
                sent_at = None
            if frame["result"] is not None:
                totals.finished += 1
                break
            if sent_at is None and frame["legal"]:
                if played >= moves:
                    break
                legal = frame["legal"]
                plays = [move for move in legal if move.split(":")[-1][:1] in ("P", "p")]
                move = chooser.choice(plays or legal)
                if think > 0:
                    await asyncio.sleep(think * (0.5 + chooser.random()))
                sent_ply = ply
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": move}))
                played += 1
                totals.client_moves += 1
        totals.server_moves += last_ply


async def _run(base: str, options: argparse.Namespace) -> tuple[Totals, float]:
    import httpx

    from cardtable.engine.game_registry import description

    totals = Totals()
    described = description(options.game)
    # The game's caps on a game between bots keep a long game (Obsession's) bounded.
    params = dict(described.bot_params)
    seats = ["human", *[f"bot:{options.bot or 'random'}"] * (max(described.seat_counts[0], 2)
                                                            - 1)]
    tokens: list[tuple[str, str]] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for _ in range(options.tables):
            response = await client.post("/api/tables", json={
                "game": options.game, "params": params, "seats": seats})
            response.raise_for_status()
            data = response.json()
            tokens.append((data["table"], data["tokens"][next(iter(data["tokens"]))]))
    ws_base = base.replace("http://", "ws://")
    chooser = random.Random(options.seed)
    started = time.perf_counter()
    results = await asyncio.gather(*(
        _client(f"{ws_base}/api/tables/{table}/ws", token, options.moves,
                random.Random(chooser.random()), totals, options.think)
        for table, token in tokens), return_exceptions=True)
    elapsed = time.perf_counter() - started
    for result in results:
        if isinstance(result, BaseException):
            totals.failures.append(f"{type(result).__name__}: {result}")
    return totals, elapsed


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


def main(argv: list[str]) -> int:
    options = parser().parse_args(argv)
    if options.tables < 1 or options.moves < 1:
        print_error(PROG, "--tables and --moves must be at least 1")
        return 1
    try:
        import httpx  # noqa: F401
        import websockets  # noqa: F401

        from cardtable.web.limits import Limits
    except ImportError as error:
        print_error(PROG, f"the web extra is not installed ({error.name}): "
                          "pip install 'cardtable[web]'")
        return 1
    try:
        limits = (bench_limits(options.tables) if options.rate_limits is None
                  else Limits.parse(options.rate_limits))
    except ValueError as error:
        print_error(PROG, f"--rate-limits: {error}")
        return 1
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 4 * options.tables + 256))
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-") as directory:
        db = options.db or f"sqlite:///{os.path.join(directory, 'bench.sqlite3')}"
        command = [sys.executable, "-m", "cardtable.cli.main", "serve", "--port", str(port),
                   "--db", db, "--bot-delay", "0", "--max-messages", "100000",
                   "--rate-limits", str(limits), "--log-level", "error"]
        log_path = os.path.join(directory, "server.log")
        with open(log_path, "wb") as log:
            process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
        try:
            if not _wait_ready(base, process):
                with open(log_path, encoding="utf-8", errors="replace") as log_text:
                    lines = log_text.read().strip().splitlines()
                reason = f": {lines[-1]}" if lines else ""
                print_error(PROG, "the server did not start" + reason)
                return 1
            print(f"{PROG}: {options.tables} tables of {options.game} (a WebSocket client "
                  f"against bot:{options.bot or 'random'}), {options.moves} client moves "
                  f"each, think time {options.think:g} s, server pid {process.pid}, "
                  f"rate limits {limits}", flush=True)
            totals, elapsed = asyncio.run(_run(base, options))
        finally:
            process.terminate()
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
          f"{totals.server_moves / elapsed:.0f} moves in all (bots included), "
          f"over {elapsed:.1f} s; {totals.finished} games finished")
    if totals.failures:
        print(f"{len(totals.failures)} clients failed, first: {totals.failures[0]}")
        return 1
    return 0
