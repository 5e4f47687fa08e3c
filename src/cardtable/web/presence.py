"""Who is at a table: a seat is here while one of its WebSockets is open.

The server remembers, per table, when its people were last known to be here (the table made
or brought back into memory, a seat taken, a seat's page connecting or closing) and which
seats were taken by someone whose page has not connected yet. From that it answers the two
questions the lobby asks: may a quick match seat a person opposite these people (they are here
now, or just asked for the match and their page is on its way), and for how long have all of
a table's people been gone (a table closed as abandoned after a while). This is kept in memory
only: after a restart every table's people have the full time to come back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardtable.web.live import LiveTable


@dataclass
class TablePresence:
    last_here: float
    """When a person of the table was last known to be here."""
    waiting: dict[str, float] = field(default_factory=dict)
    """Seats taken whose page has not connected yet: when each was taken."""


def seats_here(live: LiveTable) -> set[str]:
    """The seats with a WebSocket open now."""
    return {connection.seat for connection in live.connections
            if connection.seat is not None and not connection.closed}


def claimed_seats(live: LiveTable) -> list[str]:
    """The people's seats someone took (a token was given)."""
    return [row.seat for row in live.seats if row.kind == "human" and row.token_hash is not None]


def has_people(live: LiveTable) -> bool:
    return any(row.kind == "human" for row in live.seats)


class Presence:
    """When each table's people were last here (see the module's text), by table id."""

    def __init__(self) -> None:
        self.tables: dict[str, TablePresence] = {}

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

    def arrived(self, table_id: str, seat: str, now: float) -> None:
        known = self.of(table_id, now)
        known.waiting.pop(seat, None)
        known.last_here = max(known.last_here, now)

    def left(self, table_id: str, now: float) -> None:
        known = self.of(table_id, now)
        known.last_here = max(known.last_here, now)

    def forget(self, table_id: str) -> None:
        self.tables.pop(table_id, None)

    def gone_for(self, live: LiveTable, now: float) -> float | None:
        """For how long every person of the table has been gone; None while one is here, or
        for a table of bots only (it ends by itself)."""
        if not has_people(live) or seats_here(live):
            return None
        return max(0.0, now - self.of(live.id, now).last_here)

    def pairable(self, live: LiveTable, now: float, wait: float) -> bool:
        """Whether a quick match may seat a person at the table: someone took a seat, and
        every seat taken is here now or was taken less than ``wait`` seconds ago by someone
        whose page has not connected yet. A person whose page connected and closed is gone,
        and so is one who never came."""
        claimed = claimed_seats(live)
        if not claimed:
            return False
        here = seats_here(live)
        waiting = self.of(live.id, now).waiting
        return all(seat in here or (seat in waiting and now - waiting[seat] <= wait)
                   for seat in claimed)
