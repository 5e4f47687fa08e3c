"""A person's move at a table another server drives (several servers on one database).

The server the person is connected to keeps a mirror of the table (``live.LiveTable`` with
``owner`` False). Their move is checked there as far as the mirror's copy of the table can
check it, then handed to the table's owner over the servers' bus. The move is done once the
mirror plays it (told by the owner's ``move`` event: a move stored gets no answer of its
own), or refused by the owner's answer; when the owner does not answer, or the table changes
hands meanwhile, it is handed to the server that drives the table now.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from cardtable.web.backoff import Backoff
from cardtable.web.store import StoreUnavailable

if TYPE_CHECKING:
    from cardtable.web.live import LiveTable

log = logging.getLogger("cardtable.web")

SAVE_FAILED = "The server could not save your move; try again."
"""A person's move that was not stored (the database did not take it, or the table's owner
did not answer): nothing happened, and it is still their turn."""
FORWARD_LEASES = 6
"""How many ``--lease`` a move handed to its table's owner waits for the answer (30 s at the
default lease): a busy owner answers late, and one that goes away is replaced (the move is
then handed to the new owner at once, without waiting this long)."""
TAKING_OVER = Backoff(first=0.05, cap=1.0)
"""Waits before a move is handed again to the server that claimed its table and is still
taking it over (it says so when it drives the table, which ends the wait sooner)."""


def forward_wait(lease: float) -> float:
    """How long a move handed to its table's owner waits for the answer (``--lease``)."""
    return FORWARD_LEASES * lease


class _NotTaken(Exception):
    """The owner did not take the move: ask who drives the table now. ``declined``: it
    answered that it does not drive the table."""

    def __init__(self, declined: bool = False) -> None:
        super().__init__()
        self.declined = declined


class HandOver:
    """(Mirror) the moves of one table's people connected here, on their way to its owner."""

    def __init__(self, live: LiveTable) -> None:
        self.live = live
        self.forwarding: dict[str, int] = {}
        """The seats whose move is on its way to the owner, and the ply it was sent at."""
        self.past_waiters: list[tuple[int, asyncio.Future[None]]] = []
        """Moves handed over, each waiting for the table to be past its ply (:meth:`past`)."""
        self.owner_news: asyncio.Future[None] | None = None
        """Resolved when the table changes hands (moves handed over go to the new owner)."""

    async def forward(self, seat: str, text: str) -> str | None:
        """The move ``text`` of ``seat``: the refusal message, or None once it is played. An
        owner that does not answer gives ``SAVE_FAILED``: nothing happened, and the person
        may try again (the server that takes the table over will take it)."""
        live = self.live
        _action, refusal = live.parse_turn(seat, text)
        if refusal is not None:
            return refusal
        # One move of a seat on its way at a time; one played since (the owner's answer can
        # come after the move's own news) is on its way no more.
        ply = live.ply
        if self.forwarding.get(seat) == ply:
            return "A move is already being played."
        self.forwarding[seat] = ply
        try:
            refusal = await self._hand_over(seat, text, ply)
        finally:
            if self.forwarding.get(seat) == ply:
                del self.forwarding[seat]
        if refusal is not None and live.ply > ply:  # (played all the same: its owner went away
            return None                             # before it could say so, say)
        return refusal

    async def _hand_over(self, seat: str, text: str, ply: int) -> str | None:
        live = self.live
        hub = live.hub
        loop = asyncio.get_running_loop()
        deadline = loop.time() + forward_wait(hub.cluster.lease)
        pauses = TAKING_OVER.delays()
        owner = live.row.owner
        played = self.past(ply)
        try:
            while True:
                if live.owner:  # (this server took the table over meanwhile)
                    return live.submit(seat, text)
                declined = owner == hub.cluster.server_id
                if owner is not None and not declined:
                    try:
                        return await self._ask_owner(owner, seat, text, ply, played,
                                                     deadline - loop.time())
                    except _NotTaken as not_taken:
                        declined = not_taken.declined
                    if live.row.owner != owner:  # (it changed hands: to the new one, at once)
                        owner = live.row.owner
                        continue
                if loop.time() >= deadline:
                    return SAVE_FAILED
                # The owner did not answer, or does not drive the table: ask the database
                # who does now, and hand the move to that one.
                try:
                    row = await hub.in_store_thread(lambda: hub.store.table(live.id))
                except StoreUnavailable:
                    return SAVE_FAILED
                if row is None or row.status != "playing" or (
                        row.owner is not None and row.owner == owner and not declined):
                    return SAVE_FAILED
                if row.owner is None or row.owner == owner:
                    # Nobody drives it yet, or its owner (this server, maybe) claimed it and
                    # is still taking it over: asked again in a moment, or as soon as a server
                    # says it drives the table.
                    await asyncio.wait((self._owner_news(), played),
                                       timeout=min(next(pauses), deadline - loop.time()),
                                       return_when=asyncio.FIRST_COMPLETED)
                    if played.done():
                        return None
                owner = live.row.owner = row.owner
        finally:
            played.cancel()

    async def _ask_owner(self, owner: str, seat: str, text: str, ply: int,
                         played: asyncio.Future[None], timeout: float) -> str | None:
        """The refusal of ``owner`` (None: played); :class:`_NotTaken` when it did not
        answer, said it does not drive the table, or the table went to another server
        meanwhile."""
        from cardtable.web.cluster import Unreachable

        cluster = self.live.hub.cluster
        asked = asyncio.ensure_future(cluster.request(
            owner, {"op": "move", "t": self.live.id, "seat": seat, "text": text, "p": ply},
            timeout=max(0.0, timeout)))
        try:
            while True:
                moved = self._owner_news()
                await asyncio.wait((asked, moved, played), return_when=asyncio.FIRST_COMPLETED)
                if asked.done() or played.done() or self.live.row.owner != owner:
                    break
                # The news is of the very server asked (it took the table over as the move
                # reached it): it drives the table now, and answers.
        finally:
            if not asked.done():
                asked.cancel()
        if played.done():
            return None
        if not asked.done() or asked.cancelled():
            raise _NotTaken
        try:
            answer: dict[str, Any] = asked.result()
        except Unreachable as error:
            log.info("table %s: the move of %s not handed to %s: %s", self.live.id, seat,
                     owner, error)
            raise _NotTaken from None
        if not answer.get("owner", True):
            raise _NotTaken(declined=True)
        refusal = answer.get("refusal")
        return refusal if isinstance(refusal, str) else None

    def past(self, ply: int) -> asyncio.Future[None]:
        """Done once the table is past ``ply``, or its game is over."""
        passed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.past_waiters.append((ply, passed))
        self.advanced()
        return passed

    def advanced(self) -> None:
        """The table's ply went up, or its game ended: the moves waiting to be played look
        again."""
        if not self.past_waiters:
            return
        live = self.live
        waiting: list[tuple[int, asyncio.Future[None]]] = []
        for ply, passed in self.past_waiters:
            if passed.done():
                continue
            if live.ply > ply or live.result is not None:
                passed.set_result(None)
            else:
                waiting.append((ply, passed))
        self.past_waiters = waiting

    def _owner_news(self) -> asyncio.Future[None]:
        if self.owner_news is None or self.owner_news.done():
            self.owner_news = asyncio.get_running_loop().create_future()
        return self.owner_news

    def owner_changed(self) -> None:
        """The table changed hands: the moves on their way go to the new owner."""
        news, self.owner_news = self.owner_news, None
        if news is not None and not news.done():
            news.set_result(None)
