"""Every answer carries the security headers: each page a Content-Security-Policy that allows
nothing inline and no framing, everything else a policy that loads nothing; HEAD answers
wherever GET does; and no page or script of the server needs what the policy forbids."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest
from webplay import Server, Viewer, play_through, random_chooser, sockets

from cardtable.engine import game_registry
from cardtable.web.security import OTHER_POLICY, PAGE_POLICY

WEB = files("cardtable.web")
EVERYWHERE = {"x-content-type-options": "nosniff", "x-frame-options": "DENY",
              "referrer-policy": "same-origin"}


def policy(answer_headers: dict[str, str]) -> dict[str, str]:
    """The Content-Security-Policy's directives, name → sources."""
    text = answer_headers["content-security-policy"]
    return {part.split()[0]: " ".join(part.split()[1:])
            for part in text.split(";") if part.strip()}


def page_paths(server: Server) -> list[str]:
    """A page of every kind: lobby, table, replay, how-to pages, leaderboard, and a 404."""
    table, tokens = server.create("caravan", ["human", "bot:random"])
    for seat, connect, checker in sockets(server.client, server.store, table, tokens):
        with connect as socket:
            play_through({seat: Viewer(socket, checker)}, {seat}, random_chooser(1))
    paths = ["/", f"/tables/{table}", f"/replay/{table}", "/howto", "/leaderboard",
             "/tables/nothere", "/howto/chess"]
    # Pages that may come with accounts: a person's page, the account page.
    paths += [path for path in ("/account", "/people/nobody")
              if server.client.get(path).headers["content-type"].startswith("text/html")]
    for description in game_registry.descriptions():
        paths.append(f"/howto/{description.name}")
        paths += [f"/howto/{description.name}/{preset}" for preset in description.presets[:2]]
    return paths


def test_every_page_has_the_page_policy(sqlite_server: Server) -> None:
    client = sqlite_server.client
    for path in page_paths(sqlite_server):
        answer = client.get(path)
        assert answer.headers["content-type"].startswith("text/html"), path
        for name, value in EVERYWHERE.items():
            assert answer.headers[name] == value, (path, name)
        assert answer.headers["content-security-policy"] == PAGE_POLICY, path
        directives = policy(dict(answer.headers))
        assert directives["script-src"] == "'self'"
        assert directives["style-src"] == "'self'"
        assert directives["frame-ancestors"] == "'none'"
        assert directives["connect-src"] == "'self'"
        assert "unsafe-inline" not in answer.headers["content-security-policy"]
        # HEAD: the same status and headers, no body.
        head = client.head(path)
        assert (head.status_code, head.content) == (answer.status_code, b""), path
        assert head.headers["content-security-policy"] == PAGE_POLICY
        assert head.headers["content-length"] == answer.headers["content-length"]


@pytest.mark.parametrize("path", ["/api/tables", "/api/health", "/api/games", "/openapi.json",
                                  "/static/common.js", "/static/style.css", "/api/nothing",
                                  "/static/nothing.js"])
def test_everything_else_loads_nothing(sqlite_server: Server, path: str) -> None:
    answer = sqlite_server.client.get(path)
    for name, value in EVERYWHERE.items():
        assert answer.headers[name] == value, name
    assert answer.headers["content-security-policy"] == OTHER_POLICY
    head = sqlite_server.client.head(path)
    assert head.status_code == answer.status_code and head.content == b""
    assert head.headers["x-frame-options"] == "DENY"


def test_refusals_of_the_guard_carry_the_headers_too(sqlite_server: Server) -> None:
    answer = sqlite_server.client.post("/api/tables", content=b"x",
                                       headers={"content-type": "text/plain"})
    assert answer.status_code == 415
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["content-security-policy"] == OTHER_POLICY


def test_a_server_error_carries_the_headers_too(sqlite_server: Server) -> None:
    from fastapi.testclient import TestClient

    def broken() -> None:
        raise RuntimeError("a bug")

    sqlite_server.app.add_api_route("/api/broken", broken)
    client = TestClient(sqlite_server.app, raise_server_exceptions=False)
    answer = client.get("/api/broken")
    assert answer.status_code == 500 and answer.json() == {"error": "Internal error."}
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["content-security-policy"] == OTHER_POLICY


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>",
                           re.IGNORECASE)
HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"\sstyle\s*=", re.IGNORECASE)
JAVASCRIPT_URL = re.compile(r"javascript:", re.IGNORECASE)


def test_no_page_needs_what_the_policy_forbids(sqlite_server: Server) -> None:
    # Templates: no inline script (a JSON data block is data, not a script), no on…=
    # handler, no style= attribute, no javascript: URL.
    templates = WEB.joinpath("templates")
    checked = 0
    for template in templates.iterdir():
        if template.name.endswith(".html"):
            text = template.read_text(encoding="utf-8")
            for pattern in (INLINE_SCRIPT, HANDLER, STYLE_ATTRIBUTE, JAVASCRIPT_URL):
                assert not pattern.search(text), (template.name, pattern.pattern)
            checked += 1
    assert checked >= 5
    # Scripts: no eval, no string handlers, no style attribute written as text (setting
    # element.style.x from a script is allowed by the policy; a style="" attribute is not).
    for script in WEB.joinpath("static").iterdir():
        if script.name.endswith(".js"):
            text = script.read_text(encoding="utf-8")
            assert not re.search(r"\beval\(|new Function\(|setTimeout\(\s*[\"'`]", text), \
                script.name
            assert not re.search(r"""\bstyle\s*:\s*["'`]|setAttribute\(\s*["']style""", text), \
                script.name
            assert not re.search(r"""innerHTML\s*=\s*[^;]*\s(on[a-z]+|style)=""", text), \
                script.name
    # And the pages as served (the boards of every game in them).
    for path in page_paths(sqlite_server):
        text = sqlite_server.client.get(path).text
        for pattern in (INLINE_SCRIPT, HANDLER, STYLE_ATTRIBUTE, JAVASCRIPT_URL):
            assert not pattern.search(text), (path, pattern.pattern)
