"""Arbitrary messages on a table's WebSocket: each gets an error frame (or the echo of a chat
line, or the state after a legal move), the connection stays usable, and nothing but a legal
move is ever stored."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webplay import LeakChecker, Server, Viewer

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=12,
)
MESSAGES = st.one_of(
    st.text(max_size=200),
    JSON.map(json.dumps),
    st.fixed_dictionaries({"type": st.sampled_from(["move", "chat", "ping", "x"])},
                          optional={"move": JSON, "text": JSON}).map(json.dumps),
    st.fixed_dictionaries({"type": st.just("move"),
                           "move": st.text(alphabet="PDCABCDEF0123456789: ", max_size=8)}
                          ).map(json.dumps),
)


def test_arbitrary_messages(sqlite_server: Server) -> None:
    server = sqlite_server
    table, tokens = server.create("caravan", ["human", "human"], {"rules": "nv"})
    path = f"/api/tables/{table}/ws?token={tokens['ABC']}"  # ABC moves first
    with server.client.websocket_connect(path) as ws:
        viewer = Viewer(ws, LeakChecker(server.store, table, "ABC", tokens))
        legal = set(viewer.until("state")["legal"])

        @settings(max_examples=150, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
        @given(MESSAGES)
        def one(message: str) -> None:
            ws.send_text(message)
            ws.send_json({"type": "ping"})
            frames: list[dict[str, Any]] = []
            while True:
                frame = viewer.receive()
                if frame["type"] == "pong":
                    break
                frames.append(frame)
            kinds = {frame["type"] for frame in frames}
            assert kinds <= {"error", "chat", "table", "state"}, frames
            # Only a legal move of ABC's changes anything; then it is DEF's turn.
            stored = server.store.moves(table)
            assert len(stored) <= 1
            assert all(seat == "ABC" and move in legal for seat, move in stored)

        one()
    assert server.client.get("/api/health").json()["status"] == "ok"
