"""The ASGI app: the JSON API, the live tables' WebSockets and (from ``pages``) the pages.

``create_app(store)`` builds it; ``cardtable serve`` runs it on uvicorn. The routes live in
``cardtable.web.routes``, one module per part of the API; ``/openapi.json`` documents them.
``cardtable.web.security.Guard`` wraps them all (security headers, requests from other sites
refused, ``HEAD``).
See docs/web.md for every route and message.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from fastapi import FastAPI
from starlette.types import ASGIApp

from cardtable import __version__
from cardtable.web import games
from cardtable.web.cluster import LEASE, Cluster, cluster_for
from cardtable.web.hub import Hub
from cardtable.web.limits import Limits
from cardtable.web.routes import (
    accounts,
    catalogue,
    health,
    players,
    records,
    refusals,
    table_socket,
    tables,
)
from cardtable.web.routes.state import Settings, WebState
from cardtable.web.security import Guard
from cardtable.web.store import Store
from cardtable.web.table_policy import TablePolicy


class GuardedApp(FastAPI):
    """The app with :class:`Guard` around everything, the server-error answer included: its
    checks come before any other work, and its headers go on every answer."""

    def build_middleware_stack(self) -> ASGIApp:
        return Guard(super().build_middleware_stack())


FLOOD_LIMIT = 20


def create_app(store: Store, bot_delay: float = 0.0, flood_limit: int = FLOOD_LIMIT,
               programs: games.Programs | None = None,
               limits: Limits | None = None,
               policy: TablePolicy | None = None,
               cluster: Cluster | None = None, lease: float = LEASE) -> FastAPI:
    """The app on ``store``; ``bot_delay`` seconds pass before each bot move, and a connection
    sending more than ``flood_limit`` messages within a second is closed. ``programs`` are the
    external programs the operator offers at its tables, name → command (none by default).
    ``limits`` are the rate limits per client (``Limits()``, the defaults, when None;
    ``Limits.off()`` for none). ``policy`` says when abandoned tables close, how quick
    matches are timed and how many programs may run (``TablePolicy()`` when None).
    ``cluster`` is this server among the servers of its database (when None: the one of
    ``store``'s database, whose servers count as gone after ``lease`` seconds without a
    heartbeat; docs/web.md, "Running several servers")."""
    settings = Settings(bot_delay=bot_delay, flood_limit=flood_limit,
                        programs=dict(programs or {}),
                        limits=Limits() if limits is None else limits)
    if cluster is None:
        cluster = cluster_for(store, lease)
    # The store publishes what it stores through the cluster, in the same transaction.
    store.cluster = cluster
    hub = Hub(store, settings.bot_delay, settings.programs, policy, cluster=cluster)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await cluster.start()
        try:
            hub.resume()
            hub.start_sweeper()
            yield
            await hub.shutdown()
        finally:
            await cluster.stop()

    # The OpenAPI document is served; its browsable pages are not (they load scripts from a
    # CDN, and a page of the server holds nothing it did not serve).
    app = GuardedApp(title="cardtable", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url="/openapi.json")
    app.state.web = WebState(settings, store, hub)
    app.state.hub = hub  # (the pages read these two)
    app.state.store = store
    app.state.cluster = cluster
    refusals.install(app)
    for router in (health.router, catalogue.router, tables.router, records.router,
                   players.router, accounts.router, accounts.pages_router,
                   table_socket.router):
        app.include_router(router)

    from cardtable.web import pages

    pages.install(app)
    return app
