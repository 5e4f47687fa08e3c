"""Rate limits on a running app in tests (test_limits_http.py on one server,
test_shared_limits.py on two): a clock the test moves, a new table, a socket that opened, and
the refusal of a socket over the cap."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from webplay import Server


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def new_table(server: Server, **extra: Any) -> Any:
    return server.client.post("/api/tables", json={
        "game": "caravan", "seats": ["human", "human"], "claim": ["ABC"], **extra})


def open_socket(server: Server, stack: contextlib.ExitStack, table: str,
                token: str | None = None) -> Any:
    path = f"/api/tables/{table}/ws" + (f"?token={token}" if token else "")
    socket = stack.enter_context(server.client.websocket_connect(path))
    frame = socket.receive_json()
    assert frame["type"] == "table", frame
    return socket


def refused_over_the_cap(server: Server, table: str, cap: int) -> None:
    """A socket opened at ``table`` gets the error frame of ``cap`` connections at once, then
    is closed with 4429."""
    with server.client.websocket_connect(f"/api/tables/{table}/ws") as over:
        assert over.receive_json() == {
            "type": "error", "message": f"Too many connections at once (at most {cap}): close "
            "another table's page first."}
        with pytest.raises(WebSocketDisconnect) as closed:
            over.receive_json()
        assert closed.value.code == 4429
