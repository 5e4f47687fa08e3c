"""Two or three servers on one PostgreSQL database in one test process, each a whole app with
its own bus (``PostgresCluster``), driven through Starlette's test client (tests of which
server drives a table: test_owner_*.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from webplay import LeakChecker, Viewer

from cardtable.web.store import Store
from waiting import wait_until

LEASE = 2.0
"""A short lease: a silent server's tables are taken over within a few seconds."""


class Node:
    """One server (an app with its own store and bus) on ``url``."""

    def __init__(self, url: str, lease: float = LEASE,
                 programs: dict[str, str] | None = None) -> None:
        from fastapi.testclient import TestClient

        from cardtable.web.app import create_app
        from cardtable.web.limits import Limits

        self.store = Store(url)
        self.app = create_app(self.store, flood_limit=10_000, limits=Limits.off(), lease=lease,
                              programs=programs)
        self.client = TestClient(self.app)

    def __enter__(self) -> Node:
        self.client.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.__exit__(None, None, None)
        self.store.close()

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    @property
    def cluster(self) -> Any:
        return self.app.state.cluster

    @property
    def id(self) -> str:
        server_id: str = self.cluster.server_id
        return server_id

    def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` on the server's event loop (awaited when it is a coroutine)."""
        portal = self.client.portal
        assert portal is not None
        return portal.call(function, *args)

    def create(self, game: str, seats: list[str], params: dict[str, Any] | None = None,
               **extra: object) -> tuple[str, dict[str, str]]:
        response = self.client.post("/api/tables", json={
            "game": game, "params": params or {}, "seats": seats, **extra})
        assert response.status_code == 201, response.text
        data = response.json()
        return data["table"], data["tokens"]

    def join(self, table: str) -> tuple[str, str]:
        response = self.client.post(f"/api/tables/{table}/join", json={})
        assert response.status_code == 200, response.text
        data = response.json()
        return data["seat"], data["token"]

    def live(self, table: str) -> Any:
        return self.hub.tables[table]


class Recorder(Viewer):
    """A viewer that keeps every frame it got, in order."""

    def __init__(self, socket: Any, checker: LeakChecker) -> None:
        super().__init__(socket, checker)
        self.frames: list[dict[str, Any]] = []

    def receive(self) -> dict[str, Any]:
        frame = super().receive()
        self.frames.append(frame)
        return frame

    def plies(self) -> list[int]:
        """The ply of every state frame after the first move (each told once)."""
        return [frame["ply"] for frame in self.frames
                if frame["type"] == "state" and frame["ply"] > 0]


def seat_socket(node: Node, table: str, token: str | None) -> Any:
    query = "" if token is None else f"?token={token}"
    return node.client.websocket_connect(f"/api/tables/{table}/ws{query}")


def recorder(node: Node, socket: Any, table: str, seat: str | None,
             tokens: dict[str, str]) -> Recorder:
    return Recorder(socket, LeakChecker(node.store, table, seat, tokens))


def told_once_in_order(viewer: Recorder, last: int) -> None:
    """Every ply from 1 to ``last`` was told to ``viewer`` exactly once, in order."""
    assert viewer.plies() == list(range(1, last + 1)), viewer.plies()


def wait_for_owner(node: Node, table: str) -> None:
    wait_until(lambda: table in node.hub.tables and node.live(table).owner
               and node.live(table).task is not None, f"{node.id[:6]} to drive {table}")


def frame_text(frame: dict[str, Any]) -> str:
    return json.dumps(frame, separators=(",", ":"))
