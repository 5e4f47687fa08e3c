"""Ratings belong to accounts: a game between accounts is rated (with a row of rating history
per account), guests play unrated, and the leaderboard and a person's page (JSON and HTML)
show accounts' ratings, history and games with their replays."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from webplay import Server, Viewer, play_through, random_chooser, sockets

pytest.importorskip("argon2")
pytest.importorskip("openskill")

from argon2 import PasswordHasher
from sqlalchemy import select

from cardtable.web import people, schema

PASSWORD = "correct horse battery"
GAME = "caravan"
SEATS = ("ABC", "DEF")


def fast_hashing(server: Server) -> None:
    server.app.state.web.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=64,
                                                          parallelism=1)


def cookie_of(server: Server, name: str, account: bool) -> dict[str, str]:
    """A browser's cookie header for ``name``: a new account's session, or a guest's."""
    client = server.client
    client.cookies.clear()
    if account:
        response = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        cookie = "cardtable_session"
    else:
        response = client.post("/api/players", json={"name": name})
        cookie = "cardtable_player"
    assert response.status_code == 201, response.text
    value = response.cookies[cookie]
    client.cookies.clear()
    return {"cookie": f"{cookie}={value}"}


def play(server: Server, first: dict[str, str], second: dict[str, str], seed: int = 4,
         private: bool = False) -> dict[str, Any]:
    """A whole game between the two browsers; the finished table's public view."""
    client = server.client
    created = client.post("/api/tables", headers=first, json={
        "game": GAME, "seats": ["human", "human"], "claim": [SEATS[0]],
        "private": private}).json()
    table = created["table"]
    joined = client.post(f"/api/tables/{table}/join", headers=second, json={}).json()
    tokens = {SEATS[0]: created["tokens"][SEATS[0]], SEATS[1]: joined["token"]}
    with contextlib.ExitStack() as stack:
        viewers = {seat: Viewer(stack.enter_context(socket), checker)
                   for seat, socket, checker in sockets(client, server.store, table, tokens)}
        last = play_through(viewers, set(SEATS), random_chooser(seed))
    assert last["result"] is not None
    view: dict[str, Any] = client.get(f"/api/tables/{table}").json()
    view["table"] = table
    return view


def history_rows(server: Server) -> list[Any]:
    with server.store.engine.connect() as conn:
        return list(conn.execute(select(schema.rating_history, schema.players.c.name)
                                 .join(schema.players, schema.players.c.id ==
                                       schema.rating_history.c.player_id)
                                 .order_by(schema.rating_history.c.id)).all())


def test_a_game_between_accounts_is_rated_with_history(server: Server) -> None:
    fast_hashing(server)
    ann, bob = cookie_of(server, "Ann", True), cookie_of(server, "Bob", True)
    finished = play(server, ann, bob)
    board = server.client.get(f"/api/leaderboard/{GAME}").json()["players"]
    assert sorted(entry["name"] for entry in board) == ["Ann", "Bob"]
    assert all(entry["games"] == 1 for entry in board)
    winners = finished["result"]["winners"]
    if winners:
        assert board[0]["name"] == dict(zip(SEATS, ("Ann", "Bob"), strict=True))[winners[0]]
        assert board[0]["rating"] > board[1]["rating"]
    rows = history_rows(server)
    assert sorted(row.name for row in rows) == ["Ann", "Bob"]
    assert {(row.game, row.table_id) for row in rows} == {(GAME, finished["table"])}
    by_name = {entry["name"]: entry for entry in board}
    for row in rows:
        assert (round(row.mu, 3), round(row.sigma, 3)) == (by_name[row.name]["mu"],
                                                            by_name[row.name]["sigma"])

    # The person's page: the rating, its history and the game with its replay.
    page = server.client.get("/api/people/ann").json()
    assert page["name"] == "Ann" and page["account"] is True
    assert [(entry["game"], entry["games"], entry["rating"]) for entry in page["ratings"]] == [
        (GAME, 1, by_name["Ann"]["rating"])]
    assert [(point["table"], point["rating"]) for point in page["history"]] == [
        (finished["table"], by_name["Ann"]["rating"])]
    [game] = page["games"]
    assert (game["table"], game["seat"], game["replay"]) == (
        finished["table"], "ABC", f"/replay/{finished['table']}")
    assert game["others"] == [{"seat": "DEF", "name": "Bob"}]
    assert game["place"] == (1 if not winners or "ABC" in winners else 2)
    html = server.client.get("/people/Ann")
    assert html.status_code == 200 and "text/html" in html.headers["content-type"]
    assert f'href="/replay/{finished["table"]}"' in html.text
    assert "<svg" in html.text and "<script>" not in html.text
    assert server.client.get(game["replay"]).status_code == 200


def test_guests_are_not_rated_even_against_accounts(sqlite_server: Server) -> None:
    fast_hashing(sqlite_server)
    ann, gus = cookie_of(sqlite_server, "Ann", True), cookie_of(sqlite_server, "Gus", False)
    play(sqlite_server, ann, gus)
    zed = cookie_of(sqlite_server, "Zed", False)
    play(sqlite_server, gus, zed, seed=5)
    client = sqlite_server.client
    assert client.get(f"/api/leaderboard/{GAME}").json()["players"] == []
    assert history_rows(sqlite_server) == []
    with sqlite_server.store.engine.connect() as conn:
        assert conn.execute(select(schema.ratings)).all() == []
    # A guest's page lists their games (unrated).
    page = client.get("/api/people/Gus").json()
    assert page["account"] is False and page["ratings"] == [] and len(page["games"]) == 2
    assert "not rated" in client.get("/people/Gus").text


def test_a_persons_games_are_paged_newest_first_without_private_tables(
        sqlite_server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    fast_hashing(sqlite_server)
    monkeypatch.setattr(people, "GAMES_PER_PAGE", 2)
    ann, bob = cookie_of(sqlite_server, "Ann", True), cookie_of(sqlite_server, "Bob", True)
    tables = [play(sqlite_server, ann, bob, seed=seed)["table"] for seed in (1, 2, 3)]
    hidden = play(sqlite_server, ann, bob, seed=6, private=True)["table"]
    client = sqlite_server.client
    first = client.get("/api/people/Ann").json()
    second = client.get("/api/people/Ann?page=2").json()
    assert [game["table"] for game in first["games"]] == [tables[2], tables[1]]
    assert first["more"] is True and second["more"] is False
    assert [game["table"] for game in second["games"]] == [tables[0]]
    # The private game is rated (a rated game is a rated game) but listed nowhere.
    assert hidden not in str(first) + str(second)
    assert len(first["history"]) == 4 and first["ratings"][0]["games"] == 4
    assert [point["table"] for point in first["history"]] == [*tables, None]
    html = client.get("/people/Ann").text
    assert 'href="/people/Ann?page=2"' in html and hidden not in html
    assert re.search(r'rel="prev" href="/people/Ann\?page=1"', client.get(
        "/people/Ann?page=2").text)
    assert client.get("/api/people/Ann?page=0").status_code == 400
    assert client.get("/api/people/Ann?page=x").status_code == 400


def test_an_unknown_person_is_a_404(sqlite_server: Server) -> None:
    client = sqlite_server.client
    missing = client.get("/api/people/Nobody")
    assert (missing.status_code, missing.json()) == (404, {"error": "No player named 'Nobody'."})
    page = client.get("/people/%3Cb%3ENobody")
    assert page.status_code == 404 and "<b>Nobody" not in page.text
    assert "&lt;b&gt;Nobody" in page.text
