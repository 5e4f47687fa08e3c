"""The HTTP API's JSON bodies: documented by /openapi.json (the game parameters from the game
descriptions), and every malformed body refused with a one-line message and a 4xx status."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from webplay import Server

from cardtable.engine import game_registry
from cardtable.engine.description import GameDescription, Param

POSTS = {
    "/api/tables": "NewTable",
    "/api/tables/{table_id}/join": "JoinTable",
    "/api/quick": "QuickMatch",
    "/api/tables/{table_id}/rematch": "Rematch",
    "/api/players": "NewPlayer",
}
HUGE = "x" * 15000
"""A string that fits in a body (16 KiB) but in no field."""
SURROGATE = "\\ud800"
"""A lone surrogate, as JSON writes it: no text."""


class Coin(GameDescription):
    name = "coin_toss"
    title = "Coin toss"
    params = (Param("sides", "faces of the coin", kind="int", default=2, low=2, high=6),
              Param("pattern", "a file of faces", kind="file"))


@pytest.fixture
def coin() -> Iterator[None]:
    game_registry.register(Coin())
    try:
        yield
    finally:
        game_registry.unregister("coin_toss")


def _schemas(server: Server) -> tuple[dict[str, Any], dict[str, Any]]:
    document = server.client.get("/openapi.json").json()
    return document["paths"], document["components"]["schemas"]


def test_openapi_documents_every_body(sqlite_server: Server, coin: None) -> None:
    paths, schemas = _schemas(sqlite_server)
    for path, model in POSTS.items():
        operation = paths[path]["post"]
        body = operation["requestBody"]["content"]["application/json"]["schema"]
        assert body == {"$ref": f"#/components/schemas/{model}"}
        assert schemas[model]["additionalProperties"] is False
        # Refusals are documented as the API gives them, not as FastAPI's 422 shape.
        assert "422" not in operation["responses"]
        assert operation["responses"]["4XX"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/ApiError"}
    new_table = schemas["NewTable"]["properties"]
    assert schemas["NewTable"]["required"] == ["game", "seats"]
    assert new_table["game"]["enum"] == list(game_registry.names())
    assert new_table["seats"]["minItems"] == 2 and new_table["seats"]["maxItems"] == 10
    timer = new_table["turn_seconds"]["anyOf"][0]
    assert (timer["minimum"], timer["maximum"]) == (5, 3600)
    assert schemas["NewPlayer"]["required"] == ["name"]


def test_the_game_parameters_come_from_the_descriptions(sqlite_server: Server,
                                                        coin: None) -> None:
    _paths, schemas = _schemas(sqlite_server)
    params = schemas["NewTable"]["properties"]["params"]
    by_game = params["x-params-by-game"]
    assert set(by_game) == set(game_registry.names())
    for described in game_registry.descriptions():
        offered = [param.name for param in described.params if param.kind != "file"
                   and param.name not in (*described.file_params, *described.seat_params,
                                          described.players_param)]
        assert list(by_game[described.name]["properties"]) == offered
        assert f"- {described.name}: " in params["description"]
    assert by_game["coin_toss"]["properties"] == {"sides": {
        "type": "integer", "minimum": 2, "maximum": 6, "default": 2,
        "description": "faces of the coin (an integer from 2 to 6)"}}
    run_kill = by_game["obsession"]["properties"]["run_kill"]
    assert (run_kill["type"], run_kill["minimum"], run_kill["maximum"]) == ("integer", 2, 8)
    assert by_game["caravan"]["properties"]["first"]["enum"] == ["ABC", "DEF"]
    assert "rules_file" not in by_game["caravan"]["properties"]
    assert "deck" not in by_game["austerity"]["properties"]
    assert "players" not in by_game["austerity"]["properties"]  # (the seats give it)


def _bad_bodies(fields: dict[str, Any], bad: dict[str, list[Any]]) -> Iterator[str]:
    """JSON texts: the valid ``fields`` with one field made bad, and bodies bad throughout."""
    for name, values in bad.items():
        for value in values:
            yield json.dumps({**fields, name: value})
        yield json.dumps({**fields, name: "MARK"}).replace('"MARK"', f'"{SURROGATE}"')
    yield json.dumps({**fields, "colour": "red"})
    yield json.dumps({**fields, HUGE: 1})
    yield "{" + f'"{SURROGATE}": 1' + "}"
    yield from ("[]", "null", "5", '"text"', "{", '{"a": }', "[" * 5000 + "]" * 5000,
                '{"a": ' * 2000 + "1" + "}" * 2000)


WRONG = [5, 1.5, True, [], {}, [["deep"]], HUGE]
NOT_BOOLEAN = [5, 1.5, [], {}, [["deep"]], HUGE, None, "yes", 1, 0]


def _endpoints(table: str) -> list[tuple[str, dict[str, Any], dict[str, list[Any]]]]:
    seats = ["human", "human"]
    return [
        ("/api/tables", {"game": "caravan", "seats": seats}, {
            "game": [*WRONG, None, "chess"], "params": [5, True, [], "rules", {HUGE: 1},
                                                        {"rules": HUGE}, {"first": [1]}],
            "seats": [*WRONG, None, [1, 2], ["human", HUGE], ["human", None]],
            "claim": [*WRONG, ["ABC", 5], [HUGE]], "private": NOT_BOOLEAN,
            "spectators": NOT_BOOLEAN, "turn_seconds": [*WRONG[1:], 5.0, 4, 3601, "60"],
            "name": [*WRONG, "", " ", "<b>", "a" * 21]}),
        (f"/api/tables/{table}/join", {}, {"seat": WRONG, "name": [*WRONG, "<b>"]}),
        ("/api/quick", {"game": "caravan"}, {"game": [*WRONG, None, "chess"],
                                             "name": [*WRONG, "<b>"]}),
        (f"/api/tables/{table}/rematch", {}, {"token": WRONG}),
        ("/api/players", {"name": "Ann"}, {"name": [*WRONG, None, "", "<b>", "a" * 21]}),
    ]


def test_every_post_endpoint_refuses_malformed_bodies(sqlite_server: Server) -> None:
    client = sqlite_server.client
    table, _tokens = sqlite_server.create("caravan", ["human", "bot:random"], claim=["ABC"])
    checked = 0
    for path, fields, bad in _endpoints(table):
        for text in _bad_bodies(fields, bad):
            response = client.post(path, content=text.encode("utf-8", "surrogatepass"),
                                   headers={"content-type": "application/json"})
            shown = f"{path} {text[:80]!r}: {response.status_code} {response.text[:200]}"
            assert 400 <= response.status_code < 500, shown
            answer = response.json()
            assert list(answer) == ["error"] and isinstance(answer["error"], str), shown
            assert answer["error"] and "\n" not in answer["error"], shown
            assert len(answer["error"]) < 1000, shown  # (never the huge value whole)
            checked += 1
    assert checked > 150
    # Nothing was made by a refused body: the one table, no player.
    assert [entry["table"] for entry in client.get("/api/tables").json()["tables"]] == [table]
    assert client.get("/api/players/me").json() == {"name": None, "account": False}
    too_large = client.post("/api/players", content=json.dumps({"name": "x" * 20000}),
                            headers={"content-type": "application/json"})
    assert too_large.status_code == 413
    assert too_large.json() == {"error": "Request body over 16384 bytes."}


@pytest.mark.parametrize(("path", "body", "message"), [
    ("/api/tables", {"game": "caravan", "seats": ["human", "human"], "turn_seconds": 60.0},
     "'turn_seconds' is 5 to 3600 or null."),
    ("/api/tables", {"game": "caravan", "seats": ["human", "human"], "spectators": 0},
     "'private' and 'spectators' are true or false."),
    ("/api/tables", {"game": "caravan", "seats": ["human", "human"], "claim": []},
     "'claim' must list human seats of the table."),
    ("/api/tables", {"seats": ["human", "human"]}, "Unknown game (allowed: caravan, "),
    ("/api/tables", {"game": "caravan"}, "'seats' must be a list of \"human\" or \"bot:NAME\"."),
    ("/api/tables", {"game": "caravan", "seats": ["human", "human"], "zz": 1, "aa": 2},
     "Unknown field 'aa'."),
    ("/api/quick", {"game": "caravan", "nmae": "Ann"}, "Unknown field 'nmae'."),
    ("/api/players", {}, "A name is needed."),
    ("/api/players", {"name": 7}, "A name is 1 to 20 letters"),
    ("/api/tables/TABLE/join", {"seat": 3}, "'seat' must be a seat name."),
    ("/api/tables/TABLE/join", {"seat": "DEF", "colour": "red"}, "Unknown field 'colour'."),
    ("/api/tables/TABLE/rematch", {"token": 7}, "'token' must be a seat's token."),
])
def test_refusals_say_what_is_wrong(sqlite_server: Server, path: str, body: dict[str, Any],
                                    message: str) -> None:
    table, _tokens = sqlite_server.create("caravan", ["human", "human"], claim=["ABC"])
    response = sqlite_server.client.post(path.replace("TABLE", table), json=body)
    assert response.status_code == 400, response.text
    assert response.json()["error"].startswith(message)
    assert sqlite_server.client.get(f"/api/tables/{table}").json()["free_seats"] == ["DEF"]


def test_a_body_is_json_and_says_so(sqlite_server: Server) -> None:
    client = sqlite_server.client
    body = json.dumps({"game": "caravan", "seats": ["human", "bot:random"]}).encode()
    for headers in ({}, {"content-type": "text/plain"},
                    {"content-type": "application/x-www-form-urlencoded"}):
        refused = client.post("/api/tables", content=body, headers=headers)
        assert refused.status_code == 415, (headers, refused.text)
        assert refused.json() == {"error": "The request body must be JSON, sent with "
                                           "Content-Type: application/json."}
    assert client.get("/api/tables").json()["tables"] == []
    response = client.post("/api/tables", content=body,
                           headers={"content-type": "application/json; charset=utf-8"})
    assert response.status_code == 201, response.text
    table = response.json()["table"]
    # An empty body (or only spaces) is the empty object; no body needs no Content-Type.
    assert client.post(f"/api/tables/{table}/rematch").json() == {
        "error": "A seat's token is needed."}
    for empty in (b"", b"  \n"):
        answer = client.post(f"/api/tables/{table}/rematch", content=empty,
                             headers={"content-type": "application/json"})
        assert answer.json() == {"error": "A seat's token is needed."}
        assert client.post("/api/players", content=empty,
                           headers={"content-type": "application/json"}).json() == {
            "error": "A name is needed."}


def test_a_streamed_body_is_cut_at_the_limit(sqlite_server: Server) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the server counts as it reads
        yield b'{"name": "'
        for _ in range(40):
            yield b"x" * 1000
        yield b'"}'

    response = sqlite_server.client.post("/api/players", content=chunks(),
                                         headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json() == {"error": "Request body over 16384 bytes."}
