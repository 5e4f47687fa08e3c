"""Accounts through the HTTP API: sign up, sign in and out, sessions that end, the same answer
for an unknown name and a wrong password, limits on sign-in attempts (a clock driven by hand),
a guest who signs up keeping their games, and no password or session secret in any response
or log line."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from webplay import Server

pytest.importorskip("argon2")

from argon2 import PasswordHasher
from sqlalchemy import select

from cardtable.web import schema
from cardtable.web.accounts import SESSION_SECONDS, Accounts
from cardtable.web.limits import Limits, Rate
from cardtable.web.routes.bodies import NAME_MESSAGE
from cardtable.web.store import token_hash

PASSWORD = "correct horse battery"


class Clock:
    """Time that moves only when the test says."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class CountingHasher(PasswordHasher):
    """Counts the passwords it verifies."""

    def __init__(self) -> None:
        # Parameters that hash fast (the server's own take a quarter of a second).
        super().__init__(time_cost=1, memory_cost=64, parallelism=1)
        self.verified = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.verified += 1
        return super().verify(hash, password)


def accounts_of(server: Server, clock: Clock | None = None) -> Accounts:
    """The server's accounts, hashing fast, on ``clock`` when given."""
    accounts: Accounts = server.app.state.web.accounts
    accounts.hasher = CountingHasher()
    if clock is not None:
        accounts.clock = clock
        server.app.state.web.limiters.clock = clock
    return accounts


@pytest.fixture
def quick(sqlite_server: Server) -> Iterator[Server]:
    accounts_of(sqlite_server)
    yield sqlite_server


def sign_up(server: Server, name: str, password: str = PASSWORD, **headers: str) -> Any:
    return server.client.post("/api/accounts", json={"name": name, "password": password},
                              headers=headers)


def sign_in(server: Server, name: str, password: str = PASSWORD) -> Any:
    return server.client.post("/api/session", json={"name": name, "password": password})


def me(server: Server) -> Any:
    return server.client.get("/api/players/me").json()


def session_rows(server: Server) -> list[Any]:
    with server.store.engine.connect() as conn:
        return list(conn.execute(select(schema.sessions)).all())


def test_sign_up_sign_out_and_sign_in(server: Server) -> None:
    accounts_of(server)
    client = server.client
    assert me(server) == {"name": None, "account": False}
    response = sign_up(server, "Ann")
    assert response.status_code == 201, response.text
    assert response.json() == {"name": "Ann", "account": True}
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("cardtable_session=")
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Path=/" in cookie
    assert f"Max-Age={SESSION_SECONDS}" in cookie
    assert me(server) == {"name": "Ann", "account": True}
    # The database keeps the secret's hash only, and an Argon2id hash of the password.
    secret = client.cookies["cardtable_session"]
    assert [row.id for row in session_rows(server)] == [token_hash(secret)]
    with server.store.engine.connect() as conn:
        hashed: str = conn.execute(select(schema.players.c.password_hash)).scalar_one()
    assert hashed.startswith("$argon2id$") and PASSWORD not in hashed

    out = client.delete("/api/session")
    assert out.status_code == 200 and out.json() == {"name": None, "account": False}
    assert me(server) == {"name": None, "account": False}
    assert session_rows(server) == []
    # The old cookie, sent again, is no session any more.
    client.cookies.set("cardtable_session", secret)
    assert me(server) == {"name": None, "account": False}
    client.cookies.clear()

    answer = sign_in(server, "  ann ")
    assert answer.status_code == 200 and answer.json() == {"name": "Ann", "account": True}
    assert me(server) == {"name": "Ann", "account": True}
    assert client.cookies["cardtable_session"] != secret
    # Sign-out without a session is nothing to refuse.
    client.cookies.clear()
    assert client.delete("/api/session").status_code == 200


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(quick: Server) -> None:
    accounts = accounts_of(quick)
    hasher = accounts.hasher
    assert isinstance(hasher, CountingHasher)
    assert sign_up(quick, "Ann").status_code == 201
    quick.client.post("/api/players", json={"name": "Gus"})  # a guest: no password
    quick.client.cookies.clear()
    answers = []
    for name, password in (("Ann", "wrong password"), ("Nobody", PASSWORD), ("Gus", PASSWORD),
                           ("Ann", "x" * 5000)):
        before = hasher.verified
        response = sign_in(quick, name, password)
        answers.append((response.status_code, response.json(), response.headers.get(
            "set-cookie")))
        # The same work whatever the name: a password is checked against a hash each time
        # (a dummy one when there is no account), except one too long to be anyone's.
        assert hasher.verified == before + (password != "x" * 5000), name
    assert answers == [(401, {"error": "Wrong name or password."}, None)] * 4
    assert me(quick) == {"name": None, "account": False}


def test_sign_up_refusals(quick: Server) -> None:
    for body, status, message in [
        ({"password": PASSWORD}, 400, "A name is needed."),
        ({"name": "Ann"}, 400, "A password is needed."),
        ({"name": "<b>", "password": PASSWORD}, 400, NAME_MESSAGE),
        ({"name": "Ann", "password": "short"}, 400, "A password is 8 to 200 characters."),
        ({"name": "Ann", "password": "p" * 201}, 400, "A password is 8 to 200 characters."),
        ({"name": "Ann", "password": 12345678}, 400, "A password is 8 to 200 characters."),
        ({"name": "Ann", "password": PASSWORD, "email": "x"}, 400, "Unknown field 'email'."),
    ]:
        response = quick.client.post("/api/accounts", json=body)
        assert (response.status_code, response.json()) == (status, {"error": message}), body
    for body, message in [({"password": PASSWORD}, "A name is needed."),
                          ({"name": "Ann"}, "A password is needed."),
                          ({"name": 5, "password": PASSWORD}, "'name' must be text."),
                          ({"name": "Ann", "password": None}, "'password' must be text.")]:
        response = quick.client.post("/api/session", json=body)
        assert (response.status_code, response.json()) == (400, {"error": message}), body
    raw = quick.client.post("/api/accounts",
                            content=b'{"name": "Ann", "password": "\\ud800abcdefgh"}',
                            headers={"content-type": "application/json"})
    assert raw.status_code == 400
    assert me(quick) == {"name": None, "account": False}
    with quick.store.engine.connect() as conn:
        assert conn.execute(select(schema.players)).all() == []


def test_a_name_is_taken_by_an_account_or_by_another_browsers_guest(quick: Server) -> None:
    client = quick.client
    assert sign_up(quick, "Ann").status_code == 201
    client.cookies.clear()
    taken = sign_up(quick, "ANN", "another password")
    assert (taken.status_code, taken.json()) == (409, {"error": "The name 'ANN' is taken."})
    assert client.post("/api/players", json={"name": "ann"}).status_code == 409
    assert client.post("/api/players", json={"name": "Zed"}).status_code == 201
    client.cookies.clear()  # another browser
    assert sign_up(quick, "Zed").status_code == 409
    assert me(quick) == {"name": None, "account": False}


def test_a_guest_who_signs_up_under_their_name_keeps_their_games(quick: Server) -> None:
    client = quick.client
    assert client.post("/api/players", json={"name": "Gus"}).status_code == 201
    guest_secret = client.cookies["cardtable_player"]
    table, _tokens = quick.create("caravan", ["human", "bot:random"], claim=["ABC"])
    assert quick.store.seats(table)[0].player_id == token_hash(guest_secret)
    assert me(quick) == {"name": "Gus", "account": False}

    response = sign_up(quick, "gus")
    assert response.status_code == 201 and response.json() == {"name": "Gus", "account": True}
    assert 'cardtable_player=""' in response.headers["set-cookie"]  # the guest cookie goes
    with quick.store.engine.connect() as conn:
        rows = conn.execute(select(schema.players)).all()
    assert [(row.id, row.name) for row in rows] == [(token_hash(guest_secret), "Gus")]
    assert rows[0].password_hash is not None
    assert me(quick) == {"name": "Gus", "account": True}
    # The old guest cookie alone is nobody now: the account needs its password.
    client.cookies.clear()
    client.cookies.set("cardtable_player", guest_secret)
    assert me(quick) == {"name": None, "account": False}
    assert sign_up(quick, "Gus").status_code == 409


def test_a_signed_in_account_is_the_player_at_its_tables(quick: Server) -> None:
    client = quick.client
    client.post("/api/players", json={"name": "Gus"})  # a guest cookie too: the account wins
    assert sign_up(quick, "Ann").status_code == 201
    with quick.store.engine.connect() as conn:
        account_id: str = conn.execute(select(schema.players.c.id)
                                  .where(schema.players.c.name == "Ann")).scalar_one()
    created = client.post("/api/tables", json={"game": "caravan", "seats": ["human", "human"],
                                               "claim": ["ABC"]}).json()
    table = created["table"]
    client.cookies.clear()
    sign_in(quick, "Ann")
    joined = client.post(f"/api/tables/{table}/join", json={})
    assert joined.status_code == 200, joined.text
    seats = quick.store.seats(table)
    assert [(seat.player_id, seat.name) for seat in seats] == [(account_id, "Ann")] * 2


def test_an_expired_session_is_no_session(quick: Server) -> None:
    clock = Clock()
    accounts_of(quick, clock)
    assert sign_up(quick, "Ann").status_code == 201
    clock.now += SESSION_SECONDS - 60
    assert me(quick)["name"] == "Ann"
    clock.now += 61
    assert me(quick) == {"name": None, "account": False}
    # Expired sessions are deleted when another one opens.
    quick.client.cookies.clear()
    assert sign_in(quick, "Ann").status_code == 200
    assert len(session_rows(quick)) == 1


def test_sign_in_attempts_are_limited_per_name(quick: Server) -> None:
    clock = Clock()
    accounts_of(quick, clock)
    assert sign_up(quick, "Ann").status_code == 201
    quick.client.cookies.clear()
    for _attempt in range(10):
        assert sign_in(quick, "Ann", "wrong password").status_code == 401
    refused = sign_in(quick, "ann", PASSWORD)  # even the right password, now
    assert refused.status_code == 429
    assert refused.json()["error"].startswith("Too many sign-in attempts: try again in ")
    assert int(refused.headers["retry-after"]) == 90
    assert me(quick) == {"name": None, "account": False}
    # An unknown name is limited alike (nothing tells it from an account).
    for _attempt in range(10):
        assert sign_in(quick, "Nobody", "wrong password").status_code == 401
    assert sign_in(quick, "Nobody", "wrong password").status_code == 429
    # Other names are not held up, and the name gets one attempt more per 90 s.
    assert sign_up(quick, "Bob").status_code == 201
    quick.client.cookies.clear()
    assert sign_in(quick, "Bob").status_code == 200
    clock.now += 89
    assert sign_in(quick, "Ann").status_code == 429
    clock.now += 2
    assert sign_in(quick, "Ann").status_code == 200
    assert me(quick) == {"name": "Ann", "account": True}


def test_sign_in_attempts_are_limited_per_address(sqlite_url: str) -> None:
    with Server(sqlite_url, limits=Limits(signin=Rate(3, 60))) as server:
        clock = Clock()
        accounts_of(server, clock)
        for name in ("A1", "A2", "A3"):
            assert sign_in(server, name, "wrong password").status_code == 401
        refused = sign_in(server, "A4", "wrong password")
        assert refused.status_code == 429 and refused.headers["retry-after"] == "20"
        clock.now += 20
        assert sign_in(server, "A4", "wrong password").status_code == 401
        assert sign_in(server, "A5", "wrong password").status_code == 429


def test_sign_ups_are_limited_per_address(quick: Server) -> None:
    clock = Clock()
    accounts_of(quick, clock)
    for number in range(10):
        assert sign_up(quick, f"Player{number}").status_code == 201
    refused = sign_up(quick, "Player10")
    assert refused.status_code == 429 and refused.json()["error"].startswith("Too many sign-ups")
    clock.now += 360
    assert sign_up(quick, "Player10").status_code == 201


def test_a_hash_made_with_other_parameters_is_remade_at_sign_in(quick: Server) -> None:
    accounts = accounts_of(quick)
    assert sign_up(quick, "Ann").status_code == 201

    def stored() -> str:
        with quick.store.engine.connect() as conn:
            return str(conn.execute(select(schema.players.c.password_hash)).scalar_one())

    assert ",t=1," in stored()
    accounts.hasher = PasswordHasher(time_cost=2, memory_cost=64, parallelism=1)
    quick.client.cookies.clear()
    assert sign_in(quick, "Ann").status_code == 200
    assert ",t=2," in stored()
    quick.client.cookies.clear()
    assert sign_in(quick, "Ann").status_code == 200


def test_no_password_or_session_secret_in_any_response_or_log(
        quick: Server, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    client = quick.client
    texts = []
    for response in (sign_up(quick, "Ann"), client.get("/api/players/me"),
                     client.get("/api/people/Ann"), client.get("/people/Ann"),
                     client.delete("/api/session"), sign_in(quick, "Ann", PASSWORD + "!"),
                     sign_in(quick, "Bob", PASSWORD), sign_in(quick, "Ann"),
                     client.post("/api/accounts", json={"name": "Bo", "password": 5}),
                     sign_up(quick, "Ann"), client.get("/openapi.json")):
        texts.append(response.text + json.dumps(
            {key: value for key, value in response.headers.items() if key != "set-cookie"}))
    secret = client.cookies["cardtable_session"]
    with quick.store.engine.connect() as conn:
        stored = json.dumps([list(row) for table in (schema.players, schema.sessions)
                             for row in conn.execute(select(table)).all()])
    for text in (*texts, caplog.text, stored):
        assert PASSWORD not in text and secret not in text


def test_players_me_answers_200_always(quick: Server) -> None:
    client = quick.client
    assert client.get("/api/players/me").status_code == 200
    client.cookies.set("cardtable_session", "made-up")
    client.cookies.set("cardtable_player", "made-up")
    assert me(quick) == {"name": None, "account": False}
    client.cookies.set("cardtable_session", "x" * 5000)
    assert me(quick) == {"name": None, "account": False}


def test_the_account_page_has_its_forms_and_no_inline_script(quick: Server) -> None:
    page = quick.client.get("/account")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for element in ('id="sign-up-form"', 'id="sign-in-form"', 'id="sign-out"',
                    'src="/static/account.js"', 'href="/account"'):
        assert element in page.text, element
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page.text) == []
    assert quick.client.get("/static/account.js").status_code == 200


def test_signing_in_again_replaces_the_session(quick: Server) -> None:
    assert sign_up(quick, "Ann").status_code == 201
    first = quick.client.cookies["cardtable_session"]
    assert sign_in(quick, "Ann").status_code == 200
    assert quick.client.cookies["cardtable_session"] != first
    assert [row.id for row in session_rows(quick)] == [
        token_hash(quick.client.cookies["cardtable_session"])]


def test_openapi_documents_the_account_bodies(quick: Server) -> None:
    document = quick.client.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    for path, model in (("/api/accounts", "SignUp"), ("/api/session", "SignIn")):
        body = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        assert body["schema"] == {"$ref": f"#/components/schemas/{model}"}
        assert schemas[model]["additionalProperties"] is False
        assert schemas[model]["required"] == ["name", "password"]
        assert schemas[model]["properties"]["password"]["format"] == "password"
    assert schemas["SignUp"]["properties"]["password"]["minLength"] == 8
    assert "delete" in document["paths"]["/api/session"]
    assert "get" in document["paths"]["/api/people/{name}"]
