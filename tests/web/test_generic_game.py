"""A game the web knows only through its description (a tiny test game registered in process):
the lobby offers it, a table plays it on the generic page, each seat's frames hold only what
the seat may see and the legal moves only for the seat to move, and its record and replay are
the one record format's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from webplay import Server, connect

from cardtable.engine import game_registry
from cardtable.engine.description import GameDescription
from cardtable.engine.errors import GameParamsError
from cardtable.web import games, serialize
from cardtable.web.record import record_lines, record_text
from cardtable.web.replay_steps import replay_steps
from web_browser.tiny_game import DECK, NAME, ROUNDS, SEATS, TINY_DUEL, TinyState, hidden_ids


@pytest.fixture(autouse=True)
def tiny_duel() -> Iterator[None]:
    game_registry.register(TINY_DUEL)
    try:
        yield
    finally:
        game_registry.unregister(NAME)


def card_ids(value: Any) -> set[str]:
    text = json.dumps(value)
    return {f"t{index}" for index in range(len(DECK)) if f'"t{index}"' in text}


def test_the_catalogue_and_the_lobby_offer_the_game(sqlite_server: Server) -> None:
    catalogue = sqlite_server.client.get("/api/games").json()["games"]
    (entry,) = [entry for entry in catalogue if entry["game"] == NAME]
    assert entry["title"] == "Tiny duel" and entry["seats"] == [2, 2]
    assert entry["params"] == [ROUNDS.json()]
    assert entry["seat_names"] == {"2": list(SEATS)}
    assert entry["bots"] and "random" in entry["bots"] and entry["page"] is False
    lobby = sqlite_server.client.get("/").text
    assert f'<option value="{NAME}">Tiny duel</option>' in lobby
    assert f'<fieldset data-game="{NAME}" hidden>' in lobby
    assert '<input type="number" name="rounds" min="1" max="3" value="2"' in lobby
    howto = sqlite_server.client.get(f"/howto/{NAME}").text
    assert "Moves: raise or hold." in howto and "legal moves are buttons" in howto
    assert f'href="/howto/{NAME}"' in sqlite_server.client.get("/howto").text


def test_the_table_is_checked_by_the_description(sqlite_server: Server) -> None:
    client = sqlite_server.client
    three = client.post("/api/tables", json={"game": NAME, "seats": ["human"] * 3})
    assert three.status_code == 400
    assert three.json()["error"] == "Tiny duel is played by 2 seats."
    bad = client.post("/api/tables", json={"game": NAME, "params": {"rounds": 9},
                                           "seats": ["human", "human"]})
    assert bad.status_code == 400 and "--rounds must be an integer from 1 to 3" in bad.text


def test_a_table_on_the_generic_page_sends_each_seat_only_its_own(sqlite_server: Server) -> None:
    client = sqlite_server.client
    table, tokens = sqlite_server.create(NAME, ["human", "human"], params={"rounds": 2})
    page = client.get(f"/tables/{table}").text
    assert 'data-board="generic"' in page and 'data-title="Tiny duel"' in page
    row = sqlite_server.store.table(table)
    assert row is not None
    truth = games.new_state(NAME, row.params, row.seed, ["human", "human"])
    assert isinstance(truth, TinyState)
    with connect(client, table, tokens["North"]) as north, \
            connect(client, table, tokens["South"]) as south, \
            connect(client, table, None) as spectator:
        sockets = {"North": north, "South": south, None: spectator}
        last: dict[str | None, dict[str, Any]] = {}

        def read(viewer: str | None, ply: int) -> dict[str, Any]:
            while True:
                frame = sockets[viewer].receive_json()
                if frame["type"] != "state" or frame["ply"] < ply:
                    continue
                assert frame["seat"] == viewer
                seen = card_ids(frame)
                assert not seen & hidden_ids(truth, viewer), (viewer, frame)
                if frame["result"] is None:
                    # The legal moves go to the seat to move only, and never to a spectator.
                    expected = ["raise", "hold"] if viewer == frame["to_move"] else []
                    assert frame["legal"] == expected, (viewer, frame)
                    if viewer is not None:
                        own = truth.cards[SEATS.index(viewer)]
                        assert frame["observation"]["your_card"]["card"] == DECK[own]
                    else:
                        assert frame["observation"]["cards"] == {"North": None, "South": None}
                last[viewer] = frame
                return frame

        for viewer in sockets:
            read(viewer, 0)
        for ply, move in enumerate(("raise", "hold", "raise", "raise"), start=1):
            mover = truth.to_move
            assert mover is not None
            sockets[mover].send_json({"type": "move", "move": move})
            truth.apply(move)
            for viewer in sockets:
                read(viewer, ply)
        assert all(frame["result"] is not None for frame in last.values())
        final = last[None]
        assert final["result"]["winners"] == list(truth.result.winners)  # type: ignore[union-attr]
        assert final["observation"]["cards"]["North"]["card"] == DECK[truth.cards[0]]
        assert [entry["move"] for entry in final["observation"]["history"]] == [
            "raise", "hold", "raise", "raise"]


def test_the_record_and_the_replay_are_the_one_format(sqlite_server: Server) -> None:
    kinds = ["human", "bot:random"]
    state = games.new_state(NAME, {"rounds": 1}, 7, kinds)
    moves = ["raise", "hold"]
    for move in moves:
        state.apply(move)
    lines = record_lines(record_text(NAME, {"rounds": 1}, 7, kinds, moves))
    assert lines[0]["type"] == "header" and lines[0]["game"] == NAME
    assert lines[0]["rules"] == {"rounds": 1} and lines[0]["seed"] == 7
    assert lines[0]["seats"] == [{"seat": "North", "player": "human"},
                                 {"seat": "South", "player": "bot:random"}]
    assert [line["action"] for line in lines[1:-1]] == moves
    assert lines[-1]["type"] == "result" and lines[-1]["winners"] == list(state.result.winners)
    steps = replay_steps(NAME, record_text(NAME, {"rounds": 1}, 7, kinds, moves))
    assert [step["move"] for step in steps["moves"]] == moves
    assert len(steps["frames"]) == 3 and steps["frames"][-1]["result"] == steps["result"]
    # A finished game hides nothing: each step has every seat's own view.
    first = steps["frames"][0]
    assert first["cards"] == {"North": None, "South": None}
    assert set(first["views"]) == set(SEATS)
    assert first["views"]["South"]["your_card"]["card"] == DECK[state.cards[1]]
    # Unfinished: the record ends abandoned, and the replay says so.
    cut = record_lines(record_text(NAME, {"rounds": 1}, 7, kinds, moves[:1]))
    assert cut[-1]["reason"] == "abandoned"
    assert replay_steps(NAME, "\n".join(json.dumps(line) for line in cut))["result"][
        "reason"] == "abandoned"


def test_a_finished_table_replays_on_its_page(sqlite_server: Server) -> None:
    client = sqlite_server.client
    table, tokens = sqlite_server.create(NAME, ["human", "bot:random"], params={"rounds": 1})
    with connect(client, table, tokens["North"]) as north:
        north.send_json({"type": "move", "move": "hold"})
        while True:
            frame = north.receive_json()
            if frame["type"] == "state" and frame["result"] is not None:
                break
    steps = client.get(f"/replay/{table}/steps").json()
    assert [step["seat"] for step in steps["moves"]] == ["North", "South"]
    assert steps["moves"][0]["move"] == "hold"
    assert 'data-board="generic"' in client.get(f"/replay/{table}").text
    record = client.get(f"/api/tables/{table}/record")
    assert record.status_code == 200 and json.loads(record.text.splitlines()[0])["game"] == NAME


def test_the_views_come_from_the_description() -> None:
    state = games.new_state(NAME, {}, 3, ["human", "human"])
    assert serialize.seat_view(NAME, state, "North") == TINY_DUEL.seat_view(state, "North")
    assert serialize.public_view(NAME, state) == TINY_DUEL.public_view(state)
    assert games.instant(NAME, "random") and not games.instant(NAME, "ismcts")


class Viewless(type(TINY_DUEL)):  # type: ignore[misc]
    """The tiny game with the base description's views: none."""

    name = "viewless"
    title = "Viewless"
    seat_view = GameDescription.seat_view
    public_view = GameDescription.public_view


def test_a_game_without_views_is_not_offered(sqlite_server: Server) -> None:
    game_registry.register(Viewless())
    try:
        client = sqlite_server.client
        assert "viewless" not in [entry["game"]
                                  for entry in client.get("/api/games").json()["games"]]
        assert 'value="viewless"' not in client.get("/").text
        answer = client.post("/api/tables", json={"game": "viewless", "seats": ["human"] * 2})
        assert answer.status_code == 400
        assert answer.json()["error"] == ("Viewless cannot be played here: its description "
                                          "gives no view of a table.")
    finally:
        game_registry.unregister("viewless")


class Broken(type(TINY_DUEL)):  # type: ignore[misc]
    """The tiny game, but its tables cannot be loaded (a broken plug-in)."""

    name = "broken"
    title = "Broken"

    def load(self, **params: Any) -> Any:
        raise GameParamsError("this game is broken")


def test_a_game_that_cannot_load_leaves_the_lobby_working(sqlite_server: Server) -> None:
    game_registry.register(Broken())
    try:
        client = sqlite_server.client
        games_offered = [entry["game"] for entry in client.get("/api/games").json()["games"]]
        assert "broken" not in games_offered and NAME in games_offered
        lobby = client.get("/")
        assert lobby.status_code == 200 and 'value="broken"' not in lobby.text
        answer = client.post("/api/tables", json={"game": "broken", "seats": ["human"] * 2})
        assert answer.status_code == 400 and answer.json()["error"] == "this game is broken"
    finally:
        game_registry.unregister("broken")
