"""A server stopped mid-game and started again on the same database resumes every table."""

from __future__ import annotations

import contextlib

from webplay import LeakChecker, Server, Viewer, play_through, random_chooser, sockets


def test_restart_mid_game_resumes_and_both_players_finish(db_url: str) -> None:
    with Server(db_url) as first:
        table, tokens = first.create("caravan", ["human", "human"], {"rules": "nv"})
        bot_table, bot_tokens = first.create("obsession", ["human", "bot:obsessed"],
                                             {"max_plays": 300})
        with contextlib.ExitStack() as stack:
            viewers = {seat: Viewer(stack.enter_context(socket), checker)
                       for seat, socket, checker in sockets(first.client, first.store, table,
                                                            tokens)}
            stopped = play_through(viewers, {"ABC", "DEF"}, random_chooser(1), stop_after=9)
        assert stopped["result"] is None
        before = first.store.moves(table)
        assert len(before) == stopped["ply"] >= 9
        position = first.hub.tables[table].state.to_position()
    # A second server on the same database (the first one is gone, as after a crash: its
    # shutdown writes nothing).
    with Server(db_url) as second:
        live = second.hub.tables[table]
        assert live.state.to_position() == position
        assert live.ply == len(before) and live.task is not None
        assert bot_table in second.hub.tables
        with contextlib.ExitStack() as stack:
            viewers = {seat: Viewer(stack.enter_context(socket), checker)
                       for seat, socket, checker in sockets(second.client, second.store, table,
                                                            tokens, spectator=True)}
            for viewer in viewers.values():
                assert viewer.until("state")["ply"] == len(before)
            # The frames resume where they were; play on to the end.
            last = play_through(viewers, {"ABC", "DEF"}, random_chooser(2))
        assert last["result"] is not None
        assert second.store.moves(table)[:len(before)] == before
        assert second.client.get(f"/api/tables/{table}/record").status_code == 200
        with second.client.websocket_connect(
                f"/api/tables/{bot_table}/ws?token={bot_tokens['P1']}") as ws:
            viewer = Viewer(ws, LeakChecker(second.store, bot_table, "P1", bot_tokens))
            end = play_through({"P1": viewer}, {"P1"}, random_chooser(3))
            assert end["result"] is not None


def test_an_open_table_waits_through_a_restart(sqlite_url: str) -> None:
    with Server(sqlite_url) as first:
        table, tokens = first.create("obsession", ["human", "human", "bot:random"],
                                     claim=["P1"])
        assert first.client.get(f"/api/tables/{table}").json()["status"] == "open"
    with Server(sqlite_url) as second:
        listed = second.client.get("/api/tables").json()["tables"]
        assert [entry["free_seats"] for entry in listed] == [["P2"]]
        joined = second.client.post(f"/api/tables/{table}/join", json={"name": "Cy"}).json()
        tokens[joined["seat"]] = joined["token"]
        with second.client.websocket_connect(
                f"/api/tables/{table}/ws?token={tokens['P1']}") as one, \
                second.client.websocket_connect(
                    f"/api/tables/{table}/ws?token={tokens['P2']}") as two:
            viewers = {"P1": Viewer(one, LeakChecker(second.store, table, "P1", tokens)),
                       "P2": Viewer(two, LeakChecker(second.store, table, "P2", tokens))}
            last = play_through(viewers, {"P1", "P2"}, random_chooser(8), stop_after=6)
        assert last["ply"] >= 6 and last["status"] == "playing"
        assert second.client.get(f"/api/tables/{table}").json()["seats"][1]["name"] == "Cy"
