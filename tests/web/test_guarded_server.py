"""``cardtable serve`` as a real process, as the web at large reaches it: no seat's token in
its log at any level, no 500 or traceback for a lone surrogate anywhere, HEAD answered, and
cookies ``Secure`` exactly when a trusted proxy says the request came over HTTPS."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from webplay import free_port
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from waiting import wait_until

SERVE = [sys.executable, "-m", "cardtable.cli.main", "serve"]


class Running:
    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log = log

    def post(self, path: str, body: dict[str, Any], **headers: str) -> httpx.Response:
        return httpx.post(self.base + path, json=body, headers=headers, timeout=30)

    def socket(self, path: str, **headers: str) -> Any:
        return connect(f"ws://127.0.0.1:{self.port}{path}", open_timeout=30,
                       additional_headers=headers)


@contextmanager
def serving(tmp_path: Path, *options: str) -> Iterator[Running]:
    port = free_port()
    log = tmp_path / f"server-{port}.log"
    command = [*SERVE, "--port", str(port), "--db", f"sqlite:///{tmp_path / 'web.db'}",
               "--bot-delay", "0", "--rate-limits", "off", *options]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                   env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    running = Running(port, log)

    def up() -> bool:
        assert process.poll() is None, log.read_text()
        try:
            return httpx.get(running.base + "/api/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_until(up, "the server to answer")
        yield running
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def until(socket: Any, kind: str, **fields: Any) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        frame: dict[str, Any] = json.loads(socket.recv(timeout=max(deadline - time.monotonic(),
                                                                   0.1)))
        if frame["type"] == kind and all(frame.get(k) == v for k, v in fields.items()):
            return frame


def use_tokens(server: Running) -> list[str]:
    """Everything a client may do with tokens and cookies; returns the secrets it used."""
    created = server.post("/api/tables", {"game": "caravan", "seats": ["human", "human"],
                                          "claim": ["ABC"]}).json()
    table, token = created["table"], created["tokens"]["ABC"]
    joined = server.post(f"/api/tables/{table}/join", {}).json()
    other = joined["token"]
    # The old way: the token in the URL (the access log shows the URL).
    with server.socket(f"/api/tables/{table}/ws?token={token}") as socket:
        state = until(socket, "state", seat="ABC")
        socket.send(json.dumps({"type": "move", "move": state["legal"][0]}))
        until(socket, "state", ply=1)
    # The new way: hello.
    with server.socket(f"/api/tables/{table}/ws") as socket:
        socket.send(json.dumps({"type": "hello", "token": other}))
        until(socket, "state", seat="DEF")
    # Wrong tokens, in the URL and in a hello, in a body and a header.
    with server.socket(f"/api/tables/{table}/ws?token=wrong{token}") as socket:
        until(socket, "error")
    with server.socket(f"/api/tables/{table}/ws") as socket:
        socket.send(json.dumps({"type": "hello", "token": f"bad{other}"}))
        until(socket, "error")
    server.post(f"/api/tables/{table}/rematch", {"token": token})
    server.post(f"/api/tables/{table}/rematch", {}, authorization=f"Bearer {other}")
    httpx.get(f"{server.base}/api/tables/{table}?token={token}", timeout=30)
    # A guest's cookie (its secret names the player) comes with every request of the page.
    guest = server.post("/api/players", {"name": "Ann"}).cookies["cardtable_player"]
    with server.socket(f"/api/tables/{table}/ws", cookie=f"cardtable_player={guest}") as socket:
        socket.send(json.dumps({"type": "hello"}))
        until(socket, "state")
    httpx.get(f"{server.base}/api/players/me", cookies={"cardtable_player": guest}, timeout=30)
    return [token, other, guest]


@pytest.mark.parametrize("level", ["debug", "info"])
def test_no_token_reaches_the_log(tmp_path: Path, level: str) -> None:
    with serving(tmp_path, "--log-level", level) as server:
        secrets = use_tokens(server)
    log = server.log.read_text(errors="replace")
    assert "WebSocket /api/tables/" in log  # (the log does show the sockets' URLs...)
    assert "token=[redacted]" in log  # (... without their tokens)
    for secret in secrets:
        assert secret not in log, log[-3000:]
        assert secret[:12] not in log and secret[-12:] not in log
    assert "Traceback" not in log


def test_a_lone_surrogate_is_never_a_500_nor_a_traceback(tmp_path: Path) -> None:
    with serving(tmp_path, "--log-level", "info") as server:
        table = server.post("/api/tables", {"game": "caravan",
                                            "seats": ["human", "human"]}).json()["table"]
        lone = b'"\\ud800"'
        for path in ("/api/tables", f"/api/tables/{table}/join", "/api/quick", "/api/players",
                     f"/api/tables/{table}/rematch", "/api/accounts", "/api/session"):
            for body in (b'{"game": ' + lone + b', "seats": ["human", "human"]}',
                         b'{"name": ' + lone + b"}", b"{" + lone + b": 1}",
                         b'{"token": ' + lone + b"}", b'{"name": "Ann", "password": ' + lone
                         + b"}"):
                answer = httpx.post(server.base + path, content=body, timeout=30,
                                    headers={"content-type": "application/json"})
                assert answer.status_code < 500, (path, body, answer.text)
        for path in ("/api/tables?game=%ED%A0%80", "/api/tables/%ED%A0%80", "/tables/%ED%A0%80",
                     "/howto/caravan/%ED%A0%80", "/api/leaderboard/%ED%A0%80", "/%ED%A0%80",
                     "/replay/%ED%A0%80", "/people/%ED%A0%80", "/api/people/%ED%A0%80"):
            assert httpx.get(server.base + path, timeout=30).status_code < 500, path
        with server.socket(f"/api/tables/{table}/ws?token=%ED%A0%80") as socket:
            until(socket, "error")
        with server.socket(f"/api/tables/{table}/ws") as socket:
            socket.send('{"type": "chat", "text": "\\ud800"}')
            socket.send('{"type": "move", "move": "P\\ud800A"}')
            socket.send('{"type": "hello", "token": "\\ud800"}')
            assert until(socket, "error", message="Unknown token for this table.")
        # A page of another site cannot open a table's socket: HTTP 403 at the handshake.
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws",
                    origin=Origin("http://evil.example"), open_timeout=30)
        assert refused.value.response.status_code == 403
        # HEAD answers like GET, without a body.
        head = httpx.head(server.base + "/", timeout=30)
        assert head.status_code == 200 and head.content == b""
        assert head.headers["x-frame-options"] == "DENY"
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log and " 500" not in log, log[-3000:]
    assert "ERROR" not in log, log[-3000:]


def cookie_of(answer: httpx.Response) -> str:
    assert answer.status_code == 201, answer.text
    return answer.headers["set-cookie"]


def test_cookies_are_secure_behind_a_trusted_tls_proxy(tmp_path: Path) -> None:
    https = {"x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.7"}
    with serving(tmp_path, "--behind-proxy") as server:
        secure = cookie_of(server.post("/api/players", {"name": "Ann"}, **https))
        assert "; Secure" in secure and "HttpOnly" in secure and "SameSite=lax" in secure
        plain = cookie_of(server.post("/api/players", {"name": "Bob"}))
        assert "Secure" not in plain
        # The page's origin is the proxy's https one.
        origin = {"origin": f"https://127.0.0.1:{server.port}"}
        assert server.post("/api/tables", {"game": "caravan", "seats": ["human", "human"]},
                           **https, **origin).status_code == 201
        assert server.post("/api/tables", {"game": "caravan", "seats": ["human", "human"]},
                           **origin).status_code == 403


def test_forwarded_headers_from_anyone_else_are_ignored(tmp_path: Path) -> None:
    https = {"x-forwarded-proto": "https"}
    # A proxy elsewhere: this client (127.0.0.1) is not it.
    with serving(tmp_path, "--behind-proxy", "--forwarded-allow-ips", "10.9.8.7") as server:
        assert "Secure" not in cookie_of(server.post("/api/players", {"name": "Ann"}, **https))
    # No proxy at all: nobody's forwarded headers count, not even this machine's.
    with serving(tmp_path) as server:
        assert "Secure" not in cookie_of(server.post("/api/players", {"name": "Bob"}, **https))
        origin = {"origin": f"https://127.0.0.1:{server.port}"}
        assert server.post("/api/tables", {"game": "caravan", "seats": ["human", "human"]},
                           **https, **origin).status_code == 403


@pytest.mark.parametrize(("options", "message"), [
    (["--forwarded-allow-ips", "proxy.example"],
     "--forwarded-allow-ips: 'proxy.example' is no address or network"),
    (["--forwarded-allow-ips", " , "], "--forwarded-allow-ips needs an address"),
])
def test_bad_proxy_addresses_are_refused(tmp_path: Path, options: list[str],
                                         message: str) -> None:
    done = subprocess.run([*SERVE, "--port", "0", "--db", f"sqlite:///{tmp_path / 'x.db'}",
                           *options], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.startswith("cardtable serve: ") and done.stderr.count("\n") == 1
    assert message in done.stderr
