"""The server driving a table is killed (SIGKILL) mid-game, at seeded random points, game after
game (a property over seeds): another server takes the table over and the game finishes;
every move any client was shown is in the record, none twice (each connection's plies rise one
by one, and every frame is the stored game at its ply). A server is started again after each
kill, so that two remain. The failover time (the kill to the first frame of a ply not shown
before it) is printed per kill, with its median and maximum.

Small counts by default; ``CARDTABLE_FULL=1`` plays twelve games."""

from __future__ import annotations

import random
import signal
import statistics
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from cluster_servers import (
    TIMEOUT,
    ServerProcess,
    Servers,
    TableSocket,
    Truth,
    check_every_frame,
    create_and_join,
    sockets_of,
    wait_for_the_end,
)

from counts import count
from waiting import wait_until

SEEDS = range(count(3, 12))
LAST_KILL_PLY = 24
"""Kills fall within the first plies (a random Caravan game here is longer)."""


class Killer:
    """Kills ``owner`` once, at the point the seed chose: right after a seat sent its move
    of ``ply`` (the move on its way, maybe half stored), or once a frame of ``ply`` was
    shown."""

    def __init__(self, owner: ServerProcess, ply: int) -> None:
        self.owner = owner
        self.ply = ply
        self.at: float | None = None
        """When the owner was killed (``time.perf_counter()``)."""
        self.wall = 0.0
        """The same, ``time.time()`` (the clock of the moves' ``at``)."""
        self.shown = -1
        """The last ply any client was shown when it was killed."""
        self.lock = threading.Lock()
        self.sockets: list[TableSocket] = []

    def kill(self) -> None:
        with self.lock:
            if self.at is not None:
                return
            self.shown = max(one.seen_ply() for one in self.sockets)
            self.owner.signal(signal.SIGKILL)
            self.at = time.perf_counter()
            self.wall = time.time()

    def on_send(self, _socket: TableSocket, ply: int, _move: str) -> None:
        if ply == self.ply:
            self.kill()


def failover_time(killer: Killer, truth: Truth, sockets: list[TableSocket]) -> float:
    """Seconds from the kill to the first frame, on any connection, of the first ply stored
    after it (the killed server's last moves, stored before it died, may still be shown by
    the others within milliseconds: they are not the new owner's)."""
    assert killer.at is not None
    stored = sum(1 for at in truth.stored_at if at < killer.wall)
    arrivals = [frame["_at"] for one in sockets for frame in one.states()
                if frame["ply"] > stored and frame["_at"] > killer.at]
    return min(arrivals) - killer.at


def play_and_kill(servers: Servers, seed: int) -> float:
    """One game with a seat on each of two servers and a spectator on each; its owner killed
    once. Returns the failover time."""
    chooser = random.Random(seed)
    first, second = servers[0], servers[1]
    table, tokens = create_and_join(first, second)
    owner = servers.owner_of(table)
    assert owner is first
    killer = Killer(owner, chooser.randint(1, LAST_KILL_PLY))
    on_send = seed % 2 == 1

    def elsewhere(dead: ServerProcess) -> ServerProcess:
        """Where a client whose server went away connects again (as a load balancer
        would send it): a live server answering."""
        return wait_until(lambda: next((server for server in servers.live
                                        if server is not dead and server.ready()), None),
                          "a server to connect to", TIMEOUT, 0.05)

    seats = [(first, "ABC", tokens["ABC"]), (second, "DEF", tokens["DEF"]),
             (first, None, None), (second, None, None)]
    with sockets_of(table, seats, seed=seed, elsewhere=elsewhere) as sockets:
        killer.sockets = sockets
        if on_send:
            for one in sockets[:2]:
                one.on_send = killer.on_send
        else:
            wait_until(lambda: any(one.seen_ply() >= killer.ply for one in sockets),
                       f"ply {killer.ply}", TIMEOUT)
            killer.kill()
        wait_for_the_end(sockets)
    owner.kill()  # (reaped)
    assert killer.at is not None, f"the game ended before ply {killer.ply}"
    truth = Truth(servers, table)
    assert truth.over and truth.status == "finished"
    check_every_frame(truth, sockets)
    # The first server's clients lost their connection and came back through the second.
    assert all(len(one.connections) >= 2 for one in (sockets[0], sockets[2]))
    assert all(one.connections[-1] and one.servers[-1] == second.name
               for one in (sockets[0], sockets[2]))
    row = servers.table_row(table)
    assert row.owner == second.server_id and row.epoch == 2
    seconds = failover_time(killer, truth, sockets)
    print(f"seed {seed}: killed the owner {'as a move was sent at' if on_send else 'after'} "
          f"ply {killer.ply} (shown: {killer.shown}); the next ply shown after "
          f"{seconds:.2f} s; {len(truth.moves)} plies in all")
    servers.add()  # (two servers again)
    return seconds


def test_the_owner_killed_at_random_points_loses_no_move(pg_cluster: Any, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    times: list[float] = []
    with Servers(pg_cluster.new_database(), tmp_path, 2) as servers:
        for seed in SEEDS:
            with capsys.disabled():
                times.append(play_and_kill(servers, seed))
    with capsys.disabled():
        print(f"failover (--lease 2): {', '.join(f'{t:.2f}' for t in times)} s; median "
              f"{statistics.median(times):.2f} s, max {max(times):.2f} s")
