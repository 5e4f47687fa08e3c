"""One table, a seat on each of two or three real server processes on one PostgreSQL database:
the creator's server drives it, the other seat plays through a second server, a spectator
watches through a third; the game is played to its end by WebSocket clients. Every
connection is told every move once, in order, each frame exactly the stored game at its ply
as its viewer may see it; the record, read from any server, replays with ``cardtable
replay``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cluster_servers import (
    Servers,
    Truth,
    check_every_frame,
    create_and_join,
    plies_rise_by_one,
    sockets_of,
    wait_for_the_end,
)


@pytest.mark.parametrize("count", [2, 3])
def test_a_table_with_a_seat_on_each_server_plays_to_the_end(pg_cluster: Any, tmp_path: Path,
                                                             count: int) -> None:
    with Servers(pg_cluster.new_database(), tmp_path, count) as servers:
        first, second = servers[0], servers[1]
        watcher = servers[2 % count]  # (a third server; with two, the first)
        table, tokens = create_and_join(first, second)
        assert servers.owner_of(table) is first, "the table's creator drives it"
        assert servers.table_row(table).epoch == 1
        seats = [(first, "ABC", tokens["ABC"]), (second, "DEF", tokens["DEF"]),
                 (watcher, None, None)]
        with sockets_of(table, seats, seed=count) as sockets:
            wait_for_the_end(sockets)
        truth = Truth(servers, table)
        assert truth.over and truth.status == "finished"
        assert truth.result == sockets[0].latest()["result"]  # type: ignore[index]
        check_every_frame(truth, sockets)
        for one in sockets:
            # One connection each, never lost, told every move from its first frame on.
            assert len(one.connections) == 1, one.servers
            assert plies_rise_by_one(one.connections[0])[-1] == len(truth.moves)
            assert one.errors == []
        # Every move a seat sent was stored once, as that seat's.
        for one in sockets[:2]:
            assert [move for _ply, move, _at in one.sent] == [
                text for _ply, seat, text in truth.moves if seat == one.seat]
        assert servers.owner_of(table) is first  # (nobody took it over)

        records = {server.name: server.get(f"/api/tables/{table}/record")
                   for server in servers.live}
        assert all(answer.status_code == 200 for answer in records.values())
        assert len({answer.text for answer in records.values()}) == 1, "records differ"
    path = tmp_path / "table.jsonl"
    path.write_text(records[first.name].text)
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "replay", str(path),
                           "--plain", "--delay", "0"], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and done.stdout
