"""One table, a seat at each of two servers on one PostgreSQL: the server that made it drives
it, the other keeps a mirror, moves made at the mirror are handed to the owner, and each seat
is told every ply once, in order, from its own server."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from owner_nodes import (
    STEADY_LEASE,
    Node,
    Recorder,
    a_seat_at_each,
    recorders,
    seat_socket,
    told_once_in_order,
)
from webplay import LeakChecker, Viewer, play_through, random_chooser

from cardtable.web import cluster as cluster_module
from cardtable.web.cluster import Event
from waiting import TIMEOUT, wait_until


@pytest.fixture
def url(pg_cluster: Any) -> str:
    database: str = pg_cluster.new_database()
    return database


def test_a_seat_on_each_of_two_servers_plays_to_the_end(url: str) -> None:
    with Node(url, STEADY_LEASE) as one, Node(url, STEADY_LEASE) as two:
        table, tokens = a_seat_at_each(one, two)
        # (the owner hears of the seat taken at the other server, and starts the game)
        wait_until(lambda: one.live(table).task is not None, "the game to start")
        with recorders(table, tokens, {"ABC": one, "DEF": two, None: two}) as viewers:
            last = play_through(viewers, {"ABC", "DEF"}, random_chooser(11))
        assert last["result"] is not None
        assert one.live(table).owner and not two.live(table).owner
        stored = one.store.moves(table)
        assert last["ply"] == len(stored) == two.live(table).ply
        for viewer in viewers.values():
            told_once_in_order(viewer, len(stored))
            assert viewer.errors == []
        abc, def_ = viewers["ABC"], viewers["DEF"]
        assert def_.last is not None and def_.last["result"] == abc.last["result"]  # type: ignore[index]
        assert two.store.table(table).status == "finished"  # type: ignore[union-attr]
        record = two.client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200


def test_chat_and_a_rematch_reach_the_other_server(url: str) -> None:
    with Node(url, STEADY_LEASE) as one, Node(url, STEADY_LEASE) as two:
        table, tokens = a_seat_at_each(one, two)
        with recorders(table, tokens, {"ABC": one, "DEF": two}) as viewers:
            abc, def_ = viewers["ABC"], viewers["DEF"]
            abc.until("chat_history")
            def_.until("chat_history")
            def_.socket.send_json({"type": "chat", "text": "hello from two"})
            assert abc.until("chat")["text"] == "hello from two"
            assert def_.until("chat")["text"] == "hello from two"
            assert def_.chat[-1]["text"] == "hello from two" and len(def_.chat) == 1


def test_a_mirror_catches_up_after_missed_duplicate_and_late_events(url: str) -> None:
    with Node(url, STEADY_LEASE) as one, Node(url, STEADY_LEASE) as two:
        table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        with recorders(table, tokens, {"ABC": one, "DEF": one, None: two}) as everyone:
            # (the spectator at the mirror reads its frames only at the end)
            viewers: dict[str | None, Recorder] = {seat: everyone[seat] for seat in ("ABC", "DEF")}
            two.live(table)  # (its socket's first frame is then at ply 0: none played yet)
            play_through(viewers, {"ABC", "DEF"}, random_chooser(3), stop_after=2)
            wait_until(lambda: two.live(table).ply == 2, "the mirror at ply 2")
            # The mirror hears nothing while four moves are played ...
            deaf: list[Event] = []
            subscribers = two.cluster.subscribers
            two.cluster.subscribers = [deaf.append]
            play_through(viewers, {"ABC", "DEF"}, random_chooser(4), stop_after=6)
            wait_until(lambda: len(deaf) >= 4, "the events the mirror missed")
            two.cluster.subscribers = subscribers
            assert two.live(table).ply == 2
            # ... then hears an old event, the same one twice, and the bus's "resync".
            live = two.live(table)
            two.call(live.moved, 1, None)
            two.call(live.moved, 2, None)
            two.call(live.moved, 2, None)
            assert two.live(table).ply == 2
            two.call(two.cluster.deliver, {"e": "resync", "s": two.id})
            wait_until(lambda: two.live(table).ply == 6, "the mirror to catch up")
            two.call(live.moved, 6, None)
            two.call(live.moved, 5, None)
            # Every ply reached the spectator at the mirror once, in order.
            last = play_through(everyone, {"ABC", "DEF"}, random_chooser(5), stop_after=8)
        watcher = everyone[None]
        told_once_in_order(watcher, last["ply"])
        assert watcher.plies()[-1] == 8 == two.live(table).ply


def test_a_move_the_game_refuses_at_the_mirror_is_told_and_the_next_one_plays(url: str) -> None:
    """A move that reads well but that the game refuses, made through the mirror: its person
    is told the game's message once, and their next move is played at once (the owner's
    answer is not still on its way)."""
    with Node(url, STEADY_LEASE) as one, Node(url, STEADY_LEASE) as two:
        table, tokens = a_seat_at_each(one, two)
        wait_until(lambda: one.live(table).task is not None, "the game to start")
        with recorders(table, tokens, {"ABC": two, "DEF": one}) as viewers:
            abc = viewers["ABC"]
            first = abc.until_state(lambda frame: frame["legal"] != [])
            assert "D1" not in first["legal"]  # (no discard while the caravans are begun)
            abc.socket.send_json({"type": "move", "move": "D1"})
            message = abc.until("error")["message"]
            assert message not in ("A move is already being played.",
                                   "The server could not save your move; try again.")
            abc.socket.send_json({"type": "move", "move": first["legal"][0]})
            after = abc.until_state(lambda frame: frame["ply"] >= 1)
            assert after["ply"] == 1 and abc.errors == [message]
            assert one.store.moves(table)[0] == ("ABC", first["legal"][0])


def test_a_server_hears_only_the_tables_it_holds_and_one_read_by_a_page_catches_up(
        url: str) -> None:
    """Each table's events go on its own channel: a server hears a table once it holds it.
    One first read by a page (not a WebSocket) is heard a moment after it was read (then it
    reads again what may have been stored meanwhile), and its copy follows every move; an id
    that is no table leaves nothing heard."""
    with Node(url, STEADY_LEASE) as one, Node(url, STEADY_LEASE) as two:
        table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        other, _tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        assert one.cluster.follows(table) and not two.cluster.follows(table)
        assert two.client.get(f"/api/tables/{table}").status_code == 200
        wait_until(lambda: two.cluster.follows(table), "the server to hear the table read")
        assert not two.cluster.follows(other)
        with recorders(table, tokens, {"ABC": one, "DEF": one, None: two}) as viewers:
            last = play_through(viewers, {"ABC", "DEF"}, random_chooser(5), stop_after=6)
            wait_until(lambda: viewers[None].plies()[-1:] == [last["ply"]],
                       "the spectator at the other server to see every ply")
            told_once_in_order(viewers[None], last["ply"])
        with seat_socket(two, "nosuchtable", None) as socket:
            assert socket.receive_json()["message"] == "No such table."
        assert "nosuchtable" not in two.cluster.followed


def test_a_table_heard_later_than_its_follow_waited_for_is_caught_up(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy server may take longer to listen to a table's channel than ``follow`` waits
    (``FOLLOW_LIMIT``): a copy read meanwhile still catches up with the moves stored before it
    is heard, once it is, however late (nothing else would tell it: the game waits)."""
    monkeypatch.setattr(cluster_module, "FOLLOW_LIMIT", 0.2)
    with Node(url, STEADY_LEASE) as one, Node(url, STEADY_LEASE) as two:
        table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        listen, gave_up = threading.Event(), threading.Event()
        bus = two.cluster
        listen_to_followed, follow = bus._listen_to_followed, bus.follow

        async def held_back(conn: Any) -> None:
            assert await asyncio.to_thread(listen.wait, TIMEOUT), "the test to let it listen"
            await listen_to_followed(conn)

        async def following(table_id: str) -> None:
            try:
                await follow(table_id)
            except cluster_module.Unreachable:
                gave_up.set()
                raise

        async def no_sweep() -> list[str]:  # (nobody watches the copy: it would be dropped)
            return []

        bus._listen_to_followed, bus.follow, two.hub.sweep = held_back, following, no_sweep
        assert two.client.get(f"/api/tables/{table}").status_code == 200
        mirror = two.live(table)
        wait_until(gave_up.is_set, "the follow to give up waiting")
        assert mirror.ply == 0 and not bus.follows(table)
        with recorders(table, tokens, {"ABC": one, "DEF": one}) as viewers:
            last = play_through(viewers, {"ABC", "DEF"}, random_chooser(8), stop_after=2)
        assert last["ply"] == 2 and mirror.ply == 0
        listen.set()
        wait_until(lambda: mirror.ply == 2, "the copy to catch up once the table is heard")
        assert bus.follows(table) and two.hub.tables[table] is mirror
        assert bus.follows(table)


def test_the_list_of_tables_shows_another_servers_table_without_holding_it(url: str) -> None:
    """A table driven by one server is listed by the other as by its owner (seats, ply, the
    seat connected at the owner) from the database; the lister holds no copy of it and hears
    none of its events."""
    with Node(url, STEADY_LEASE) as one, Node(url, STEADY_LEASE) as two:
        table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"},
                                   claim=["ABC"])

        def listed(node: Node) -> dict[str, Any] | None:
            answer = node.client.get("/api/tables")
            assert answer.status_code == 200, answer.text
            return next((entry for entry in answer.json()["tables"]
                         if entry["table"] == table), None)

        with seat_socket(one, table, tokens["ABC"]) as socket:
            Viewer(socket, LeakChecker(one.store, table, "ABC", tokens)).until("state")
            there = wait_until(lambda: (entry := listed(two)) is not None
                               and entry["seats"][0]["connected"] and entry,
                               "the other server to list ABC as connected")
            assert there == listed(one)
            assert (there["status"], there["ply"], there["free_seats"]) == ("open", 0, ["DEF"])
            assert table not in two.hub.tables and not two.cluster.follows(table)


def test_a_mirror_dropped_while_a_spectator_says_hello_is_held_again(url: str) -> None:
    """A spectator's WebSocket at the mirror, opened with ``?hello``: while it has not said
    it, nobody watches the table there, and the server's sweep drops the mirror from memory.
    Once it says hello, it is given the table held again, and every move played after."""
    with Node(url, STEADY_LEASE) as one, Node(url, STEADY_LEASE) as two:
        table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        with recorders(table, tokens, {"ABC": one, "DEF": one}) as players, \
                two.client.websocket_connect(f"/api/tables/{table}/ws?hello") as socket:
            two.live(table)  # (read at the mirror: the socket waits for its hello)
            two.call(two.hub.sweep)
            assert table not in two.hub.tables
            socket.send_json({"type": "hello"})
            watcher = Recorder(socket, LeakChecker(two.store, table, None, tokens))
            watcher.until_state(lambda frame: frame["ply"] == 0)
            everyone: dict[str | None, Recorder] = {**players, None: watcher}
            last = play_through(everyone, {"ABC", "DEF"}, random_chooser(6), stop_after=4)
        told_once_in_order(watcher, last["ply"])
        assert last["ply"] == 4
