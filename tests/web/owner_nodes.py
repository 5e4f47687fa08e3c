"""Two or three servers on one PostgreSQL database in one test process, each a whole app with
its own bus (``PostgresCluster``), driven through Starlette's test client (tests of which
server drives a table: test_owner_*.py)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

from webplay import LeakChecker, Server, Viewer

from waiting import wait_until

LEASE = 5.0
"""A short lease: a silent server's tables are taken over within a few seconds. Not shorter:
on a loaded machine (the suite beside two busy loops) a heartbeat came more than 2.25 s late
(three quarters of a 3 s lease), the server that had just taken a table over lost it again,
and a move in flight was refused with "could not save" (as it must be then)."""
STEADY_LEASE = 30.0
"""A lease for tests where no server stops: on a loaded machine a heartbeat written late
must not hand a table over (a server that has not written one for half its lease stops
driving its tables)."""


class Node(Server):
    """One server (an app with its own store and bus) on ``url``."""

    def __init__(self, url: str, lease: float = LEASE,
                 programs: dict[str, str] | None = None) -> None:
        super().__init__(url, programs=programs, lease=lease)
        self.beating: Callable[[], None] | None = None
        """The heartbeat's writer while :meth:`stop_heartbeat` holds it back."""

    @property
    def cluster(self) -> Any:
        return self.app.state.cluster

    @property
    def id(self) -> str:
        server_id: str = self.cluster.server_id
        return server_id

    def stop_heartbeat(self, why: str = "the database does not answer") -> None:
        """The server can no longer write its heartbeat (until :meth:`start_heartbeat`): it
        stops driving its tables, and another server takes them over after the lease."""
        self.beating = self.cluster.write_heartbeat

        def fails() -> None:
            raise OSError(why)

        self.cluster.write_heartbeat = fails

    def start_heartbeat(self) -> None:
        self.cluster.write_heartbeat = self.beating

    def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` on the server's event loop (awaited when it is a coroutine)."""
        portal = self.client.portal
        assert portal is not None
        return portal.call(function, *args)

    def join(self, table: str) -> tuple[str, str]:
        response = self.client.post(f"/api/tables/{table}/join", json={})
        assert response.status_code == 200, response.text
        data = response.json()
        return data["seat"], data["token"]

    def live(self, table: str) -> Any:
        """The server's copy of ``table``, once it holds one: a WebSocket is accepted before
        its table is read, so a test that opened one may look before the server holds it."""
        return wait_until(lambda: self.hub.tables.get(table), f"{self.id[:6]} to hold {table}")


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


def a_seat_at_each(one: Node, two: Node) -> tuple[str, dict[str, str]]:
    """A Caravan table made at ``one``, its seat ABC claimed there and DEF taken at ``two``:
    the table and both seats' tokens."""
    table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"}, claim=["ABC"])
    seat, token = two.join(table)
    tokens[seat] = token
    assert seat == "DEF"
    return table, tokens


def seat_socket(node: Node, table: str, token: str | None) -> Any:
    query = "" if token is None else f"?token={token}"
    return node.client.websocket_connect(f"/api/tables/{table}/ws{query}")


@contextlib.contextmanager
def recorders(table: str, tokens: dict[str, str],
              where: dict[str | None, Node]) -> Iterator[dict[str | None, Recorder]]:
    """For each seat of ``where`` (None: a spectator), in that order, a socket at the server
    given for it and a recorder of its frames; the sockets are closed when the block ends."""
    with contextlib.ExitStack() as stack:
        made: dict[str | None, Recorder] = {}
        for seat, node in where.items():
            token = None if seat is None else tokens[seat]
            socket = stack.enter_context(seat_socket(node, table, token))
            made[seat] = Recorder(socket, LeakChecker(node.store, table, seat, tokens))
        yield made


def told_once_in_order(viewer: Recorder, last: int) -> None:
    """Every ply from 1 to ``last`` was told to ``viewer`` exactly once, in order."""
    assert viewer.plies() == list(range(1, last + 1)), viewer.plies()


def wait_for_owner(node: Node, table: str) -> None:
    wait_until(lambda: table in node.hub.tables and node.live(table).owner
               and node.live(table).task is not None, f"{node.id[:6]} to drive {table}")


def frame_text(frame: dict[str, Any]) -> str:
    return json.dumps(frame, separators=(",", ":"))
