"""A seat's token as the WebSocket's first message (``hello``) instead of in its URL: the
connection becomes the seat's, a wrong token closes it (4401), a table without spectators
waits for the hello, and ``?token=`` still works."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from webplay import LeakChecker, Server, Viewer

from cardtable.web.routes import socket_hello


def until(socket: Any, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = socket.receive_json()
        if frame["type"] == kind:
            return frame


def seated_state(socket: Any, seat: str) -> dict[str, Any]:
    while True:
        frame = until(socket, "state")
        if frame["seat"] == seat:
            return frame


def test_hello_makes_the_connection_the_seat_s(server: Server) -> None:
    table, tokens = server.create("caravan", ["human", "human"])
    with server.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
        viewer = Viewer(socket, LeakChecker(server.store, table, "ABC", tokens))
        socket.send_json({"type": "hello", "token": tokens["ABC"]})
        # The seat's frames, as with ?token=, and nothing of a spectator's before them.
        assert [viewer.receive()["type"] for _ in range(3)] == ["table", "chat_history",
                                                                "state"]
        frame = viewer.last
        assert frame is not None and frame["seat"] == "ABC" and frame["legal"], frame
        table_frame = viewer.until("table")
        assert [seat["connected"] for seat in table_frame["seats"]] == [True, False]
        assert table_frame["spectators"]["count"] == 0
        # The seat plays through it.
        socket.send_json({"type": "move", "move": frame["legal"][0]})
        moved = viewer.until_state(lambda frame: frame["ply"] == 1)
        assert moved["seat"] == "ABC" and len(server.store.moves(table)) == 1
        # A second hello with the same token changes nothing; another seat's is refused.
        socket.send_json({"type": "hello", "token": tokens["ABC"]})
        socket.send_json({"type": "hello", "token": tokens["DEF"]})
        assert viewer.until("error")["message"] == "This connection is seat ABC's."
        socket.send_json({"type": "chat", "text": "hi"})
        assert viewer.until("chat")["seat"] == "ABC"


def test_a_spectator_s_connection_says_hello_later(server: Server) -> None:
    table, tokens = server.create("caravan", ["human", "human"])
    with server.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
        socket.send_json({"type": "ping"})  # (no hello: a spectator's connection at once)
        assert socket.receive_json() == {"type": "pong"}
        assert until(socket, "state")["seat"] is None
        viewer = Viewer(socket, LeakChecker(server.store, table, "DEF", tokens))
        socket.send_json({"type": "hello", "token": tokens["DEF"]})
        assert viewer.until_state(lambda frame: frame["seat"] == "DEF")["legal"] == []
        table_frame = viewer.until("table")
        assert [seat["connected"] for seat in table_frame["seats"]] == [False, True]
        assert table_frame["spectators"]["count"] == 0
    with server.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
        socket.send_json({"type": "ping"})
        until(socket, "state")
        socket.send_json({"type": "hello", "token": "wrong"})
        assert until(socket, "error")["message"] == "Unknown token for this table."
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_json()
        assert closed.value.code == 4401


def test_a_spectator_says_hello_without_a_token(server: Server) -> None:
    table, _tokens = server.create("caravan", ["human", "human"])
    with server.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
        socket.send_json({"type": "hello"})
        assert socket.receive_json()["type"] == "table"
        assert socket.receive_json()["type"] == "chat_history"
        assert socket.receive_json()["seat"] is None
        socket.send_json({"type": "chat", "text": "hi"})
        assert until(socket, "error")["message"] == "Spectators cannot chat."


def test_a_silent_connection_is_a_spectator_s_after_a_while(
        sqlite_server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket_hello, "HELLO_SECONDS", 0.2)
    table, _tokens = sqlite_server.create("caravan", ["human", "human"])
    with sqlite_server.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
        assert socket.receive_json()["type"] == "table"
        assert until(socket, "state")["seat"] is None


def test_a_client_that_does_not_say_hello_watches_at_once(
        sqlite_server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    # Without ?hello (older clients) a connection without a token is a spectator's at once,
    # however long the server would wait for a hello.
    monkeypatch.setattr(socket_hello, "HELLO_SECONDS", 3600.0)
    table, _tokens = sqlite_server.create("caravan", ["human", "human"])
    with sqlite_server.client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        assert socket.receive_json()["type"] == "table"
        assert until(socket, "state")["seat"] is None


@pytest.mark.parametrize("token", ["wrong", "x" * 500, "%00", "\ud800", 5, ["x"]])
def test_a_wrong_token_in_hello_is_refused_and_closed(server: Server, token: object) -> None:
    table, _tokens = server.create("caravan", ["human", "human"])
    with server.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
        socket.send_json({"type": "hello", "token": token})
        assert until(socket, "error") == {"type": "error",
                                          "message": "Unknown token for this table."}
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4401
    _other, other_tokens = server.create("caravan", ["human", "human"])
    with server.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
        socket.send_json({"type": "hello", "token": other_tokens["ABC"]})
        until(socket, "error")
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4401
    assert server.store.moves(table) == []


def test_without_spectators_the_seat_says_hello_first(server: Server) -> None:
    table, tokens = server.create("caravan", ["human", "human"], spectators=False)
    with server.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
        socket.send_json({"type": "hello", "token": tokens["DEF"]})
        # The seat's frames, as with ?token=: table, chat history, the seat's state.
        assert socket.receive_json()["type"] == "table"
        assert socket.receive_json()["type"] == "chat_history"
        state = socket.receive_json()
        assert (state["type"], state["seat"]) == ("state", "DEF")
    for first in ({"type": "hello"}, {"type": "ping"}, {"type": "hello", "token": ""}):
        with server.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
            socket.send_json(first)
            assert socket.receive_json() == {"type": "error",
                                             "message": "This table has no spectators."}
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 4403
    with server.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
        socket.send_json({"type": "hello", "token": "wrong"})
        assert socket.receive_json()["message"] == "Unknown token for this table."
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4401


def test_a_silent_connection_to_a_table_without_spectators_is_refused_in_time(
        sqlite_server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket_hello, "HELLO_SECONDS", 0.2)
    table, _tokens = sqlite_server.create("caravan", ["human", "human"], spectators=False)
    with sqlite_server.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
        assert socket.receive_json() == {"type": "error",
                                         "message": "This table has no spectators."}
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4403


def test_the_token_in_the_url_still_works(server: Server) -> None:
    table, tokens = server.create("caravan", ["human", "human"], spectators=False)
    with server.client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['ABC']}") as ws:
        assert seated_state(ws, "ABC")["legal"]


def test_hello_is_what_the_table_page_says() -> None:
    from importlib.resources import files

    script = files("cardtable.web").joinpath("static", "table.js").read_text(encoding="utf-8")
    assert '{type: "hello", token: this.token}' in script
    assert "/ws?hello`" in script
    assert "?token=" not in script
