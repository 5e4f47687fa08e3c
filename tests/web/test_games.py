"""Whole games at web tables through the WebSocket, every frame checked for leaks, and the
records of finished tables replayed by the real command line."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

import pytest
from webplay import LeakChecker, Server, Viewer, play_through, random_chooser, sockets


def play_game(server: Server, game: str, seats: list[str], params: dict | None = None,  # type: ignore[type-arg]
              spectator: bool = True, seed: int = 1) -> tuple[str, dict, dict[str | None, Viewer]]:  # type: ignore[type-arg]
    table, tokens = server.create(game, seats, params)
    humans = set(tokens)
    with contextlib.ExitStack() as stack:
        viewers = {}
        for seat, socket, checker in sockets(server.client, server.store, table, tokens,
                                             spectator):
            viewers[seat] = Viewer(stack.enter_context(socket), checker)
        last = play_through(viewers, humans, random_chooser(seed))
    assert last["result"] is not None
    for viewer in viewers.values():
        assert viewer.checker.frames > 2
        assert viewer.errors == []
    return table, last, viewers


def test_caravan_person_against_bot_to_the_end(server: Server) -> None:
    table, last, viewers = play_game(server, "caravan", ["human", "bot:normal"], {"rules": "nv"})
    assert last["status"] == "finished"
    view = server.client.get(f"/api/tables/{table}").json()
    assert view["status"] == "finished"
    assert "hand" not in view["observation"]
    LeakChecker(server.store, table, None, {}).check_page(view["observation"], view["ply"])
    # Spectators saw every move, as the players did.
    assert viewers[None].last is not None and viewers[None].last["ply"] == last["ply"]


def test_caravan_two_people_to_the_end(server: Server) -> None:
    _table, last, viewers = play_game(server, "caravan", ["human", "human"], {"rules": "foxon"},
                                      seed=3)
    assert last["result"]["reason"]
    assert viewers["ABC"].last is not None and viewers["DEF"].last is not None


def test_obsession_person_against_bots_to_the_end(server: Server) -> None:
    play_game(server, "obsession", ["human", "bot:obsessed", "bot:random"],
              {"max_plays": 400}, seed=5)


def test_austerity_person_against_the_three_programs(server: Server) -> None:
    _table, last, _viewers = play_game(server, "austerity",
                                       ["human", "bot:shenzi", "bot:banzai", "bot:ed"],
                                       {"points": 6}, seed=2)
    assert last["observation"]["target"] == 6


def test_austerity_table_of_bots_watched(sqlite_server: Server) -> None:
    server = sqlite_server
    table, tokens = server.create("austerity", ["bot:shenzi", "bot:banzai", "bot:ed"],
                                  {"points": 5})
    assert tokens == {}
    with server.client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        socket.send_json({"type": "hello"})  # (a spectator)
        viewer = Viewer(socket, LeakChecker(server.store, table, None, tokens))
        frame = viewer.until_state(lambda frame: frame["result"] is not None)
    assert frame["result"]["winners"]
    # A finished table leaves memory after a while and is read back from the database.
    server.hub.forget(table)
    assert table not in server.hub.tables
    view = server.client.get(f"/api/tables/{table}").json()
    assert (view["status"], view["ply"], view["result"]) == ("finished", frame["ply"],
                                                             frame["result"])


def _replay(tmp_path: Path, game: str, text: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / f"{game}.jsonl"
    path.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "cardtable.cli.main", game, "--replay",
                           str(path), "--delay", "0"], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize(("game", "seats", "params"), [
    ("caravan", ["human", "bot:normal"], {"rules": "foxon"}),
    ("obsession", ["human", "bot:obsessed", "bot:random", "human"], {"max_plays": 300}),
])
def test_record_replays_with_the_command_line(sqlite_server: Server, tmp_path: Path,
                                              game: str, seats: list[str],
                                              params: dict) -> None:  # type: ignore[type-arg]
    server = sqlite_server
    table, _tokens = server.create(game, seats, params)
    assert server.client.get(f"/api/tables/{table}/record").status_code == 409
    table, last, _viewers = play_game(server, game, seats, params, spectator=False)
    response = server.client.get(f"/api/tables/{table}/record")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-ndjson")
    done = _replay(tmp_path, game, response.text)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    # A record cut short is caught by the same replay (it is the terminal's format).
    cut = "\n".join(response.text.splitlines()[:-1]) + "\n"
    assert _replay(tmp_path, game, cut).returncode != 0
    replay = server.client.get(f"/api/tables/{table}/replay").json()
    assert len(replay["frames"]) == len(replay["moves"]) + 1 == last["ply"] + 1
    for frame in replay["frames"]:
        assert "hand" not in frame


def test_caravan_simultaneous_opening_stays_hidden(server: Server) -> None:
    """While both seats open at once neither sees the other's opening cards, nor do
    spectators (the checker knows which caravans are hidden from whom)."""
    _table, last, viewers = play_game(server, "caravan", ["human", "human"],
                                      {"rules": "foxon", "opening_mode": "simultaneous"},
                                      seed=6)
    assert last["result"] is not None
    assert viewers[None].checker.frames > 6
