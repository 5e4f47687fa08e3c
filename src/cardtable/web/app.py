"""The ASGI app: the JSON API, the live tables' WebSockets and (from ``pages``) the pages.

``create_app(store)`` builds it; ``cardtable serve`` runs it on uvicorn. The routes live in
``cardtable.web.routes``, one module per part of the API; ``/openapi.json`` documents them.
See docs/web.md for every route and message.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from fastapi import FastAPI

from cardtable import __version__
from cardtable.web import games
from cardtable.web.live import Hub
from cardtable.web.routes import (
    catalogue,
    health,
    players,
    records,
    refusals,
    table_socket,
    tables,
)
from cardtable.web.routes.state import Settings, WebState
from cardtable.web.store import Store

FLOOD_LIMIT = 20


def create_app(store: Store, bot_delay: float = 0.0, flood_limit: int = FLOOD_LIMIT,
               programs: games.Programs | None = None) -> FastAPI:
    """The app on ``store``; ``bot_delay`` seconds pass before each bot move, and a connection
    sending more than ``flood_limit`` messages within a second is closed. ``programs`` are the
    external programs the operator offers at its tables, name → command (none by default)."""
    settings = Settings(bot_delay=bot_delay, flood_limit=flood_limit,
                        programs=dict(programs or {}))
    hub = Hub(store, settings.bot_delay, settings.programs)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.resume()
        yield
        await hub.shutdown()

    # The OpenAPI document is served; its browsable pages are not (they load scripts from a
    # CDN, and a page of the server holds nothing it did not serve).
    app = FastAPI(title="cardtable", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url="/openapi.json")
    app.state.web = WebState(settings, store, hub)
    app.state.hub = hub  # (the pages read these two)
    app.state.store = store
    refusals.install(app)
    for router in (health.router, catalogue.router, tables.router, records.router,
                   players.router, table_socket.router):
        app.include_router(router)

    from cardtable.web import pages

    pages.install(app)
    return app
