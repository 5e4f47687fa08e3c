"""A real PostgreSQL stopped and started again (``pg_ctl stop -m immediate``) several times
during one game on a real ``cardtable serve``: a person's move is refused while it is away and
accepted once it is back, a bot's move waits for it, the API answers 503 and the health check
``degraded`` meanwhile, what every connection was shown is exactly what is stored, and a
server restart resumes the same game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

import httpx
from webplay import free_port
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from cardtable.web import games, serialize
from cardtable.web.live import SAVE_FAILED
from cardtable.web.routes.refusals import DATABASE_AWAY
from cardtable.web.store import Store
from waiting import wait_until

SERVE = [sys.executable, "-m", "cardtable.cli.main", "serve"]
BOT_DELAY = 1.5
"""Seconds a bot waits before its move: time enough to stop the database while it thinks."""
TIMEOUT = 90.0


class Serve:
    """``cardtable serve`` on ``url``, its log in a file."""

    def __init__(self, url: str, tmp_path: Path, name: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp_path / f"{name}.log"
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [*SERVE, "--port", str(self.port), "--db", url, "--bot-delay", str(BOT_DELAY)],
                stdout=subprocess.DEVNULL, stderr=log, text=True, env=env)
        wait_until(self._up, "the server to start", TIMEOUT, 0.2)

    def _up(self) -> bool:
        assert self.process.poll() is None, self.log.read_text()
        try:
            return httpx.get(f"{self.base}/api/health", timeout=5).status_code == 200
        except httpx.HTTPError:
            return False

    def health(self) -> str:
        status: str = httpx.get(f"{self.base}/api/health", timeout=30).json()["status"]
        return status

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=60)


class Watcher:
    """One WebSocket (a seat, or a spectator when ``seat`` is None) and every frame it got."""

    def __init__(self, server: Serve, table: str, seat: str | None, token: str | None) -> None:
        query = "" if token is None else f"?token={token}"
        self.seat = seat
        self.socket: ClientConnection = ws_connect(
            f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws{query}", open_timeout=30)
        self.frames: list[dict[str, Any]] = []
        self.unread: deque[dict[str, Any]] = deque()
        """Frames :meth:`came` looked at, still to be read."""

    def read(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        if self.unread:
            return self.unread.popleft()
        frame: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        self.frames.append(frame)
        return frame

    def came(self, wanted: Any) -> bool:
        """Whether a frame for which ``wanted(frame)`` holds has arrived and is not read yet
        (what arrives meanwhile is kept for :meth:`read`)."""
        try:
            frame: dict[str, Any] = json.loads(self.socket.recv(timeout=0.05))
        except TimeoutError:
            pass
        else:
            self.frames.append(frame)
            self.unread.append(frame)
        return any(wanted(frame) for frame in self.unread)

    def until(self, wanted: Any, what: str) -> dict[str, Any]:
        """The next frame for which ``wanted(frame)`` holds."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"{self.seat or 'the spectator'} timed out waiting for {what}"
            frame = self.read(left)
            if wanted(frame):
                return frame

    def state(self, ply: int) -> dict[str, Any]:
        return self.until(lambda f: f["type"] == "state" and f["ply"] == ply, f"ply {ply}")

    def states(self) -> list[dict[str, Any]]:
        return [frame for frame in self.frames if frame["type"] == "state"]

    def errors(self) -> list[str]:
        return [frame["message"] for frame in self.frames if frame["type"] == "error"]

    def close(self) -> None:
        self.socket.close()


class BotMoved:
    """Whether the state frame of ``ply`` (the bot's move) has reached ``seat``."""

    def __init__(self, seat: Watcher, ply: int) -> None:
        self.seat = seat
        self.ply = ply

    def __call__(self) -> bool:
        return self.seat.came(lambda f: f["type"] == "state" and f["ply"] >= self.ply)


def settle(watchers: list[Watcher], ply: int, human: str) -> dict[str, Any]:
    """Every connection's state frames up to the human's next turn after ``ply`` (the bot
    answers by itself); returns the first connection's (the human seat's) last frame."""
    last = [watcher.until(lambda f: f["type"] == "state" and f["ply"] >= ply
                          and (f["to_move"] == human or f["result"] is not None),
                          f"{human}'s turn after ply {ply}") for watcher in watchers]
    return last[0]


def shown_equals_stored(watchers: list[Watcher], url: str, table: str) -> list[tuple[str, str]]:
    """Every state frame a connection got is the table replayed from the stored moves to that
    frame's ply; returns the stored moves."""
    store = Store(url)
    try:
        row = store.table(table)
        assert row is not None
        kinds = [seat.kind for seat in store.seats(table)]
        moves = store.moves(table)
    finally:
        store.close()
    for watcher in watchers:
        shown = watcher.states()
        assert [frame["ply"] for frame in shown] == sorted(frame["ply"] for frame in shown)
        assert max(frame["ply"] for frame in shown) <= len(moves)
        for frame in shown:
            state = games.new_state(row.game, row.params, row.seed, kinds)
            for _seat, text in moves[:frame["ply"]]:
                state.apply(state.parse_action(text))
            if watcher.seat is None:
                assert frame["observation"] == serialize.public_view(row.game, state)
            else:
                assert frame["observation"] == serialize.seat_view(row.game, state,
                                                                   watcher.seat)
                if frame["to_move"] == watcher.seat:
                    assert frame["legal"] == [state.action_text(a)
                                              for a in state.legal_actions()]
    return moves


def refused_while_away(server: Serve, seat: Watcher, spectator: Watcher,
                       frame: dict[str, Any]) -> str:
    """The database is away: the person's move is refused and nothing moves; the API
    answers 503. Returns the move, to be sent again."""
    ply = frame["ply"]
    move = str(frame["legal"][0])
    seat.socket.send(json.dumps({"type": "move", "move": move}))
    error = seat.until(lambda f: f["type"] == "error", "the refusal")
    assert error["message"] == SAVE_FAILED
    again = seat.until(lambda f: f["type"] == "state", "the same turn again")
    assert (again["ply"], again["to_move"], again["legal"]) == (ply, frame["to_move"],
                                                                 frame["legal"])
    assert server.health() == "degraded"
    refused = httpx.post(f"{server.base}/api/tables", timeout=30, json={
        "game": "caravan", "params": {"rules": "nv"}, "seats": ["human", "bot:random"]})
    assert (refused.status_code, refused.json()) == (503, {"error": DATABASE_AWAY})
    assert all(f["ply"] <= ply for f in spectator.states())
    return move


def stop_while_the_bot_thinks(cluster: Any, server: Serve, watchers: list[Watcher],
                              frame: dict[str, Any], human: str) -> tuple[bool, dict[str, Any]]:
    """The person moves, and the database stops while the bot thinks: True when the bot's
    move then waited for it (False: it was stored before the stop); either way the game goes
    on once the database is back. Returns that and the person's next turn."""
    seat = watchers[0]
    ply = frame["ply"]
    seat.socket.send(json.dumps({"type": "move", "move": frame["legal"][0]}))
    seat.until(lambda f: f["type"] == "state" and f["ply"] == ply + 1 and f["to_move"] != human,
               "the bot's turn")
    cluster.halt()
    waiting = f"move {ply + 2} not stored"
    moved = BotMoved(seat, ply + 2)
    wait_until(lambda: waiting in server.log.read_text() or moved(),
               "the bot's move to wait for the database, or to be stored before the stop",
               TIMEOUT, 0.2)
    waited = waiting in server.log.read_text()
    if waited:
        assert server.health() == "degraded"
        assert all(f["ply"] <= ply + 1 for w in watchers for f in w.states())
    cluster.start()
    wait_until(lambda: server.health() == "ok", "the health check to say ok", TIMEOUT, 0.2)
    return waited, settle(watchers, ply + 2, human)  # the bot went on by itself


def test_postgres_stopped_and_started_mid_game_loses_and_freezes_nothing(
        pg_own_cluster: Any, tmp_path: Path) -> None:
    cluster = pg_own_cluster
    url = cluster.new_database()
    server = Serve(url, tmp_path, "first")
    watchers: list[Watcher] = []
    try:
        made = httpx.post(f"{server.base}/api/tables", timeout=30, json={
            "game": "caravan", "params": {"rules": "nv"}, "seats": ["human", "bot:random"]})
        assert made.status_code == 201, made.text
        table, tokens = made.json()["table"], made.json()["tokens"]
        (human, token), = tokens.items()
        seat = Watcher(server, table, human, token)
        spectator = Watcher(server, table, None, None)
        watchers = [seat, spectator]
        frame = settle(watchers, 0, human)
        stops = 0

        # Stops 1 and 2: a person's move while the database is away.
        for _ in range(2):
            cluster.halt()
            stops += 1
            move = refused_while_away(server, seat, spectator, frame)
            cluster.start()
            wait_until(lambda: server.health() == "ok", "the health check to say ok",
                       TIMEOUT, 0.2)
            seat.socket.send(json.dumps({"type": "move", "move": move}))
            frame = settle(watchers, frame["ply"] + 1, human)

        # Stop 3: while the bot thinks (it waits BOT_DELAY seconds before its move). On a
        # slow machine the stop may come after the bot's move was stored: the game then goes
        # on once the database is back, and the stop is tried again at the bot's next turn.
        for _attempt in range(5):
            stops += 1
            waited, frame = stop_while_the_bot_thinks(cluster, server, watchers, frame, human)
            if waited:
                break
        else:
            raise AssertionError("the bot's move was stored before each of five stops")

        # Stop 4: the database away while nobody moves; the game goes on after it.
        cluster.halt()
        stops += 1
        wait_until(lambda: server.health() == "degraded", "the health check to say degraded",
                   TIMEOUT, 0.2)
        cluster.start()
        wait_until(lambda: server.health() == "ok", "the health check to say ok", TIMEOUT,
                   0.2)
        seat.socket.send(json.dumps({"type": "move", "move": frame["legal"][0]}))
        frame = settle(watchers, frame["ply"] + 1, human)

        assert stops >= 4
        assert seat.errors() == [SAVE_FAILED, SAVE_FAILED]
        assert spectator.errors() == []
        moves = shown_equals_stored(watchers, url, table)
        assert len(moves) == frame["ply"] == max(f["ply"] for f in spectator.states())
        assert "Traceback" not in server.log.read_text()
    finally:
        for watcher in watchers:
            watcher.close()
        server.kill()

    # A restart (after a kill: nothing is written on the way out) resumes the same game.
    second = Serve(url, tmp_path, "second")
    try:
        again = Watcher(second, table, human, token)
        resumed = again.until(lambda f: f["type"] == "state", "the resumed state")
        assert (resumed["ply"], resumed["observation"], resumed["legal"]) == (
            frame["ply"], frame["observation"], frame["legal"])
        again.socket.send(json.dumps({"type": "move", "move": resumed["legal"][0]}))
        settle([again], resumed["ply"] + 1, human)
        shown_equals_stored([again], url, table)
        again.close()
    finally:
        second.kill()
