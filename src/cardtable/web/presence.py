"""Who is at a table: a seat is here while one of its WebSockets is open, on any server.

The server remembers, per table, when its people were last known to be here (the table made
or brought back into memory, a seat taken, a seat's page connecting or closing) and which
seats were taken by someone whose page has not connected yet. From that it answers the two
questions the lobby asks: may a quick match seat a person opposite these people (they are here
now, or just asked for the match and their page is on its way), and for how long have all of
a table's people been gone (a table closed as abandoned after a while). One server keeps this
in memory only: after a restart every table's people have the full time to come back.

Several servers on one PostgreSQL database (``shared``) keep it in the database as well
(``shared_store``): a row per open WebSocket (a spectator's too) naming its server, table,
seat and client, so a person connected to any server is here, and a row per seat on its way
and per table's last presence. The rows of a server whose heartbeat stopped do not count. What
a server holds in memory still counts from when the table came to it (a table taken over from
a server that died gives its people the full time, as a restart does).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardtable.web import shared_store
from cardtable.web.store import Store, StoreUnavailable

if TYPE_CHECKING:
    from cardtable.web.live import Connection, LiveTable

log = logging.getLogger("cardtable.web")


@dataclass
class TablePresence:
    last_here: float
    """When a person of the table was last known to be here."""
    waiting: dict[str, float] = field(default_factory=dict)
    """Seats taken whose page has not connected yet: when each was taken."""


def claimed_seats(live: LiveTable) -> list[str]:
    """The people's seats someone took (a token was given)."""
    return [row.seat for row in live.seats if row.kind == "human" and row.token_hash is not None]


def has_people(live: LiveTable) -> bool:
    return any(row.kind == "human" for row in live.seats)


class Presence:
    """When each table's people were last here (see the module's text), by table id; with a
    ``store`` whose cluster is shared, in its database too."""

    def __init__(self, store: Store | None = None) -> None:
        self.tables: dict[str, TablePresence] = {}
        self.store = store

    @property
    def cluster(self) -> shared_store.SharedCluster | None:
        """The shared cluster presence is kept in (None: this server's memory only)."""
        return None if self.store is None else shared_store.shared_cluster(self.store)

    def of(self, table_id: str, now: float) -> TablePresence:
        """The table's record, begun at ``now`` when the table was not known yet."""
        found = self.tables.get(table_id)
        if found is None:
            found = self.tables[table_id] = TablePresence(now)
        return found

    def taken(self, table_id: str, seats: list[str], now: float) -> None:
        """``seats`` were just taken: their people are on their way."""
        known = self.of(table_id, now)
        known.last_here = max(known.last_here, now)
        for seat in seats:
            known.waiting[seat] = now
        if self.store is not None and self.cluster is not None:
            self._best_effort("seats taken", lambda store: shared_store.seats_taken(
                store, table_id, seats, now))

    def arrived(self, table_id: str, seat: str, now: float) -> None:
        known = self.of(table_id, now)
        known.waiting.pop(seat, None)
        known.last_here = max(known.last_here, now)

    def connected(self, live: LiveTable, connection: Connection, now: float,
                  written: bool = False) -> None:
        """``connection`` is a seat's WebSocket now (just opened, or its ``hello`` said the
        seat): the seat's person is here (``written``: the database was told already, by
        :meth:`write_arrival`)."""
        seat = connection.seat
        if seat is None:
            return
        self.arrived(live.id, seat, now)
        if not written:
            self.write_arrival(live, connection.presence, seat, now)

    def write_arrival(self, live: LiveTable, row: str | None, seat: str, now: float) -> None:
        """(Shared) tell the database that ``seat``'s WebSocket (its presence row ``row``) is
        open at ``now`` (a database away loses it, logged)."""
        if self.store is not None and self.cluster is not None:
            player = next((found.player_id for found in live.seats if found.seat == seat), None)
            self._best_effort("a seat here", lambda store: shared_store.seat_arrived(
                store, row, live.id, seat, player, now))

    def left(self, table_id: str, now: float,
             later: Callable[[str, Callable[[], None]], None]) -> None:
        """A seat's WebSocket closed at ``now``; when shared, the database is told on the
        thread ``later`` gives (``Hub.write_later``)."""
        known = self.of(table_id, now)
        known.last_here = max(known.last_here, now)
        if self.store is not None and self.cluster is not None:
            what = "a seat gone"
            later(what, lambda: self._best_effort(what, lambda store: shared_store.were_here(
                store, table_id, now)))

    def forget(self, table_id: str) -> None:
        self.tables.pop(table_id, None)

    def gone_for(self, live: LiveTable, now: float) -> float | None:
        """For how long every person of the table has been gone; None while one is here, or
        for a table of bots only (it ends by itself)."""
        if not has_people(live) or live.seats_here():
            return None
        last = self.of(live.id, now).last_here
        cluster = self.cluster
        if self.store is not None and cluster is not None:
            try:
                here, _spectators = shared_store.here(self.store, live.id,
                                                      cluster.alive_since())
                elsewhere = None if here else shared_store.last_here(self.store, live.id)
            except StoreUnavailable:  # (nobody can tell now: the next sweep asks again)
                return None
            if here:
                return None
            if elsewhere is not None:
                last = max(last, elsewhere)
        return max(0.0, now - last)

    def pairable(self, live: LiveTable, now: float, wait: float) -> bool:
        """Whether a quick match may seat a person at the table: someone took a seat, and
        every seat taken is here now or was taken less than ``wait`` seconds ago by someone
        whose page has not connected yet. A person whose page connected and closed is gone,
        and so is one who never came."""
        claimed = claimed_seats(live)
        if not claimed:
            return False
        here = live.seats_here()
        waiting = self.of(live.id, now).waiting
        return all(seat in here or (seat in waiting and now - waiting[seat] <= wait)
                   for seat in claimed)

    def pairable_ids(self, game: str, player_id: str | None, now: float,
                     wait: float) -> list[str] | None:
        """The ids of the tables a quick match may seat a person at, over every server (the
        longest waiting first), as :meth:`pairable` says; None when presence is this
        server's alone (its own tables are the ones to look at)."""
        cluster = self.cluster
        if self.store is None or cluster is None:
            return None
        return shared_store.pairable_tables(self.store, game, player_id, now, wait,
                                            cluster.alive_since())

    def _best_effort(self, what: str, write: Callable[[Store], None]) -> None:
        """Write what others servers should know; a database away loses it (logged): a
        person's page connecting or closing must not fail for it."""
        assert self.store is not None
        try:
            write(self.store)
        except StoreUnavailable as error:
            log.warning("presence (%s) not written: %s", what, error)

