"""The HTTP API: every endpoint, and every bad request refused with one message."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from webplay import LeakChecker, Server, Viewer, play_through, random_chooser, sockets


def test_health(server: Server) -> None:
    health = server.client.get("/api/health").json()
    assert health["status"] == "ok" and health["database"] == "ok"
    assert health["backend"] == server.store.engine.dialect.name


def test_create_gives_a_token_per_human_seat(server: Server) -> None:
    response = server.client.post("/api/tables", json={
        "game": "caravan", "params": {}, "seats": ["human", "bot:normal"]})
    assert response.status_code == 201
    data = response.json()
    assert set(data) == {"table", "tokens"} and set(data["tokens"]) == {"ABC"}
    table, tokens = server.create("obsession", ["human", "bot:random", "human"])
    assert set(tokens) == {"P1", "P3"} and len(set(tokens.values())) == 2
    view = server.client.get(f"/api/tables/{table}").json()
    assert view["status"] == "playing" and view["free_seats"] == []
    assert [seat["kind"] for seat in view["seats"]] == ["human", "bot:random", "human"]
    LeakChecker(server.store, table, None, tokens).check_page(view["observation"], view["ply"])
    assert all(token not in str(view) for token in tokens.values())


@pytest.mark.parametrize(("body", "message"), [
    ({"game": "chess", "seats": ["human", "human"]}, "Unknown game"),
    ({"game": "caravan", "seats": ["human"]}, "A table has 2 to 10 seats."),
    ({"game": "caravan", "seats": ["human", "human", "human"]}, "Caravan is played by 2"),
    ({"game": "caravan", "seats": "human"}, "'seats' must be a list"),
    ({"game": "caravan", "seats": ["human", "robot"]}, "A seat is \"human\" or"),
    ({"game": "caravan", "seats": ["human", "bot:nobody"]}, "Unknown bot 'nobody'"),
    ({"game": "caravan", "seats": ["human", "bot:exec:rm -rf /"]}, "External program bots"),
    ({"game": "caravan", "seats": ["human", "bot:omniscient"]}, "plays only in tournaments"),
    ({"game": "caravan", "seats": ["human", "bot:random:x=1"]}, "takes no option 'x'"),
    ({"game": "austerity", "seats": ["human", "bot:shenzi:x=1"]}, "takes no option 'x'"),
    ({"game": "austerity", "seats": ["human", "bot:normal"]}, "Unknown bot 'normal'"),
    ({"game": "caravan", "params": {"rules": "chess"}, "seats": ["human", "human"]},
     "Unknown"),
    ({"game": "caravan", "params": {"max_faces": 0}, "seats": ["human", "human"]},
     "Invalid value '0' for rule field 'max_faces'"),
    ({"game": "caravan", "params": {"rules_file": "/etc/passwd"},
      "seats": ["human", "human"]}, "names a file"),
    ({"game": "austerity", "params": {"deck": "/etc/passwd"}, "seats": ["human", "human"]},
     "names a file"),
    ({"game": "obsession", "params": {"players": 5}, "seats": ["human", "human"]},
     "'players' must equal"),
    ({"game": "obsession", "params": {"run_kill": 99}, "seats": ["human", "human"]},
     "--run-kill must be"),
    ({"game": "caravan", "params": [], "seats": ["human", "human"]}, "'params' must be"),
    ({"game": "caravan", "seats": ["human", "human"], "claim": ["XYZ"]}, "'claim' must"),
    ({"game": "caravan", "seats": ["human", "bot:random"], "claim": ["DEF"]}, "'claim' must"),
    ({"game": "caravan", "seats": ["human", "human"], "turn_seconds": 1}, "'turn_seconds'"),
    ({"game": "caravan", "seats": ["human", "human"], "private": "yes"}, "'private'"),
    ({"game": "caravan", "seats": ["human", "human"], "name": "<script>"}, "A name is"),
    ({"game": "caravan", "seats": ["human", "human"], "colour": "red"}, "Unknown field"),
])
def test_bad_tables_are_refused(server: Server, body: dict[str, Any], message: str) -> None:
    response = server.client.post("/api/tables", json=body)
    assert response.status_code == 400, response.text
    assert message in response.json()["error"]
    assert server.client.get("/api/tables").json()["tables"] == []


def test_bad_bodies(server: Server) -> None:
    client = server.client
    for raw in (b"{oops", b"[1]", b"\xff\xfe", b'"text"'):
        response = client.post("/api/tables", content=raw,
                               headers={"content-type": "application/json"})
        assert response.status_code == 400
        assert response.json()["error"] in ("Malformed JSON.",
                                            "The request body must be a JSON object.")
    response = client.post("/api/tables", content=b"{" + b" " * 20000 + b"}",
                           headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert client.get("/api/tables/nothere").status_code == 404
    assert client.get("/api/tables/" + "x" * 300).status_code == 404
    assert client.post("/api/tables/nothere/join", json={}).status_code == 404
    assert client.get("/api/tables/nothere/record").json() == {"error": "No such table."}
    assert client.get("/api/howto/chess").status_code == 404
    assert client.get("/api/howto/caravan?preset=nope").status_code == 404
    assert client.get("/api/leaderboard/chess").status_code == 400
    assert client.get("/api/tables?game=chess").status_code == 400
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/nothing").json() == {"error": "Not Found"}


def test_open_tables_join_and_private_links(server: Server) -> None:
    client = server.client
    table, tokens = server.create("caravan", ["human", "human"], claim=["ABC"], name="Ann")
    assert set(tokens) == {"ABC"}
    private, _ = server.create("caravan", ["human", "human"], claim=["ABC"], private=True)
    listed = client.get("/api/tables").json()["tables"]
    assert [entry["table"] for entry in listed] == [table]
    assert listed[0]["free_seats"] == ["DEF"] and listed[0]["status"] == "open"
    assert listed[0]["seats"][0]["name"] == "Ann"
    assert client.get("/api/tables?game=obsession").json()["tables"] == []
    assert client.get("/api/tables?status=playing").json()["tables"] == []
    assert len(client.get("/api/tables?status=open").json()["tables"]) == 1
    assert client.get("/api/tables?status=done").status_code == 400
    assert client.post(f"/api/tables/{table}/join", json={"seat": "ABC"}).status_code == 409
    assert client.post(f"/api/tables/{table}/join", json={"seat": "XYZ"}).status_code == 409
    assert client.post(f"/api/tables/{table}/join", json={"seat": 3}).status_code == 400
    joined = client.post(f"/api/tables/{table}/join", json={"name": "Bob"}).json()
    assert joined["seat"] == "DEF" and joined["token"] not in tokens.values()
    full = client.post(f"/api/tables/{table}/join", json={})
    assert full.status_code == 409 and full.json()["error"] == "No seat is free at this table."
    assert client.get(f"/api/tables/{table}").json()["status"] == "playing"
    # The private table is joined by its link only.
    assert client.post(f"/api/tables/{private}/join", json={}).json()["seat"] == "DEF"


def test_quick_match_pairs_two_people(server: Server) -> None:
    first = server.client.post("/api/quick", json={"game": "caravan", "name": "Ann"}).json()
    second = server.client.post("/api/quick", json={"game": "caravan"}).json()
    assert first["table"] == second["table"]
    assert (first["seat"], second["seat"]) == ("ABC", "DEF")
    third = server.client.post("/api/quick", json={"game": "caravan"}).json()
    assert third["table"] != first["table"]
    assert server.client.post("/api/quick", json={"game": "go"}).status_code == 400


def test_a_quick_austerity_table_deals_a_shuffled_deck(server: Server) -> None:
    made = server.client.post("/api/quick", json={"game": "austerity"}).json()
    table = server.client.get(f"/api/tables/{made['table']}").json()
    assert table["params"]["deal"] == "shuffled"
    quick_caravan = server.client.post("/api/quick", json={"game": "caravan"}).json()
    assert server.client.get(f"/api/tables/{quick_caravan['table']}").json()["params"] == {}


def test_games_and_howto(server: Server) -> None:
    from cardtable.engine.game_registry import description, names

    catalogue = server.client.get("/api/games").json()["games"]
    # Every registered game (a plug-in's too), cardtable's own first.
    assert [game["game"] for game in catalogue] == list(names())
    assert [game["game"] for game in catalogue[:3]] == ["caravan", "obsession", "austerity"]
    assert [game["title"] for game in catalogue[:3]] == ["Caravan", "Obsession", "Austerity"]
    # The form's parameters are the descriptions', less files and what the seats say.
    obsession = catalogue[1]
    assert [param["name"] for param in obsession["params"]] == [
        "run_kill", "kill_order", "max_plays", "repeat_limit"]
    assert obsession["params"][0] == description("obsession").params[2].json()
    assert obsession["players"]["name"] == "players" and obsession["seats"] == [2, 10]
    assert obsession["seat_names"]["3"] == ["P1", "P2", "P3"]
    assert "deck" not in [param["name"] for param in catalogue[2]["params"]]
    assert catalogue[2]["table_params"] == {"deal": "shuffled"}
    assert catalogue[0]["seat_names"] == {"2": ["ABC", "DEF"]} and catalogue[0]["players"] is None
    assert {"abc.max_faces", "def.max_faces"} == {
        param["name"] for row in catalogue[0]["fields"] if row["field"] == "max_faces"
        for param in row["params"]}
    assert "normal" in catalogue[0]["bots"] and "omniscient" not in catalogue[0]["bots"]
    assert {"shenzi", "banzai", "ed", "mcts"} <= set(catalogue[2]["bots"])
    from cardtable.games.caravan.howto import howto_lines
    from cardtable.games.caravan.rules import PRESETS
    from cardtable.web.games import load

    for preset in PRESETS:
        page = server.client.get(f"/api/howto/caravan?preset={preset}").json()
        lines = howto_lines(load("caravan", {"rules": preset}).rules, width=10_000)
        assert [page["title"], *page["lines"]] == lines
    for game in ("obsession", "austerity"):
        page = server.client.get(f"/api/howto/{game}").json()
        assert page["title"].startswith("How to play") and page["lines"]


def _play_named_game(server: Server, names: tuple[str, str]) -> str:
    # One client (the app runs on one event loop, as under uvicorn); each player's cookie is
    # sent by hand.
    client = server.client
    cookies = []
    for name in names:
        response = client.post("/api/players", json={"name": name})
        assert response.status_code == 201
        cookies.append({"cookie": f"cardtable_player={response.cookies['cardtable_player']}"})
        client.cookies.clear()
        assert client.get("/api/players/me", headers=cookies[-1]).json() == {
            "name": name, "account": False}
    created = client.post("/api/tables", headers=cookies[0], json={
        "game": "caravan", "seats": ["human", "human"], "claim": ["ABC"]}).json()
    table = created["table"]
    joined = client.post(f"/api/tables/{table}/join", headers=cookies[1], json={}).json()
    tokens = {"ABC": created["tokens"]["ABC"], "DEF": joined["token"]}
    with contextlib.ExitStack() as stack:
        viewers = {seat: Viewer(stack.enter_context(socket), checker)
                   for seat, socket, checker in sockets(server.client, server.store, table,
                                                        tokens)}
        last = play_through(viewers, {"ABC", "DEF"}, random_chooser(4))
    assert last["result"] is not None
    return table


def test_guests_play_but_are_not_rated(server: Server) -> None:
    # (Games between accounts are rated: tests/web/test_accounts_ratings.py.)
    client = server.client
    assert client.get("/api/players/me").json() == {"name": None, "account": False}
    assert client.post("/api/players", json={}).status_code == 400
    assert client.post("/api/players", json={"name": "x" * 30}).status_code == 400
    table = _play_named_game(server, ("Ann", "Bob"))
    assert client.post("/api/players", json={"name": "ann"}).status_code == 409
    assert client.get(f"/api/tables/{table}").json()["result"] is not None
    assert client.get("/api/leaderboard/caravan").json()["players"] == []
    assert client.get("/api/leaderboard/obsession").json()["players"] == []


def test_rematch_seats_the_same_players(server: Server) -> None:
    table, tokens = server.create("caravan", ["human", "bot:random"])
    assert server.client.post(f"/api/tables/{table}/rematch",
                              json={"token": tokens["ABC"]}).status_code == 409
    with server.client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['ABC']}") as ws:
        viewer = Viewer(ws, LeakChecker(server.store, table, "ABC", tokens))
        play_through({"ABC": viewer}, {"ABC"}, random_chooser(2))
        assert server.client.post(f"/api/tables/{table}/rematch", json={}).status_code == 401
        assert server.client.post(f"/api/tables/{table}/rematch",
                                  json={"token": "nope"}).status_code == 403
        again = server.client.post(f"/api/tables/{table}/rematch",
                                   headers={"authorization": f"Bearer {tokens['ABC']}"}).json()
        assert again["seat"] == "ABC" and again["table"] != table
        assert viewer.until("rematch")["table"] == again["table"]
    new = server.client.get(f"/api/tables/{again['table']}").json()
    assert new["rematch_of"] == table and new["status"] == "playing"
    assert [seat["kind"] for seat in new["seats"]] == ["human", "bot:random"]
    twice = server.client.post(f"/api/tables/{table}/rematch", json={"token": tokens["ABC"]})
    assert twice.status_code == 409


def test_turn_timer_plays_for_a_sleeping_seat(sqlite_server: Server) -> None:
    server = sqlite_server
    table, tokens = server.create("caravan", ["human", "human"], turn_seconds=5)
    live = server.hub.tables[table]
    live.row.turn_seconds = 0.2  # a short timer for the test (the API's minimum is 5)
    with server.client.websocket_connect(f"/api/tables/{table}/ws?token={tokens['DEF']}") as ws:
        viewer = Viewer(ws, LeakChecker(server.store, table, "DEF", tokens))
        viewer.until_state(lambda frame: frame["ply"] >= 1)
    assert len(server.store.moves(table)) >= 1
