"""Two real server processes race to finish the same game between two accounts, and the game
is rated once. The server driving the table is stopped (SIGSTOP) at the game's last move, at a
point the round chooses: as the move is sent (not stored yet), as soon as it is stored (its
result not yet), or as soon as the result is stored (its rating maybe not yet). The other
server takes the table over when the first one's lease runs out and finishes the game if it
is not finished; then the first one is woken (SIGCONT) and goes on where it stopped, its own
finish included. Whoever finished it, each account has one rating change per game
(``rating_history``) and as many games rated as were played, on both servers' leaderboards.

Small counts by default; ``CARDTABLE_FULL=1`` plays nine games."""

from __future__ import annotations

import json
import signal
import threading
from pathlib import Path
from typing import Any

import pytest
from cluster_servers import (
    TIMEOUT,
    ServerProcess,
    Servers,
    TableSocket,
    create_and_join,
    replayed,
    sockets_of,
    wait_for_the_end,
    watching,
)
from sqlalchemy import func, select

from cardtable.web import schema
from cardtable.web.cluster import table_channel
from counts import count
from waiting import wait_until

pytest.importorskip("argon2")
pytest.importorskip("openskill")

STOPS = ("sent", "stored", "finished")
ROUNDS = count(3, 9)
PASSWORD = "correct horse battery"


def account(server: ServerProcess, name: str) -> dict[str, str]:
    """The cookie header of a new account's session (made through ``server``)."""
    answer = server.post("/api/accounts", {"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"cookie": f"cardtable_session={answer.cookies['cardtable_session']}"}


class LastMove:
    """Tells when a seat sent the move that ends the game (``ply`` is the one it makes),
    and stops ``owner`` at once when the round stops it then."""

    def __init__(self, servers: Servers, table: str, owner: ServerProcess, stop: str) -> None:
        self.servers = servers
        self.table = table
        self.owner = owner
        self.stop = stop
        self.sent = threading.Event()
        self.ply = 0

    def before_send(self, _socket: TableSocket, ply: int, move: str) -> None:
        if self.ply or self.servers.stored_plies(self.table) != ply:
            return
        state = replayed(self.servers, self.table)
        state.apply(state.parse_action(move))
        if state.result is not None:
            self.ply = ply + 1

    def on_send(self, _socket: TableSocket, ply: int, _move: str) -> None:
        if self.ply == ply + 1 and not self.sent.is_set():
            if self.stop == "sent":
                self.owner.signal(signal.SIGSTOP)
            self.sent.set()


class Events:
    """The servers' events of one table (its channel), heard as they are: listening from the
    block's start."""

    def __init__(self, url: str, table: str) -> None:
        self.url = url
        self.table = table

    def __enter__(self) -> Events:
        import psycopg
        from psycopg import sql

        self.conn = psycopg.connect(self.url, autocommit=True)
        self.conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(table_channel(self.table))))
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.close()

    def wait_for(self, wanted: dict[str, Any]) -> None:
        """Until an event with every field of ``wanted`` is published."""
        for notify in self.conn.notifies(timeout=TIMEOUT):
            event = json.loads(notify.payload)
            if all(event.get(key) == value for key, value in wanted.items()):
                return
        raise AssertionError(f"no event {wanted} in {TIMEOUT:.0f} s")


def rating_rows(servers: Servers, table: str) -> list[str]:
    history, players = schema.rating_history, schema.players
    with servers.engine.connect() as conn:
        return sorted(conn.execute(
            select(players.c.name).join(history, history.c.player_id == players.c.id)
            .where(history.c.table_id == table)).scalars())


def play_a_round(servers: Servers, cookies: tuple[dict[str, str], dict[str, str]],
                 number: int) -> str:
    """One game between the two accounts, its owner stopped at its last move and woken once
    it is over; who finished it."""
    first, second = servers[0], servers[1]
    stop = STOPS[number % len(STOPS)]
    table, tokens = create_and_join(first, second, creator_headers=cookies[0],
                                    joiner_headers=cookies[1])
    assert servers.owner_of(table) is first
    last = LastMove(servers, table, first, stop)
    seats = [(first, "ABC", tokens["ABC"]), (second, "DEF", tokens["DEF"])]
    with sockets_of(table, seats, seed=number) as sockets, Events(servers.url, table) as events:
        for one in sockets:
            one.before_send, one.on_send = last.before_send, last.on_send
        watching(sockets, last.sent.is_set, "the game's last move")
        if stop != "sent":
            # Stopped as soon as the servers are told: the owner is then a few steps on.
            told = {"e": "move", "p": last.ply} if stop == "stored" else {"e": "end"}
            events.wait_for({**told, "t": table})
            first.signal(signal.SIGSTOP)
        # The stopped server answers nothing: its clients come through the other one.
        for one in sockets:
            if one.current is first:
                one.move_to(second)
        wait_for_the_end(sockets)
    first.signal(signal.SIGCONT)
    # Woken, it goes on from where it stopped (finishing the game, or finding that the
    # other server did) until its copy of the table is over too.
    wait_until(lambda: first.get(f"/api/tables/{table}").json()["status"] == "finished",
               "the woken server to see the game over", TIMEOUT, 0.1)
    row = servers.table_row(table)
    assert row.status == "finished" and row.rated
    assert rating_rows(servers, table) == ["Ann", "Bob"], "not rated once"
    return f"{stop}: {'the other server' if row.epoch > 1 else 'its owner'}"


def test_two_servers_finishing_one_game_rate_it_once(pg_cluster: Any, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    with Servers(pg_cluster.new_database(), tmp_path, 2) as servers:
        first, second = servers[0], servers[1]
        cookies = account(first, "Ann"), account(second, "Bob")
        finishers = [play_a_round(servers, cookies, number) for number in range(ROUNDS)]
        with servers.engine.connect() as conn:
            games = conn.execute(select(func.sum(schema.ratings.c.games))).scalar()
        assert games == 2 * ROUNDS
        boards = [server.get("/api/leaderboard/caravan").json()["players"]
                  for server in (first, second)]
        assert boards[0] == boards[1]
        assert sorted((entry["name"], entry["games"]) for entry in boards[0]) == [
            ("Ann", ROUNDS), ("Bob", ROUNDS)]
    with capsys.disabled():
        print(f"finished by (stopped at the last move when it was ...): {'; '.join(finishers)}")
