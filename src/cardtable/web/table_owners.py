"""Which server drives each table, when several share one PostgreSQL database.

Each unfinished table has one owner (``tables.owner``), the only server that runs its match
loop and stores its moves and result, each write checked against its lease (``(owner,
epoch)``, ``Store.add_move``). Every other server holding connections of the table keeps a
mirror of it (``LiveTable.owner`` False) and hears from the servers' bus (``cluster``) what
changed: :meth:`TableOwners.heard` passes each event to the table it is about. A person's move
at a mirror is handed to the owner as a request (:meth:`TableOwners.answer` runs it there).

Every ``lease / 4`` seconds a server claims the tables nobody drives (their owner stopped, or
its heartbeat is older than the lease), at most :data:`CLAIMS_PER_ROUND` at a time, and takes
each over as a restart does (``LiveTable.promote``); it then tells the others. A server that
cannot write its heartbeat (``cluster.healthy`` False) while other servers run stops driving
its tables at once, since another server will soon take them, and claims them back once it can
(if nobody did); alone, its tables wait for the database as a single server's do. A server of
this machine whose process is gone (killed, then started again) is forgotten at once, so that
its tables need not wait for its lease to run out.

With one server (SQLite) none of this runs: the server owns every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from cardtable.engine.errors import GameError
from cardtable.web import games
from cardtable.web.cluster import Unreachable, process_runs
from cardtable.web.hand_over import forward_wait
from cardtable.web.live import LiveTable
from cardtable.web.store import StoreError

if TYPE_CHECKING:
    from cardtable.web.cluster import Event
    from cardtable.web.hub import Hub

log = logging.getLogger("cardtable.web")

Json = dict[str, Any]
CLAIMS_PER_ROUND = 20
"""Tables one server takes over at most in one round: servers claiming at once share them."""
NOT_REBUILT = (GameError, games.TableError, ValueError)
"""What a table's stored rules or moves that cannot be replayed raise."""
HOST = socket.gethostname()[:255]
"""This machine, as the servers' rows name it."""


class TableOwners:
    """The tables of one server among several: events heard, moves handed over, tables taken
    over (see the module's text)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.cluster = hub.cluster
        self.stepped_down: set[str] = set()
        """Tables this server stopped driving while it could not write its heartbeat: still
        its own in the database, handed over once it can (then claimed like any other)."""
        self.claiming: asyncio.Task[None] | None = None
        self.others = False
        """Whether other servers were running at the last look (each round)."""
        self.alive: set[str] = set()
        """The other servers running at the last look."""
        self.troubles_seen = hub.store.troubles
        """The store's ``troubles`` when this server last looked for tables it owns and does
        not drive (:meth:`drive_lost_claims`)."""
        self.cluster.subscribe(self.heard)
        self.cluster.on_request(self.answer)

    @property
    def me(self) -> str:
        return self.cluster.server_id

    # --- what the other servers say ---------------------------------------------------------

    def heard(self, event: Event) -> None:
        """An event of the servers' bus (called on the event loop)."""
        data = cast(Mapping[str, Any], event)
        kind = data.get("e")
        tables = self.hub.tables
        if kind == "resync":  # (events may have been missed: catch up on every table)
            for held in tables.values():
                if held.result is None:
                    held.refresh("moves", "row", "seats", "here")
            return
        if data.get("s") == self.me:  # (this server did it, and told its own connections)
            return
        live = tables.get(str(data.get("t")))
        if live is None:
            return
        # (An owner goes by its lease alone: an event published before it took the table
        # over may reach it after.)
        if kind == "move":
            deadline, seat, move = data.get("deadline"), data.get("w"), data.get("m")
            if not live.owner:
                live.moved(int(data.get("p") or 0),
                           float(deadline) if isinstance(deadline, int | float) else None,
                           (seat, move) if isinstance(seat, str) and isinstance(move, str)
                           else None)
        elif kind == "end":
            if not live.owner:
                live.refresh("moves", "row")
        elif kind in ("seats", "table"):
            live.refresh("row", "seats")
        elif kind == "chat":
            line = data.get("line")
            if isinstance(line, dict):
                live.tell_chat(line)
        elif kind == "seat":
            seat, frame = data.get("seat"), data.get("frame")
            if isinstance(seat, str) and isinstance(frame, dict) and not live.owner:
                live.seat_frame(seat, frame)
        elif kind == "here":
            seats, spectators = data.get("h"), data.get("n")
            if isinstance(seats, list) and isinstance(spectators, int):
                live.heard_here(str(data.get("s")), frozenset(map(str, seats)), spectators)
        elif kind == "owner":
            owner, epoch = data.get("o"), data.get("epoch")
            if isinstance(owner, str) and isinstance(epoch, int):
                live.new_owner(owner, epoch)
            # Moves the last owner stored and told nobody (it died, or stepped down, between
            # the two) are read now: once the table changed hands, none can be stored under
            # the old lease. The connections of a server that died count no more.
            live.refresh("moves", "row", "here")

    async def answer(self, body: Json) -> Json | None:
        """A request of another server: a move of a person connected there, for a table this
        server drives (``{"owner": False}`` when it does not). A move stored is not answered
        (the asker sees it played); one refused, by this copy of the table or by the game, is
        answered ``{"refusal": message}``, and one still being stored when the wait is over
        ``{"refusal": None}``."""
        if body.get("op") != "move":
            return {"error": "Unknown request."}
        live = self.hub.tables.get(str(body.get("t")))
        seat, text, ply = body.get("seat"), body.get("text"), body.get("p")
        if live is None or not live.owner:
            return {"owner": False}
        if not isinstance(seat, str) or not isinstance(text, str) or not isinstance(ply, int):
            return {"refusal": "A move is a non-empty string in the game's notation."}
        # Made after a move stored here a moment ago (not yet applied here): wait for it.
        # An owner that dies before the move is stored answers nothing: the asker hands the
        # move to the server that takes the table over.
        wait = forward_wait(self.cluster.lease)
        deadline = time.monotonic() + wait * 0.8
        await live.reach(ply, wait * 0.4)
        if not live.owner:
            return {"owner": False}
        refusal = live.submit(seat, text)
        if refusal is not None:
            return {"refusal": refusal}
        refused: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        live.handed[seat] = refused
        try:
            async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                refusal = await refused
        except TimeoutError:
            refusal = None
        finally:
            if live.handed.get(seat) is refused:
                del live.handed[seat]
        if refusal is not None:
            return {"refusal": refusal}
        if live.ply <= ply and not live.owner:  # (lost the table before it was stored: the
            return {"owner": False}              # asker hands it to the new owner)
        return None if live.ply > ply else {"refusal": None}

    # --- taking tables over ---------------------------------------------------------------

    def start(self) -> None:
        """Claim the tables nobody drives every ``lease / 4`` seconds while the server runs."""
        if self.claiming is None and self.cluster.shared:
            self.claiming = asyncio.get_running_loop().create_task(self._claim_forever())

    async def stop(self) -> None:
        if self.claiming is not None:
            self.claiming.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.claiming
            self.claiming = None

    async def _claim_forever(self) -> None:
        while True:
            await asyncio.sleep(self.cluster.lease / 4)
            try:
                await self.claim_round()
            except StoreError as error:  # the database away: the next round tries again
                log.info("tables not claimed this time: %s", error)
            except Exception as error:
                log.error("claiming the tables nobody drives failed: %s", error, exc_info=error)

    async def claim_round(self) -> list[str]:
        """One round: stop driving when unhealthy; else hand back what was stopped, claim the
        tables nobody drives and take each over. Returns the ids taken over."""
        hub = self.hub
        if not self.cluster.healthy:
            if not self.others:  # (alone: nobody may take its tables; they wait for the
                return []        # database as ever)
            for live in list(hub.tables.values()):
                if live.owner and live.result is None:
                    self.stepped_down.add(live.id)
                    live.step_down()
            return []
        if self.stepped_down:
            dropped = sorted(self.stepped_down)
            await hub.in_store_thread(lambda: hub.store.release(self.me, dropped))
            self.stepped_down.clear()
        taken: list[str] = []
        if hub.store.troubles != self.troubles_seen:
            self.troubles_seen = hub.store.troubles
            taken += await self.drive_lost_claims()
        alive = self.cluster.alive_since()
        await hub.in_store_thread(self.forget_dead_neighbours)
        for live in list(hub.tables.values()):  # (their connections count no more)
            live.forget_servers(self.alive)
        claimed = await hub.in_store_thread(
            lambda: hub.store.claim_orphans(self.me, alive, CLAIMS_PER_ROUND))
        for table_id, epoch in claimed:
            if await self.take_over(table_id, epoch):
                taken.append(table_id)
        return taken

    async def drive_lost_claims(self) -> list[str]:
        """Take over the tables the database says this server owns and it does not drive: a
        claim whose answer was lost (the connection dropped as it committed) left them so.
        Returns the ids taken over. (Every table this server makes or claims on sight is
        held in the same step as it is stored, and the claims of a round are taken over
        before the next: only those tables are found.)"""
        hub = self.hub
        owned = await hub.in_store_thread(lambda: hub.store.owned(self.me))
        taken: list[str] = []
        for table_id, epoch in owned:
            live = hub.tables.get(table_id)
            if table_id in self.stepped_down or (live is not None and live.owner):
                continue
            log.warning("table %s is this server's and was not driven (a claim whose answer "
                        "was lost): taken over", table_id)
            if await self.take_over(table_id, epoch):
                taken.append(table_id)
        return taken

    async def take_over(self, table_id: str, epoch: int) -> bool:
        """Drive ``table_id``, claimed with ``epoch``: the table held here (a mirror) catches
        up, or is rebuilt from the database, then its match goes on; the other servers are
        told. False when there was nothing to drive."""
        hub = self.hub
        live = hub.tables.get(table_id)
        if live is None:
            with contextlib.suppress(Unreachable):  # (else caught up once it is heard)
                await self.cluster.follow(table_id)
            rebuilt = await self._rebuilt(table_id)
            if rebuilt is None:
                if table_id not in hub.tables:
                    hub.drop(table_id)
                return False
            rebuilt.owner = False  # (until it is promoted)
            live = hub.hold(rebuilt)
        if not await live.promote(epoch):
            return False
        log.info("table %s taken over (epoch %d)", table_id, epoch)
        self.tell_owner(live)
        return True

    async def _rebuilt(self, table_id: str) -> LiveTable | None:
        """``table_id`` rebuilt from the database (None: no such table, or it cannot be)."""
        hub = self.hub
        try:
            return await hub.in_store_thread(lambda: hub.rebuild_stored(table_id))
        except NOT_REBUILT as error:
            log.error("table %s cannot be taken over: %s", table_id, error)
            return None

    def tell_owner(self, live: LiveTable) -> None:
        self.hub.tell({"e": "owner", "t": live.id, "o": self.me, "epoch": live.row.epoch})

    def claim_on_sight(self, live: LiveTable) -> None:
        """(``Hub.get``) a table just read from the database: drive it when it is this
        server's or nobody drives it (claimed now), else keep it as a mirror. A table whose
        owner was running at the last round is a mirror without asking the database (if that
        server died since, a round takes the table over)."""
        row = live.row
        if row.status == "finished":
            live.owner = False
            return
        if row.owner in self.alive:  # (driven by a server running at the last look)
            live.owner = False
            return
        if row.owner != self.me:
            epoch = self.hub.store.claim_table(live.id, self.me, self.cluster.alive_since())
            if epoch is None:
                live.owner = False
                return
            row.owner, row.epoch = self.me, epoch
            self.tell_owner(live)
        live.owner, live.lease = True, (self.me, row.epoch)

    def forget_dead_neighbours(self) -> None:
        """Delete the rows of the servers of this machine whose process is gone (one killed a
        moment ago and started again: its tables need not wait for its lease to run out), and
        note whether other servers run."""
        others = [(server_id, host, pid)
                  for server_id, host, pid in self.hub.store.servers(self.cluster.alive_since())
                  if server_id != self.me]
        alive: set[str] = set()
        for server_id, host, pid in others:
            if host == HOST and pid != os.getpid() and not process_runs(pid):
                log.info("server %s (process %d) is gone; its tables are taken over",
                         server_id, pid)
                self.hub.store.forget_server(server_id)
            else:
                alive.add(server_id)
        self.others = bool(alive)
        self.alive = alive

    def resume(self) -> int:
        """(At the server's start) claim every table nobody drives and drive it; returns how
        many."""
        hub = self.hub
        self.forget_dead_neighbours()
        count = 0
        for table_id, epoch in hub.store.claim_orphans(self.me, self.cluster.alive_since(),
                                                       None):
            try:
                live = hub.rebuild_stored(table_id)
            except NOT_REBUILT as error:
                log.error("table %s cannot be resumed: %s", table_id, error)
                continue
            if live is None:
                continue
            live.lease = (self.me, epoch)
            hub.hold(live)
            self.tell_owner(live)
            if live.state.result is not None:
                live.finish_now(live.state.result)
                continue
            live.start()
            count += 1
        return count
