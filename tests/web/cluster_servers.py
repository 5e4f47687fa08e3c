"""Several real ``cardtable serve`` processes on one PostgreSQL database, and WebSocket clients
that play their tables through them (tests of tables shared by servers: test_cluster_*.py).

:class:`Servers` starts K server processes on one database of the suite's PostgreSQL cluster,
each on a port of its own, with a short lease (``--lease 2``: a silent server's tables are
taken over within a few seconds), bots without delay and no rate limits (every test client
comes from one address). Each process writes its log to a file of the test's temporary
directory; the end of every log is written to standard error when the servers stop, so that a
failing test shows them (pytest shows a test's captured output only when it fails). Every
process is ended when the ``with`` block ends, however it ends.

:class:`TableSocket` is one WebSocket of a table (a seat, or a spectator), run in a thread of
its own: it keeps every frame of every connection it opened, plays a random legal move
whenever its seat is to move, sends it again when the server says it could not save it, and
when its server goes away connects again through another one (as a browser behind a load
balancer does). :class:`Truth` is the table replayed from the moves the database holds: what
every frame at every ply must show.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, select
from webplay import free_port

from cardtable.web import schema
from cardtable.web.games import new_state
from cardtable.web.serialize import public_view, result_json, seat_view
from cardtable.web.store import normalize_url
from waiting import wait_until

LEASE = 2.0
"""Seconds a silent server keeps its tables (``--lease``)."""
TIMEOUT = 120.0
"""How long a test waits for what is bound to happen (a loaded machine is slow)."""
SAVE_FAILED = "The server could not save your move; try again."
LOG_TAIL = 6000
"""Characters of each server's log shown when a test fails."""

Json = dict[str, Any]


class ServerProcess:
    """One ``cardtable serve`` on ``url``, on a port of its own, its log in ``directory``."""

    def __init__(self, url: str, directory: Path, name: str,
                 options: Sequence[str] = ()) -> None:
        self.url = url
        self.name = name
        self.options = tuple(options)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log = directory / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.server_id: str | None = None
        """The server's id (``/api/health``'s ``server``), once it answered."""

    def start(self) -> None:
        command = [sys.executable, "-m", "cardtable.cli.main", "serve", "--port",
                   str(self.port), "--db", self.url, "--lease", str(LEASE), "--bot-delay", "0",
                   "--rate-limits", "off", "--max-messages", "10000", "--log-level", "info",
                   *self.options]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def ready(self) -> bool:
        """Whether the server answers ``/api/health`` (its id is then known)."""
        assert self.alive, f"{self.name} ended:\n{self.log_tail()}"
        try:
            answer = httpx.get(f"{self.base}/api/health", timeout=5)
        except httpx.HTTPError:
            return False
        if answer.status_code != 200:
            return False
        self.server_id = answer.json()["server"]
        return True

    def signal(self, number: signal.Signals) -> None:
        assert self.process is not None
        self.process.send_signal(number)

    def kill(self) -> None:
        """SIGKILL, as a crash or the OOM killer: nothing of the server runs after it."""
        if self.alive:
            self.signal(signal.SIGKILL)
        assert self.process is not None
        self.process.wait(TIMEOUT)

    def stop(self) -> None:
        """SIGTERM (SIGCONT first: a stopped process cannot end), then SIGKILL if it hangs."""
        if not self.alive:
            return
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGCONT)
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(TIMEOUT)

    def cpu_seconds(self) -> float:
        """The process's user + system CPU time so far."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.base + path, timeout=30)

    def post(self, path: str, body: Json, headers: dict[str, str] | None = None
             ) -> httpx.Response:
        return httpx.post(self.base + path, json=body, headers=headers or {}, timeout=30)

    def log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-LOG_TAIL:]
        except OSError:
            return "(no log)"


class Servers:
    """``count`` server processes on the database ``url`` (a ``with`` block: all started and
    answering inside it, all ended after it)."""

    def __init__(self, url: str, directory: Path, count: int,
                 options: Sequence[str] = ()) -> None:
        self.url = url
        self.directory = directory
        self.options = tuple(options)
        self.started: list[ServerProcess] = []
        """Every process started, the ended ones too (their logs are shown)."""
        self.engine = create_engine(normalize_url(url))
        self.count = count

    def __enter__(self) -> Servers:
        try:
            fresh = [self._new() for _ in range(self.count)]
            for server in fresh:
                wait_until(server.ready, f"{server.name} to answer", TIMEOUT, 0.1)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        for server in self.started:
            server.stop()
        self.engine.dispose()
        for server in self.started:
            sys.stderr.write(f"----- {server.name} (id {server.server_id}) log, "
                             f"{server.log}:\n{server.log_tail()}\n")

    def _new(self) -> ServerProcess:
        server = ServerProcess(self.url, self.directory, f"server{len(self.started) + 1}",
                               self.options)
        self.started.append(server)
        server.start()
        return server

    def add(self, wait: bool = True) -> ServerProcess:
        """One more server process (answering when ``wait``)."""
        server = self._new()
        if wait:
            wait_until(server.ready, f"{server.name} to answer", TIMEOUT, 0.1)
        return server

    @property
    def live(self) -> list[ServerProcess]:
        """The servers running, in the order they started."""
        return [server for server in self.started if server.alive]

    def __getitem__(self, index: int) -> ServerProcess:
        return self.live[index]

    def table_row(self, table: str) -> Any:
        with self.engine.connect() as conn:
            return conn.execute(select(schema.tables).where(schema.tables.c.id == table)).one()

    def owner_of(self, table: str) -> ServerProcess | None:
        """The server process driving ``table`` (the table's ``owner``), if it is one of
        these."""
        owner = self.table_row(table).owner
        for server in self.started:
            if server.server_id is not None and server.server_id == owner:
                return server
        return None

    def stored_plies(self, table: str) -> int:
        with self.engine.connect() as conn:
            return len(conn.execute(select(schema.moves.c.ply)
                                    .where(schema.moves.c.table_id == table)).all())


# --- a table's truth: the stored moves replayed -----------------------------------------------


def replayed(servers: Servers, table: str) -> Any:
    """The table's state after its stored moves."""
    tables, seats, moves = schema.tables, schema.seats, schema.moves
    with servers.engine.connect() as conn:
        row = conn.execute(select(tables).where(tables.c.id == table)).one()
        kinds = conn.execute(select(seats.c.kind).where(seats.c.table_id == table)
                             .order_by(seats.c.position)).scalars().all()
        stored = conn.execute(select(moves.c.move).where(moves.c.table_id == table)
                              .order_by(moves.c.ply)).scalars().all()
    state = new_state(row.game, json.loads(row.params), row.seed, kinds)
    for text in stored:
        state.apply(state.parse_action(text))
    return state


class Truth:
    """The table ``table`` replayed from the database's moves: what a frame at each ply
    shows to each seat (or spectator)."""

    def __init__(self, servers: Servers, table: str) -> None:
        engine = servers.engine
        tables, seats, moves = schema.tables, schema.seats, schema.moves
        with engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table)).one()
            seat_rows = conn.execute(select(seats).where(seats.c.table_id == table)
                                     .order_by(seats.c.position)).all()
            stored = conn.execute(select(moves).where(moves.c.table_id == table)
                                  .order_by(moves.c.ply)).all()
        self.moves = [(move.ply, move.seat, move.move) for move in stored]
        self.stored_at = [move.at for move in stored]
        """When each move was stored (``time.time()`` of the server that stored it)."""
        self.game: str = row.game
        self.status: str = row.status
        self.result = None if row.result is None else json.loads(row.result)
        params = json.loads(row.params)
        assert [ply for ply, _seat, _move in self.moves] == list(range(1, len(self.moves) + 1)), \
            "the stored plies are not 1, 2, 3, ..."
        state = new_state(row.game, params, row.seed, [seat.kind for seat in seat_rows])
        self.views: list[dict[str | None, Json]] = []
        """Per ply: each seat's frame fields (and the public ones under None)."""
        self.seats = [seat.seat for seat in seat_rows]
        for index in range(len(self.moves) + 1):
            if index:
                _ply, seat, text = self.moves[index - 1]
                assert state.to_move == seat, f"ply {index} stored for {seat}, not to move"
                state.apply(state.parse_action(text))
            self.views.append(self._views(state))
        self.over = state.result is not None

    def _views(self, state: Any) -> dict[str | None, Json]:
        over = state.result is not None
        to_move = None if over else state.to_move
        legal = [] if over else [state.action_text(action) for action in state.legal_actions()]
        views: dict[str | None, Json] = {None: {
            "observation": public_view(self.game, state), "legal": [], "to_move": to_move,
            "result": result_json(state.result)}}
        for seat in self.seats:
            views[seat] = {"observation": seat_view(self.game, state, seat),
                           "legal": legal if seat == to_move else [], "to_move": to_move,
                           "result": result_json(state.result)}
        return views

    def check(self, frame: Json, seat: str | None) -> None:
        """A state frame shows exactly the table at its ply, as ``seat`` may see it: every move
        it shows is stored, in that order."""
        ply = frame["ply"]
        assert 0 <= ply < len(self.views), f"a frame at ply {ply}: {len(self.moves)} stored"
        expected = dict(self.views[ply][seat])
        if frame["status"] == "open":  # (no legal move before every seat is taken)
            expected["legal"] = []
        shown = {key: frame[key] for key in expected}
        assert shown == expected, (f"the frame at ply {ply} to {seat} is not the stored game:"
                                   f"\n{shown}\nand not\n{expected}")


def plies_rise_by_one(frames: Sequence[Json]) -> list[int]:
    """The plies of a connection's state frames; each one after the first is the next ply
    (no move told twice, none left out). A frame telling the same ply again is a repeat only
    when it shows the same (the start of the game, a turn timer's deadline)."""
    states = [frame for frame in frames if frame["type"] == "state"]
    plies = [frame["ply"] for frame in states]
    for before, after in pairwise(states):
        if after["ply"] == before["ply"]:
            differ = sorted(key for key in {*after["observation"], *before["observation"]}
                            if after["observation"].get(key) != before["observation"].get(key))
            assert not differ, f"ply {after['ply']} told twice, differently ({differ}): {plies}"
        else:
            assert after["ply"] == before["ply"] + 1, f"plies not one by one: {plies}"
    return plies


def random_move(chooser: random.Random, legal: list[str]) -> str:
    """A random legal move, plays first (random Caravan players who discard half the time
    would play for thousands of moves)."""
    plays = [move for move in legal if move.split(":")[-1][:1] in ("P", "p")]
    return chooser.choice(plays or legal)


# --- WebSocket clients --------------------------------------------------------------------------


class TableSocket(threading.Thread):
    """A WebSocket of ``table`` on ``server`` in a thread of its own: a seat (with its token)
    that plays when it is to move, or a spectator (no token) that watches. When its server
    goes away (or :meth:`move_to` says so), it connects again through the server
    ``elsewhere()`` names. Every frame is kept, per connection, with when it came."""

    def __init__(self, server: ServerProcess, table: str, seat: str | None,
                 token: str | None, seed: int = 0,
                 elsewhere: Callable[[ServerProcess], ServerProcess] | None = None,
                 choose: Callable[[random.Random, list[str]], str] = random_move) -> None:
        super().__init__(daemon=True, name=f"socket-{seat or 'spectator'}")
        self.server = server
        self.current = server
        """The server of the connection (the one it is connecting to)."""
        self.table = table
        self.seat = seat
        self.token = token
        self.chooser = random.Random(seed)
        self.choose = choose
        self.elsewhere = elsewhere
        self.connections: list[list[Json]] = []
        """Every connection's frames, in order (each frame with ``_at``: when it came)."""
        self.servers: list[str] = []
        """The server of each connection."""
        self.errors: list[str] = []
        self.endings: list[str] = []
        """Why each connection ended."""
        self.failure: BaseException | None = None
        self.done = threading.Event()
        self.sent: list[tuple[int, str, float]] = []
        """(ply, move, when) of every move sent (a move sent again counted again)."""
        self.before_send: Callable[[TableSocket, int, str], None] | None = None
        self.on_send: Callable[[TableSocket, int, str], None] | None = None
        """Called with (this socket, ply, move) before and after a move is sent."""
        self._lock = threading.Lock()
        self._socket: Any = None
        self._stopping = False
        self._leave: ServerProcess | None = None

    # --- what the test reads ------------------------------------------------------------------

    def states(self) -> list[Json]:
        with self._lock:
            return [frame for frames in self.connections for frame in frames
                    if frame["type"] == "state"]

    def latest(self) -> Json | None:
        states = self.states()
        return states[-1] if states else None

    def seen_ply(self) -> int:
        latest = self.latest()
        return -1 if latest is None else int(latest["ply"])

    def over(self) -> bool:
        latest = self.latest()
        return latest is not None and latest["result"] is not None

    def describe(self) -> str:
        """Each connection's server, plies and end, and the errors it was sent."""
        with self._lock:
            told = [(server, [frame["ply"] for frame in frames if frame["type"] == "state"])
                    for server, frames in zip(self.servers, self.connections, strict=True)]
        return (f"{self.seat or 'spectator'}: connections {told}, ended {self.endings}, "
                f"errors {self.errors}, sent {[(ply, move) for ply, move, _ in self.sent]}")

    def move_to(self, server: ServerProcess) -> None:
        """Leave the current server (it hangs, say) for ``server``."""
        self._leave = server
        self._drop()

    def stop(self) -> None:
        self._stopping = True
        self._drop()
        self.join(TIMEOUT)

    def _drop(self) -> None:
        """End the connection at once (no closing handshake: the server may not answer)."""
        with contextlib.suppress(Exception):
            if self._socket is not None:
                self._socket.socket.shutdown(socket.SHUT_RDWR)

    # --- the thread ---------------------------------------------------------------------------

    def run(self) -> None:
        try:
            self._run()
        except BaseException as error:  # (reported by the test)
            self.failure = error
        finally:
            self.done.set()

    def _run(self) -> None:
        from websockets.exceptions import ConnectionClosed, InvalidHandshake
        from websockets.sync.client import connect

        deadline = time.monotonic() + 10 * TIMEOUT
        server = self.server
        ended: BaseException | None = None
        while not self._stopping:
            self.current = server
            assert time.monotonic() < deadline, "the game did not end"
            try:
                url = f"{server.ws_base}/api/tables/{self.table}/ws?hello"
                with connect(url, max_size=1 << 22, open_timeout=10, close_timeout=2,
                             additional_headers={"Origin": server.base}) as ws:
                    self._socket = ws
                    frames: list[Json] = []
                    with self._lock:
                        self.connections.append(frames)
                        self.servers.append(server.name)
                    hello: Json = {"type": "hello"}
                    if self.token is not None:
                        hello["token"] = self.token
                    ws.send(json.dumps(hello))
                    if self._serve(ws, frames):
                        return
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                ended = error
                self.endings.append(f"{server.name}: {error!r}")
            self._socket = None
            if self._stopping:
                return
            if self._leave is not None:
                server, self._leave = self._leave, None
            elif self.elsewhere is not None:
                server = self.elsewhere(server)
            else:
                raise AssertionError(f"the connection of {self.seat} to {server.name} ended: "
                                     f"{ended!r}")

    def _serve(self, ws: Any, frames: list[Json]) -> bool:
        """Read and answer frames until the game is over (True) or the connection ends."""
        sent_at: int | None = None  # the ply this connection sent a move at
        last: Json | None = None
        retries = 0
        while True:
            frame: Json = json.loads(ws.recv(timeout=TIMEOUT))
            frame["_at"] = time.perf_counter()
            with self._lock:
                frames.append(frame)
            kind = frame["type"]
            if kind == "error":
                self.errors.append(frame["message"])
                if frame["message"] == SAVE_FAILED and last is not None \
                        and sent_at == last["ply"] and self.sent:
                    # Not saved: the same move again (a moment later, more so each time).
                    retries += 1
                    time.sleep(min(1.0, 0.05 * retries))
                    self._send(ws, last["ply"], self.sent[-1][1])
                continue
            if kind != "state":
                continue
            last = frame
            if frame["result"] is not None:
                return True
            if self.seat is not None and frame["to_move"] == self.seat and frame["legal"] \
                    and sent_at != frame["ply"]:
                sent_at, retries = frame["ply"], 0
                self._send(ws, frame["ply"], self.choose(self.chooser, frame["legal"]))

    def _send(self, ws: Any, ply: int, move: str) -> None:
        if self.before_send is not None:
            self.before_send(self, ply, move)
        self.sent.append((ply, move, time.perf_counter()))
        ws.send(json.dumps({"type": "move", "move": move}))
        if self.on_send is not None:
            self.on_send(self, ply, move)


@contextlib.contextmanager
def sockets_of(table: str, seats: Sequence[tuple[ServerProcess, str | None, str | None]],
               seed: int = 0, elsewhere: Callable[[ServerProcess], ServerProcess] | None = None,
               ) -> Iterator[list[TableSocket]]:
    """A running :class:`TableSocket` per (server, seat, token), stopped after the block."""
    running = [TableSocket(server, table, seat, token, seed * 100 + index, elsewhere)
               for index, (server, seat, token) in enumerate(seats)]
    for one in running:
        one.start()
    try:
        yield running
    finally:
        for one in running:
            one.stop()


def watching(sockets: Sequence[TableSocket], condition: Callable[[], object], what: str,
             timeout: float = 10 * TIMEOUT, interval: float = 0.05) -> None:
    """Wait until ``condition()`` holds; a socket whose thread failed fails the test at once
    (with what each socket saw)."""

    def holds() -> bool:
        for one in sockets:
            if one.failure is not None:
                raise AssertionError(f"{one.failure!r}\n" + "\n".join(
                    other.describe() for other in sockets))
        return bool(condition())

    wait_until(holds, what, timeout, interval)


def wait_for_the_end(sockets: Sequence[TableSocket]) -> None:
    """Every socket saw the result."""
    watching(sockets, lambda: all(one.over() for one in sockets), "the end of the game")


def check_every_frame(truth: Truth, sockets: Sequence[TableSocket]) -> None:
    """Each connection's plies rise one by one, and every state frame is the stored game at
    its ply, as its viewer may see it."""
    for one in sockets:
        for frames in one.connections:
            plies_rise_by_one(frames)
            for frame in frames:
                if frame["type"] == "state":
                    truth.check(frame, one.seat)


def create_and_join(creator: ServerProcess, joiner: ServerProcess, game: str = "caravan",
                    first: str = "ABC", creator_headers: dict[str, str] | None = None,
                    joiner_headers: dict[str, str] | None = None,
                    ) -> tuple[str, dict[str, str]]:
    """A table of two people: its first seat (``first``) made on ``creator``, the other one
    taken through ``joiner``. Returns the table and each seat's token."""
    made = creator.post("/api/tables", {"game": game, "seats": ["human", "human"],
                                        "claim": [first]}, creator_headers)
    assert made.status_code == 201, made.text
    table: str = made.json()["table"]
    tokens = dict(made.json()["tokens"])
    joined = joiner.post(f"/api/tables/{table}/join", {}, joiner_headers)
    assert joined.status_code == 200, joined.text
    tokens[joined.json()["seat"]] = joined.json()["token"]
    return table, tokens
