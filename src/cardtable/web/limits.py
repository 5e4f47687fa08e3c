"""Rate limits per client: how often one client may create tables, join them, post chat lines,
try to sign in or take a new guest name, and how many WebSockets it may hold open at once.

A client is the player whose cookie the server gave (a known player), else the address the
request came from (``request.client.host``; behind a trusted proxy, uvicorn fills it from
``X-Forwarded-For``). A made-up cookie is not a client of its own: rotating cookies does not
escape a limit. An IPv6 address counts by its /64 network, the block one home or phone is given
(it could otherwise take a new address for each request).

Each limit is a token bucket: ``count`` actions at once, and one more each ``seconds / count``
seconds after that. ``RateLimiter.take(client)`` spends one and answers 0.0, or answers how many
seconds to wait and spends nothing. The clock is injectable (tests drive it by hand), and the
memory is bounded: a client whose bucket is full again is forgotten, and past ``max_clients``
the least recently seen one is (it then starts with a full bucket: a limit gets more lenient
under a flood of clients, never stricter for anyone).

``Limits`` is the operator's configuration (``cardtable serve --rate-limits SPEC``,
``Limits.parse``); ``Limiters`` holds the live buckets of one server. docs/web.md lists the
defaults.

Servers sharing one PostgreSQL database count in one place, the database (``shared_store``):
a bucket is a row per (limit, client), refilled and spent in one statement at the database's
clock, so that two servers never both spend the last token; a client's WebSockets are its
presence rows on live servers. One server (SQLite) counts in its memory.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from cardtable.web import shared_store
from cardtable.web.routes.refusals import Refused
from cardtable.web.store import Store, StoreUnavailable

if TYPE_CHECKING:
    from cardtable.web.accounts import Accounts

Clock = Callable[[], float]
log = logging.getLogger("cardtable.web")

MAX_CLIENTS = 100_000
"""Clients remembered per limit (about 200 bytes each: 20 MB at most)."""
PRESENCE_SWEEP_EVERY = 60.0
"""Seconds between two sweeps of the shared presence rows of servers gone for good."""


@dataclass(frozen=True)
class Rate:
    """At most ``count`` actions within ``seconds`` (a burst of ``count``, then a steady
    ``count / seconds`` per second)."""

    count: int
    seconds: float

    def __post_init__(self) -> None:
        if self.count < 1 or not self.seconds > 0 or not math.isfinite(self.seconds):
            raise ValueError("a rate is N/SECONDS with N at least 1 and SECONDS above 0")

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds:g}s"

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``N/SECONDS``, the period optionally in ``s``, ``m`` or ``h``: ``10/60``, ``5/5s``,
        ``10/1m``; raises ValueError with the message."""
        found = _RATE.fullmatch(text.strip())
        if found is None:
            raise ValueError(f"a rate is N/SECONDS, e.g. 10/60 or 5/5s (got '{text[:40]}')")
        count, amount, unit = found.groups()
        return cls(int(count), float(amount) * _UNITS[unit or "s"])


_RATE = re.compile(r"(\d{1,9})\s*/\s*(\d{1,9}(?:\.\d+)?)\s*(s|m|h)?", re.IGNORECASE | re.ASCII)
_UNITS = {"s": 1.0, "S": 1.0, "m": 60.0, "M": 60.0, "h": 3600.0, "H": 3600.0}


class RateLimiter:
    """A token bucket per client for one kind of action; ``rate`` None never refuses."""

    def __init__(self, rate: Rate | None, clock: Clock = time.monotonic,
                 max_clients: int = MAX_CLIENTS) -> None:
        self.rate = rate
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        """client → (tokens, when they were counted); least recently seen first."""

    def take(self, client: str) -> float:
        """Spend one action of ``client``: 0.0 when it is allowed, else the seconds until it
        will be (and nothing is spent)."""
        rate = self.rate
        if rate is None:
            return 0.0
        now = self.clock()
        tokens = self._tokens(client, now)
        if tokens >= 1.0:
            self._keep(client, tokens - 1.0, now)
            return 0.0
        self._keep(client, tokens, now)
        return (1.0 - tokens) * rate.seconds / rate.count

    def wait(self, client: str) -> float:
        """The seconds until ``client`` may act (0.0: now), spending nothing."""
        rate = self.rate
        if rate is None:
            return 0.0
        tokens = self._tokens(client, self.clock())
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) * rate.seconds / rate.count

    def reset(self, client: str) -> None:
        """Give ``client`` a full bucket again (a sign-in that succeeded, say)."""
        self._buckets.pop(client, None)

    def __len__(self) -> int:
        """How many clients are remembered."""
        return len(self._buckets)

    def _tokens(self, client: str, now: float) -> float:
        assert self.rate is not None
        count, seconds = self.rate.count, self.rate.seconds
        kept = self._buckets.get(client)
        if kept is None:
            return float(count)
        tokens, then = kept
        return min(float(count), tokens + max(0.0, now - then) * count / seconds)

    def _keep(self, client: str, tokens: float, now: float) -> None:
        assert self.rate is not None
        buckets = self._buckets
        buckets[client] = (tokens, now)
        buckets.move_to_end(client)
        # The least recently seen clients come first: once one's bucket is full again it
        # holds nothing worth remembering, and neither does any client seen before it.
        refill = self.rate.seconds
        while buckets:
            oldest, (_tokens, then) = next(iter(buckets.items()))
            if now - then < refill and len(buckets) <= self.max_clients:
                break
            del buckets[oldest]


class SharedRateLimiter(RateLimiter):
    """A :class:`RateLimiter` counted in the database of ``store`` while its cluster is shared
    (the bucket ``name`` of each client, one for every server), in memory otherwise, and in
    memory too while the database does not answer (an action that needs it fails anyway; one
    that does not, a chat line refused for it, must not be refused for the limit).
    ``shared_now`` gives the time of the shared buckets (None: the database's own)."""

    def __init__(self, rate: Rate | None, name: str, store: Store | None,
                 clock: Clock = time.monotonic, max_clients: int = MAX_CLIENTS,
                 shared_now: Callable[[], float | None] = lambda: None) -> None:
        super().__init__(rate, clock, max_clients)
        self.name = name
        self.store = store
        self.shared_now = shared_now
        self._swept = -math.inf
        """When this server last cleared the full buckets (time.monotonic())."""

    def shared(self) -> Store | None:
        """The store to count in, when it is shared."""
        store = self.store
        return store if store is not None and shared_store.shared_cluster(store) else None

    def take(self, client: str) -> float:
        rate, store = self.rate, self.shared()
        if rate is None or store is None:
            return super().take(client)
        now = self.shared_now()
        try:
            self._sweep(store, rate, now)
            return shared_store.take_token(store, self.name, client, rate.count, rate.seconds,
                                           now)
        except StoreUnavailable:
            return super().take(client)

    def wait(self, client: str) -> float:
        rate, store = self.rate, self.shared()
        if rate is None or store is None:
            return super().wait(client)
        now = self.shared_now()
        try:
            return shared_store.token_wait(store, self.name, client, rate.count, rate.seconds,
                                           now)
        except StoreUnavailable:
            return super().wait(client)

    def reset(self, client: str) -> None:
        store = self.shared()
        if store is None:
            super().reset(client)
            return
        try:
            shared_store.reset_tokens(store, self.name, client)
        except StoreUnavailable as error:  # (the bucket refills by itself)
            log.info("a bucket of %s not reset: %s", self.name, error)

    def _sweep(self, store: Store, rate: Rate, now: float | None) -> None:
        """Clear the buckets full again, at most once a period (they would only fill the
        table: a client without a row has a full bucket)."""
        moment = time.monotonic()
        if moment - self._swept < rate.seconds:
            return
        self._swept = moment
        shared_store.sweep_tokens(store, self.name, rate.seconds, now)


class ConnectionCap:
    """At most ``limit`` connections open at once per client; ``limit`` None never refuses.
    ``open`` and ``close`` count in memory; ``enter`` and ``leave`` count over every server
    sharing ``store``'s database when its cluster is shared, in memory otherwise."""

    def __init__(self, limit: int | None, store: Store | None = None) -> None:
        self.limit = limit
        self.store = store
        """Counted in its database while its cluster is shared (:meth:`enter`)."""
        self._open: dict[str, int] = {}
        self.unclosed: set[str] = set()
        """Presence rows of closed WebSockets the database did not delete yet: tried again
        at the next open or close (until then they count, as open ones)."""
        self._swept = -math.inf
        """When this server last swept the presence rows nobody will ask for again."""

    def open(self, client: str) -> bool:
        """Count one more connection of ``client``; False (and nothing counted) over the cap."""
        count = self._open.get(client, 0)
        if self.limit is not None and count >= self.limit:
            return False
        self._open[client] = count + 1
        return True

    def close(self, client: str) -> None:
        """One connection of ``client`` is closed (each ``open`` that answered True, once)."""
        count = self._open.get(client, 0) - 1
        if count > 0:
            self._open[client] = count
        else:
            self._open.pop(client, None)

    def count(self, client: str) -> int:
        return self._open.get(client, 0)

    def enter(self, client: str, table_id: str, now: float) -> str | None:
        """Count a WebSocket of ``client`` opened on ``table_id`` at ``now`` (time.time()):
        the key to give :meth:`leave` when it closes, or None over the cap (nothing counted).
        When ``store``'s cluster is shared the count is the client's presence rows on live
        servers, and the key is the row written for this one."""
        store = self.store
        cluster = None if store is None else shared_store.shared_cluster(store)
        if store is None or cluster is None:
            return client if self.open(client) else None
        self._close_unclosed(store)
        moment = time.monotonic()
        if moment - self._swept >= PRESENCE_SWEEP_EVERY:
            self._swept = moment
            shared_store.sweep_presence(store)
        row = secrets.token_hex(16)
        if not shared_store.open_socket(store, row, cluster.server_id, table_id, client, now,
                                        self.limit, cluster.alive_since()):
            return None
        return row

    def leave(self, key: str) -> None:
        """The WebSocket counted by :meth:`enter` (which gave ``key``) closed."""
        store = self.store
        if store is None or shared_store.shared_cluster(store) is None:
            self.close(key)
            return
        self.unclosed.add(key)
        self._close_unclosed(store)

    def _close_unclosed(self, store: Store) -> None:
        if not self.unclosed:
            return
        rows = set(self.unclosed)
        try:
            shared_store.close_sockets(store, rows)
        except StoreUnavailable as error:
            log.warning("%d closed WebSockets not counted out yet: %s", len(rows), error)
            return
        self.unclosed -= rows


@dataclass(frozen=True)
class Limits:
    """The operator's limits per client (None: no limit). The defaults suit a public server:
    a person never meets them, a script does."""

    create: Rate | None = Rate(10, 60)
    """New tables (``POST /api/tables``, a rematch's new table)."""
    join: Rate | None = Rate(30, 60)
    """Seats taken (``POST /api/tables/ID/join``, ``POST /api/quick``, a rematch)."""
    chat: Rate | None = Rate(5, 5)
    """Chat lines posted, over every table and connection of the client."""
    signin: Rate | None = Rate(10, 900)
    """Sign-in attempts."""
    names: Rate | None = Rate(20, 3600)
    """New guest names (``POST /api/players``), per address whatever the cookies."""
    sockets: int | None = 20
    """WebSockets open at once."""

    @classmethod
    def off(cls) -> Limits:
        """No limit at all."""
        return cls(None, None, None, None, None, None)

    @classmethod
    def parse(cls, spec: str) -> Limits:
        """``off``, or comma-separated ``NAME=VALUE`` changing the defaults: ``create``,
        ``join``, ``chat``, ``signin`` and ``names`` take a rate (``10/60``, ``5/5s``,
        ``10/1m``) and ``sockets`` a count; any takes ``off``. Raises ValueError with the
        message."""
        text = spec.strip()
        if text.lower() == "off":
            return cls.off()
        changes: dict[str, Any] = {}
        known = [item.name for item in fields(cls)]
        for part in text.split(","):
            name, equals, value = (piece.strip() for piece in part.partition("="))
            name = name.lower()
            if not equals or name not in known:
                raise ValueError(f"a limit is NAME=VALUE with NAME one of {', '.join(known)} "
                                 f"(got '{part.strip()[:40]}')")
            if name in changes:
                raise ValueError(f"the limit '{name}' is given twice")
            limit: Rate | int | None
            if value.lower() == "off":
                limit = None
            elif name == "sockets":
                if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= 1_000_000:
                    raise ValueError(f"sockets is a count from 1 to 1000000 or off "
                                     f"(got '{value[:40]}')")
                limit = int(value)
            else:
                try:
                    limit = Rate.parse(value)
                except ValueError as error:
                    raise ValueError(f"{name}: {error}") from None
            changes[name] = limit
        return replace(cls(), **changes)

    def __str__(self) -> str:
        return ",".join(f"{item.name}={getattr(self, item.name) or 'off'}"
                        for item in fields(self))


@dataclass
class Limiters:
    """The live buckets of one server, for its ``limits``; counted in ``store``'s database
    while its cluster is shared (see the module's text)."""

    limits: Limits = field(default_factory=Limits)
    clock: Clock = time.monotonic
    """Read at every action counted in memory (tests set it to drive time by hand)."""
    store: Store | None = None
    shared_clock: Clock | None = None
    """The time of the buckets in the database: None, the database's own clock (one clock
    for every server); tests set it to drive time by hand."""

    def __post_init__(self) -> None:
        limits, store = self.limits, self.store
        self.create = SharedRateLimiter(limits.create, "create", store, self._now,
                                        shared_now=self._shared_now)
        self.join = SharedRateLimiter(limits.join, "join", store, self._now,
                                      shared_now=self._shared_now)
        self.chat = SharedRateLimiter(limits.chat, "chat", store, self._now,
                                      shared_now=self._shared_now)
        self.signin = SharedRateLimiter(limits.signin, "signin", store, self._now,
                                        shared_now=self._shared_now)
        self.names = SharedRateLimiter(limits.names, "names", store, self._now,
                                       shared_now=self._shared_now)
        self.sockets = ConnectionCap(limits.sockets, store)

    def share_accounts(self, accounts: Accounts) -> None:
        """Count ``accounts``' sign-in attempts per name and sign-ups per address where these
        limits are counted (over every server while the database is shared), in memory by the
        accounts' own clock."""
        accounts.name_limit = SharedRateLimiter(accounts.name_limit.rate, "signin-name",
                                                self.store, accounts.now,
                                                shared_now=self._shared_now)
        accounts.sign_up_limit = SharedRateLimiter(accounts.sign_up_limit.rate, "signups",
                                                   self.store, accounts.now,
                                                   shared_now=self._shared_now)

    def _now(self) -> float:
        return self.clock()

    def _shared_now(self) -> float | None:
        return None if self.shared_clock is None else self.shared_clock()


def client_key(player_id: str | None, address: str | None) -> str:
    """Who a request counts against: the known player, else its address (an IPv6 one by its
    /64 network)."""
    if player_id is not None:
        return f"player:{player_id}"
    return f"address:{address_block(address) if address else 'unknown'}"


def address_block(address: str) -> str:
    """``address`` as a client: an IPv4 address itself, an IPv6 one its /64 network (an
    IPv4-mapped one its IPv4 address), anything else (a test client's name) as it is."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


class TooMany(Refused):
    """An HTTP action over its limit: 429, ``{"error": MESSAGE}`` and a ``Retry-After``
    header in whole seconds."""

    def __init__(self, what: str, seconds: float) -> None:
        super().__init__(429, wait_message(what, seconds))
        self.headers = {"Retry-After": str(retry_after(seconds))}


def spend(limiter: RateLimiter, client: str, what: str) -> None:
    """Spend one action of ``client`` or refuse it (:class:`TooMany`, nothing spent):
    ``spend(web.limiters.create, client, "new tables")``."""
    seconds = limiter.take(client)
    if seconds > 0:
        raise TooMany(what, seconds)


def wait_message(what: str, seconds: float) -> str:
    """The refusal of an action over its limit: ``Too many new tables: try again in 6 s.``"""
    return f"Too many {what}: try again in {retry_after(seconds)} s."


def retry_after(seconds: float) -> int:
    """Whole seconds to wait (a ``Retry-After`` header's value), at least 1."""
    return max(1, math.ceil(seconds - 1e-9))
