"""Bad input on a table's WebSocket: refused with an error frame or a close, never a
traceback, and nothing changes (no move stored, the same state frame after)."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from webplay import LeakChecker, Server, Viewer


def two_people(server: Server) -> tuple[str, dict[str, str]]:
    return server.create("caravan", ["human", "human"], {"rules": "foxon"})


def first_state(viewer: Viewer) -> dict[str, Any]:
    return viewer.until("state")


def refused(viewer: Viewer, message: object, raw: bool = False) -> str:
    if raw:
        viewer.socket.send_text(message)
    else:
        viewer.socket.send_json(message)
    frame = viewer.until("error")
    return str(frame["message"])


def assert_unchanged(server: Server, table: str, viewer: Viewer, ply: int) -> None:
    assert server.store.moves(table) == [] if ply == 0 else len(server.store.moves(table)) == ply
    viewer.socket.send_json({"type": "ping"})
    viewer.until("pong")
    view = server.client.get(f"/api/tables/{table}").json()
    assert view["ply"] == ply


def test_bad_messages_get_error_frames_and_change_nothing(server: Server) -> None:
    table, tokens = two_people(server)
    with server.client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['ABC']}") as ws:
        viewer = Viewer(ws, LeakChecker(server.store, table, "ABC", tokens))
        state = first_state(viewer)
        assert state["to_move"] == "ABC" and state["legal"]
        assert refused(viewer, "{not json", raw=True) == "Malformed JSON."
        assert refused(viewer, "[1, 2]", raw=True).startswith("A message is a JSON object")
        assert refused(viewer, {"move": "P1A"}).startswith("A message is a JSON object")
        assert refused(viewer, {"type": "dance"}) == "Unknown message type 'dance'."
        assert refused(viewer, {"type": "move"}).startswith("A move is a non-empty string")
        assert refused(viewer, {"type": "move", "move": 12}).startswith("A move is")
        assert refused(viewer, {"type": "move", "move": "X1"}) == (
            "Invalid option 'X', must be one of: (P)lay, (D)iscard, (C)lear.")
        big = json.dumps({"type": "chat", "text": "x" * 5000})
        assert refused(viewer, big, raw=True) == "Message over 4096 bytes."
        assert refused(viewer, "[" * 2000 + "]" * 2000, raw=True).startswith(
            ("Malformed JSON.", "A message is"))
        assert refused(viewer, {"type": "chat", "text": "y" * 301}).startswith(
            "A chat line has at most 300")
        assert refused(viewer, {"type": "chat", "text": " \x00 "}) == "A chat line cannot be empty."
        assert refused(viewer, {"type": "chat", "text": 5}) == "A chat line is a string."
        ws.send_bytes(b"\x00\x01")
        assert viewer.until("error")["message"] == "Messages are JSON text frames."
        assert_unchanged(server, table, viewer, 0)


def test_illegal_move_gets_the_terminal_message(server: Server) -> None:
    import cardtable

    table, tokens = two_people(server)
    row = server.store.table(table)
    assert row is not None
    state = cardtable.load_game("caravan", rules="foxon").new_state(row.seed)
    # The terminal's message for the same refused move, from the same deal.
    try:
        state.apply(state.parse_action("D1"))
        expected = None
    except Exception as error:
        expected = str(error)
    with server.client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['ABC']}") as ws:
        viewer = Viewer(ws, LeakChecker(server.store, table, "ABC", tokens))
        first_state(viewer)
        ws.send_json({"type": "move", "move": "D1"})
        assert expected is not None
        assert viewer.until("error")["message"] == expected
        assert_unchanged(server, table, viewer, 0)


def test_not_your_turn_and_spectators_cannot_act(server: Server) -> None:
    table, tokens = two_people(server)
    with server.client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['DEF']}") as ws:
        viewer = Viewer(ws, LeakChecker(server.store, table, "DEF", tokens))
        state = first_state(viewer)
        assert state["to_move"] == "ABC" and state["legal"] == []
        assert refused(viewer, {"type": "move", "move": "P1D"}) == "It is not your turn."
        assert_unchanged(server, table, viewer, 0)
    with server.client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "hello"})  # (a spectator)
        viewer = Viewer(ws, LeakChecker(server.store, table, None, tokens))
        state = first_state(viewer)
        assert state["seat"] is None and state["legal"] == []
        assert refused(viewer, {"type": "move", "move": "P1A"}) == "Spectators cannot move."
        assert refused(viewer, {"type": "chat", "text": "hi"}) == "Spectators cannot chat."
        assert_unchanged(server, table, viewer, 0)


@pytest.mark.parametrize("token", ["wrong", "x" * 500, "%00"])
def test_a_wrong_token_is_refused_and_closed(server: Server, token: str) -> None:
    table, _tokens = two_people(server)
    with server.client.websocket_connect(f"/api/tables/{table}/ws?token={token}") as ws:
        assert ws.receive_json() == {"type": "error", "message": "Unknown token for this table."}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    assert server.store.moves(table) == []


def test_a_token_of_another_table_cannot_act(server: Server) -> None:
    table, _tokens = two_people(server)
    _other, other_tokens = two_people(server)
    path = f"/api/tables/{table}/ws?token={other_tokens['ABC']}"
    with server.client.websocket_connect(path) as ws:
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_unknown_table_and_spectators_off(server: Server) -> None:
    with server.client.websocket_connect("/api/tables/nothere/ws") as ws:
        assert ws.receive_json() == {"type": "error", "message": "No such table."}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    table, tokens = server.create("caravan", ["human", "bot:random"], spectators=False)
    with server.client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "hello"})  # (a spectator's hello: no token)
        assert ws.receive_json()["message"] == "This table has no spectators."
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    view = server.client.get("/api/tables").json()["tables"]
    assert [t["spectators"] for t in view if t["table"] == table] == [
        {"allowed": False, "count": 0}]
    assert tokens


def test_a_flood_is_closed_and_changes_nothing(db_url: str) -> None:
    with Server(db_url, flood_limit=20) as server:
        table, tokens = two_people(server)
        path = f"/api/tables/{table}/ws?token={tokens['DEF']}"
        with server.client.websocket_connect(path) as ws:
            viewer = Viewer(ws, LeakChecker(server.store, table, "DEF", tokens))
            first_state(viewer)
            for _ in range(30):
                ws.send_json({"type": "move", "move": "P1D"})
            messages = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    frame = viewer.receive()
                    if frame["type"] == "error":
                        messages.append(frame["message"])
            assert closed.value.code == 1008
        assert messages[-1] == "Too many messages (more than 20 a second)."
        assert server.store.moves(table) == []


def test_chat_is_stored_sent_to_all_and_escaped(server: Server) -> None:
    table, tokens = two_people(server)
    abc = f"/api/tables/{table}/ws?token={tokens['ABC']}"
    with server.client.websocket_connect(abc) as one, \
            server.client.websocket_connect(f"/api/tables/{table}/ws") as watcher:
        watcher.send_json({"type": "hello"})  # (a spectator)
        me = Viewer(one, LeakChecker(server.store, table, "ABC", tokens))
        spectator = Viewer(watcher, LeakChecker(server.store, table, None, tokens))
        first_state(me)
        first_state(spectator)
        one.send_json({"type": "chat", "text": "<b>hi</b>\x07 there"})
        line = me.until("chat")
        assert line["text"] == "<b>hi</b> there"
        assert line["html"] == "&lt;b&gt;hi&lt;/b&gt; there"
        assert spectator.until("chat")["seat"] == "ABC"
    with server.client.websocket_connect(f"/api/tables/{table}/ws") as again:
        again.send_json({"type": "hello"})  # (a spectator)
        history = Viewer(again, LeakChecker(server.store, table, None, tokens)).until(
            "chat_history")
        assert [line["text"] for line in history["lines"]] == ["<b>hi</b> there"]


def test_a_chat_line_said_while_a_history_is_read_reaches_that_socket_once(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A WebSocket's chat history is read on a store thread: a line said during that read is
    in the history it is given, and is not sent to it again."""
    table, tokens = two_people(server)
    reading = server.store.chat
    entered, go = threading.Event(), threading.Event()

    def held_back(*args: Any) -> Any:
        lines = reading(*args)  # (read before the line is said, answered after)
        entered.set()
        assert go.wait(60)
        return lines

    with server.client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['ABC']}") as one:
        me = Viewer(one, LeakChecker(server.store, table, "ABC", tokens))
        first_state(me)
        one.send_json({"type": "chat", "text": "before"})
        me.until("chat")
        monkeypatch.setattr(server.store, "chat", held_back)
        with server.client.websocket_connect(
                f"/api/tables/{table}/ws?token={tokens['DEF']}") as two:
            assert entered.wait(60)
            one.send_json({"type": "chat", "text": "during"})
            me.until("chat")
            go.set()
            other = Viewer(two, LeakChecker(server.store, table, "DEF", tokens))
            history = other.until("chat_history")
            assert [line["text"] for line in history["lines"]] == ["before", "during"]
            first_state(other)
            one.send_json({"type": "chat", "text": "after"})
            assert other.until("chat")["text"] == "after"
            assert other.chat == [{**other.chat[0], "text": "after"}]


def test_a_chat_line_is_stored_while_the_server_goes_on_serving(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A chat line is stored on a store thread: while its write is held up, the server answers
    another socket; once stored, the line is told to both seats."""
    table, tokens = two_people(server)
    storing = server.store.add_chat
    entered, go = threading.Event(), threading.Event()
    waited: list[bool] = []

    def held_back(*args: Any) -> None:
        entered.set()
        waited.append(go.wait(30))  # (False: nothing else was served meanwhile)
        storing(*args)

    monkeypatch.setattr(server.store, "add_chat", held_back)
    with server.client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['ABC']}") as one, \
            server.client.websocket_connect(
                f"/api/tables/{table}/ws?token={tokens['DEF']}") as two:
        me = Viewer(one, LeakChecker(server.store, table, "ABC", tokens))
        other = Viewer(two, LeakChecker(server.store, table, "DEF", tokens))
        first_state(me)
        first_state(other)
        one.send_json({"type": "chat", "text": "held"})
        assert entered.wait(60)
        two.send_json({"type": "ping"})
        other.until("pong")
        assert other.chat == [] and server.store.chat(table) == []  # (not told before stored)
        go.set()
        assert other.until("chat")["text"] == "held"
        assert me.until("chat")["text"] == "held"
    assert waited == [True]
    assert [line["text"] for line in server.store.chat(table)] == ["held"]


def test_a_move_over_the_websocket_is_stored_and_broadcast(server: Server) -> None:
    table, tokens = two_people(server)
    abc = f"/api/tables/{table}/ws?token={tokens['ABC']}"
    with server.client.websocket_connect(abc) as one, \
            server.client.websocket_connect(f"/api/tables/{table}/ws") as watcher:
        watcher.send_json({"type": "hello"})  # (a spectator)
        me = Viewer(one, LeakChecker(server.store, table, "ABC", tokens))
        spectator = Viewer(watcher, LeakChecker(server.store, table, None, tokens))
        state = first_state(me)
        first_state(spectator)
        move = state["legal"][0]
        one.send_json({"type": "move", "move": move})
        after = me.until_state(lambda frame: frame["ply"] == 1)
        assert spectator.until_state(lambda frame: frame["ply"] == 1)["to_move"] == after[
            "to_move"]
        assert server.store.moves(table) == [("ABC", move)]
        table_frames = [f for f in spectator.other if f["type"] == "table"]
        assert table_frames and table_frames[-1]["spectators"]["count"] == 1
