"""Requests another site's page could make are refused: every request that changes something
takes only JSON (415 otherwise) and only from the server's own origin (403 otherwise), and so
does the table's WebSocket; a lone surrogate anywhere in a request is a 4xx with a message."""

from __future__ import annotations

import json
import re

import pytest
from starlette.websockets import WebSocketDisconnect
from webplay import Server

NOT_JSON = {"error": "The request body must be JSON, sent with Content-Type: application/json."}
CHANGING = ("POST", "PUT", "PATCH", "DELETE")


def changing_routes(server: Server, table: str) -> list[tuple[str, str]]:
    """(method, path) of every API route that changes something (as /openapi.json lists
    them), its table the given one."""
    found = []
    for path, operations in server.client.get("/openapi.json").json()["paths"].items():
        for method in operations:
            if method.upper() in CHANGING:
                path = path.replace("{table_id}", table)
                found.append((method.upper(), re.sub(r"\{[a-z_]+\}", "x", path)))
    assert ("POST", "/api/tables") in found and len(found) >= 5, found
    return found


@pytest.fixture
def table(sqlite_server: Server) -> str:
    table, _tokens = sqlite_server.create("caravan", ["human", "human"], claim=["ABC"])
    return table


def test_a_body_that_is_not_json_is_refused_everywhere(sqlite_server: Server, table: str) -> None:
    client = sqlite_server.client
    body = json.dumps({"game": "caravan", "seats": ["human", "human"], "name": "Ann"})
    for method, path in changing_routes(sqlite_server, table):
        for content_type in (None, "text/plain", "application/x-www-form-urlencoded",
                             "multipart/form-data; boundary=x", "application/jsonx"):
            headers = {} if content_type is None else {"content-type": content_type}
            answer = client.request(method, path, content=body, headers=headers)
            assert answer.status_code == 415, (method, path, content_type, answer.text)
            assert answer.json() == NOT_JSON
    assert [t["table"] for t in client.get("/api/tables").json()["tables"]] == [table]
    # The same body as JSON (any letter case, with a charset) is read.
    created = client.post("/api/tables", content=body,
                          headers={"content-type": "Application/JSON; charset=utf-8"})
    assert created.status_code == 201, created.text


@pytest.mark.parametrize("origin", [
    "http://evil.example", "https://testserver", "http://testserver:8080", "null",
    "http://testserver.evil.example", "not a url", "http://[::1", "http://testserver:99999"])
def test_a_request_from_another_site_is_refused(sqlite_server: Server, table: str,
                                                origin: str) -> None:
    client = sqlite_server.client
    for method, path in changing_routes(sqlite_server, table):
        answer = client.request(method, path, json={"game": "caravan", "seats": ["human"]},
                                headers={"origin": origin})
        assert answer.status_code == 403, (method, path, answer.text)
        assert answer.json()["error"].startswith(
            "Refused: the request comes from another site (")
    assert [t["table"] for t in client.get("/api/tables").json()["tables"]] == [table]
    # The WebSocket's handshake too: refused before any frame of the table.
    with pytest.raises(WebSocketDisconnect) as denied, \
            client.websocket_connect(f"/api/tables/{table}/ws", headers={"origin": origin}):
        pass
    assert denied.value.code == 1008  # (before the handshake: an HTTP 403 for the client)
    # Reading is not changing: a GET from another site is answered (it cannot read it: no
    # CORS header allows it).
    read = client.get("/api/tables", headers={"origin": origin})
    assert read.status_code == 200 and "access-control-allow-origin" not in read.headers


@pytest.mark.parametrize(("origin", "host"), [
    ("http://testserver", "testserver"), ("http://testserver:80", "testserver"),
    ("http://TestServer", "testserver:80"), ("http://127.0.0.1:8000", "127.0.0.1:8000"),
    ("http://[::1]:8000", "[::1]:8000")])
def test_the_server_s_own_origin_is_welcome(sqlite_server: Server, table: str, origin: str,
                                            host: str) -> None:
    client = sqlite_server.client
    headers = {"origin": origin, "host": host}
    answer = client.post(f"/api/tables/{table}/join", json={}, headers=headers)
    assert answer.status_code == 200, answer.text
    with client.websocket_connect(f"/api/tables/{table}/ws", headers=headers) as socket:
        assert socket.receive_json()["type"] == "table"


def test_behind_tls_the_origin_is_https(sqlite_server: Server, table: str) -> None:
    # The scheme is the request's as the server sees it (a trusted proxy's X-Forwarded-Proto
    # sets it): an http page may not post to the https server, nor the other way round.
    client = sqlite_server.client
    join = f"https://testserver/api/tables/{table}/join"
    assert client.post(join, json={}, headers={"origin": "http://testserver"}
                       ).status_code == 403
    answer = client.post(join, json={}, headers={"origin": "https://testserver"})
    assert answer.status_code == 200, answer.text
    assert client.post("/api/quick", json={"game": "caravan"},
                       headers={"origin": "https://testserver"}).status_code == 403


SURROGATE_PATHS = [
    "/api/tables?game=%ED%A0%80", "/api/tables/%ED%A0%80", "/tables/%ED%A0%80",
    "/howto/%ED%A0%80", "/howto/caravan/%ED%A0%80", "/api/leaderboard/%ED%A0%80",
    "/replay/%ED%A0%80", "/replay/%ED%A0%80/steps", "/api/tables?game=%5Cud800",
    "/api/howto/caravan?preset=%ED%A0%80", "/%ED%A0%80", "/static/%ED%A0%80",
    "/api/tables/%ED%A0%80/record", "/api/tables?%ED%A0%80=1", "/api/tables?page=%ED%A0%80",
    "/api/howto/%ED%A0%80"]


def test_a_lone_surrogate_anywhere_is_a_4xx_with_a_message(sqlite_server: Server,
                                                           table: str) -> None:
    client = sqlite_server.client
    for path in SURROGATE_PATHS:
        answer = client.get(path)
        assert answer.status_code < 500, (path, answer.status_code)
        if answer.status_code >= 400 and answer.headers["content-type"].startswith(
                "application/json"):
            assert answer.json()["error"], path
    lone = '"\\ud800"'
    bodies = [f'{{"game": {lone}, "seats": ["human", "human"]}}', f'{{"name": {lone}}}',
              f'{{{lone}: 1}}', f'{{"token": {lone}}}', f'{{"seat": {lone}}}',
              f'{{"game": "caravan", "seats": ["human", "human"], "name": {lone}}}',
              f'{{"name": "a{lone[1:-1]}b", "password": {lone}}}']
    for method, path in changing_routes(sqlite_server, table):
        for body in bodies:
            answer = client.request(method, path, content=body.encode(),
                                    headers={"content-type": "application/json"})
            # (A route that reads no body, as signing out, may well answer 200.)
            assert answer.status_code < 500, (path, body, answer.text)
            if answer.status_code >= 400:
                assert answer.json()["error"], (path, body)
    # In a cookie or a header, it is no cookie or token of the server's.
    raw = "\udcdd".encode("utf-8", "surrogatepass")
    assert client.get("/api/players/me", headers={"cookie": b"cardtable_player=" + raw}
                      ).status_code < 500
    assert client.post(f"/api/tables/{table}/rematch",
                       headers={"authorization": b"Bearer " + raw}).status_code == 403
    # On the WebSocket: an error frame, the connection goes on.
    with client.websocket_connect(f"/api/tables/{table}/ws?token=%ED%A0%80") as socket:
        assert socket.receive_json() == {"type": "error",
                                         "message": "Unknown token for this table."}
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        socket.send_text('{"type": "hello", "token": "\\ud800"}')
        while (frame := socket.receive_json())["type"] != "error":
            pass
        assert frame == {"type": "error", "message": "Unknown token for this table."}
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4401
