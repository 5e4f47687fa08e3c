"""Presence over several servers on one PostgreSQL database: a person connected to any server
is here (the other server does not close their table as abandoned, and a quick match there
pairs them), their leaving is seen by the other server, the presence of a server whose
heartbeat stopped does not count, and two quick matches racing on two servers end at one
table. The servers' clocks are the test's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from policy_server import PolicyServer
from racing import at_once
from webplay import connect

from cardtable.web import schema
from cardtable.web.live import HERE_STAMPS
from waiting import wait_until


@pytest.fixture
def servers(pg_cluster: Any) -> Iterator[tuple[PolicyServer, PolicyServer]]:
    url = pg_cluster.new_database()
    first, second = PolicyServer(url), PolicyServer(url)
    with first, second:
        assert first.app.state.cluster.shared and second.app.state.cluster.shared
        second.clock.now = first.clock.now
        yield first, second


def move_clocks(servers: tuple[PolicyServer, PolicyServer], seconds: float) -> None:
    for server in servers:
        server.clock.now += seconds


def rows_of(server: PolicyServer, table: str) -> list[Any]:
    with server.store.engine.connect() as conn:
        return list(conn.execute(schema.presence.select()
                                 .where(schema.presence.c.table_id == table)).all())


def test_a_seat_here_on_one_server_is_here_for_the_other(
        servers: tuple[PolicyServer, PolicyServer]) -> None:
    first, second = servers
    made = first.client.post("/api/tables", json={
        "game": "caravan", "seats": ["human", "human"], "claim": ["ABC"]}).json()
    table = made["table"]
    with connect(second.client, table, made["tokens"]["ABC"]) as socket:
        assert socket.receive_json()["type"] == "table"
        wait_until(lambda: [row.seat for row in rows_of(first, table)] == ["ABC"],
                   "the seat's presence row")
        move_clocks(servers, 10_000)  # here all along (on the second server): never closed
        assert first.sweep() == []
    wait_until(lambda: rows_of(first, table) == [], "the closed socket's row to go")
    left = first.clock.now
    move_clocks(servers, 599)
    assert first.sweep() == []  # it left 599 s ago (seen on the second server)
    move_clocks(servers, 2)
    assert first.sweep() == [table]
    assert first.view(table)["result"]["reason"] == "abandoned"
    assert first.clock.now - left == 601


def test_a_spectator_is_counted_but_is_nobodys_presence(
        servers: tuple[PolicyServer, PolicyServer]) -> None:
    first, second = servers
    made = first.client.post("/api/tables", json={
        "game": "caravan", "seats": ["human", "human"], "claim": ["ABC"]}).json()
    table = made["table"]
    with connect(second.client, table, None) as watcher:
        watcher.receive_json()
        wait_until(lambda: [row.seat for row in rows_of(first, table)] == [None],
                   "the spectator's row")
        move_clocks(servers, 601)
        assert first.sweep() == [table]


def test_the_table_frames_of_each_server_count_the_connections_of_the_other(
        servers: tuple[PolicyServer, PolicyServer]) -> None:
    first, second = servers
    made = first.client.post("/api/tables", json={
        "game": "caravan", "seats": ["human", "human"], "claim": ["ABC", "DEF"]}).json()
    table, tokens = made["table"], made["tokens"]

    def seen(frame: dict[str, Any]) -> tuple[list[str], int]:
        return ([seat["seat"] for seat in frame["seats"] if seat["connected"]],
                frame["spectators"]["count"])

    def next_table_frame(socket: Any) -> dict[str, Any]:
        frame: dict[str, Any] = socket.receive_json()
        while frame["type"] != "table":
            frame = socket.receive_json()
        return frame

    def until_seen(socket: Any, wanted: tuple[list[str], int]) -> None:
        frame = next_table_frame(socket)
        while seen(frame) != wanted:
            frame = next_table_frame(socket)

    with connect(first.client, table, tokens["ABC"]) as alice:
        until_seen(alice, (["ABC"], 0))
        with connect(second.client, table, tokens["DEF"]) as bob:
            until_seen(bob, (["ABC", "DEF"], 0))  # (Alice, at the first server, is here)
            until_seen(alice, (["ABC", "DEF"], 0))
            with connect(second.client, table, None) as watcher:
                until_seen(watcher, (["ABC", "DEF"], 1))
                until_seen(alice, (["ABC", "DEF"], 1))
            until_seen(alice, (["ABC", "DEF"], 0))
        until_seen(alice, (["ABC"], 0))
    assert seen(first.client.get(f"/api/tables/{table}").json()) == ([], 0)


def test_quick_match_pairs_a_person_here_on_the_other_server(
        servers: tuple[PolicyServer, PolicyServer]) -> None:
    first, second = servers
    waiting = first.quick()
    with connect(first.client, waiting["table"], waiting["token"]) as socket:
        socket.receive_json()
        wait_until(lambda: [row.seat for row in rows_of(first, waiting["table"])] == ["ABC"],
                   "the seat's presence row")
        move_clocks(servers, 3600)  # long after asking: paired because here
        joined = second.quick()
        assert (joined["table"], joined["seat"]) == (waiting["table"], "DEF")
        lonely = second.quick()  # nobody else waits: a table of their own
        assert lonely["table"] != waiting["table"] and lonely["seat"] == "ABC"


def test_a_person_on_their_way_is_paired_from_the_other_server_for_a_moment(
        servers: tuple[PolicyServer, PolicyServer]) -> None:
    first, second = servers
    waiting = first.quick()
    move_clocks(servers, first.hub.policy.quick_wait - 1)
    assert second.quick()["table"] == waiting["table"]
    gone = first.quick()
    move_clocks(servers, first.hub.policy.quick_wait + 1)  # never came: gone
    assert second.quick()["table"] != gone["table"]


def test_presence_on_a_server_that_died_does_not_count(
        servers: tuple[PolicyServer, PolicyServer]) -> None:
    """A person "here" only through a server whose heartbeat stopped is gone: the quick
    match does not pair them; the same row on a live server does."""
    first, second = servers
    waiting = first.quick()
    move_clocks(servers, first.hub.policy.quick_wait + 1)
    with first.store.engine.begin() as conn:
        conn.execute(schema.servers.insert().values(id="dead", host="gone", pid=1, started=0.0,
                                                    heartbeat=1.0))
        conn.execute(schema.presence.insert().values(
            id="ghost", server_id="dead", table_id=waiting["table"], seat="ABC",
            player_id=None, client="address:ghost", opened=1.0))
    assert second.quick()["table"] != waiting["table"]
    with first.store.engine.begin() as conn:
        conn.execute(schema.presence.update().where(schema.presence.c.id == "ghost")
                     .values(server_id=first.app.state.cluster.server_id))
    assert second.quick()["table"] == waiting["table"]


def test_what_a_server_knows_of_the_others_connections_follows_the_newest_news(
        servers: tuple[PolicyServer, PolicyServer]) -> None:
    """A server's ``here`` event is newer than a presence read begun before it (the read
    does not undo it); a read replaces what was known before it began; a server that
    stopped counts no more."""
    first, _second = servers
    made = first.client.post("/api/tables", json={
        "game": "caravan", "seats": ["human", "human"], "claim": ["ABC", "DEF"]}).json()
    live = first.hub.tables[made["table"]]
    live.heard_here("old", frozenset({"ABC"}), 3)
    since = next(HERE_STAMPS)  # a read begins
    live.heard_here("other", frozenset({"DEF"}), 0)  # told while it was under way
    live.take_here({"other": (frozenset(), 0), "third": (frozenset(), 2)}, since)
    assert live.elsewhere == (frozenset({"DEF"}), 2)  # ("old" had no row: it went)
    live.take_here({}, next(HERE_STAMPS))  # a later read: nobody anywhere
    assert live.elsewhere == (frozenset(), 0)
    live.heard_here("other", frozenset({"DEF"}), 1)
    live.heard_here("third", frozenset(), 1)
    live.forget_servers({"third"})
    assert live.elsewhere == (frozenset(), 1)



def test_two_quick_matches_racing_on_two_servers_meet_at_one_table(
        servers: tuple[PolicyServer, PolicyServer]) -> None:
    """Round after round, two people ask at the same moment, one on each server: one table
    is made and the other person takes its second seat (never two lonely tables, never one
    seat twice)."""
    seen: set[str] = set()
    for number in range(8):
        made = at_once(2, lambda index: servers[index].quick())
        tables = {answer["table"] for answer in made}
        assert len(tables) == 1, f"round {number}: {made}"
        assert sorted(answer["seat"] for answer in made) == ["ABC", "DEF"]
        assert not tables & seen
        seen |= tables
        for server in servers:  # (each server hears of the other's seat soon)
            wait_until(lambda server=server, table=made[0]["table"]:  # type: ignore[misc]
                       server.view(table)["free_seats"] == [], "both seats taken")


def test_a_rematch_asked_on_two_servers_at_once_is_one_table(
        servers: tuple[PolicyServer, PolicyServer]) -> None:
    """The two people of a finished game ask for a rematch at the same moment, each on their
    own server: one new table, each in their own seat."""
    first, second = servers
    for number in range(4):
        made = first.client.post("/api/tables", json={
            "game": "caravan", "seats": ["human", "human"]}).json()
        table, tokens = made["table"], made["tokens"]
        first.abandon(table)  # (over: a rematch may be asked)

        def over(table: str = table) -> bool:
            return second.view(table)["result"] is not None

        wait_until(over, "the other server to see the end")

        def ask(index: int, table: str = table, tokens: dict[str, str] = tokens) -> Any:
            seat = ("ABC", "DEF")[index]
            return servers[index].client.post(f"/api/tables/{table}/rematch",
                                              json={"token": tokens[seat]})

        answers = at_once(2, ask)
        assert [answer.status_code for answer in answers] == [200, 200], \
            [answer.text for answer in answers]
        joined = {answer.json()["table"] for answer in answers}
        assert len(joined) == 1, f"round {number}"
        assert sorted(answer.json()["seat"] for answer in answers) == ["ABC", "DEF"]
        assert first.view(table)["rematch"] == joined.pop()
