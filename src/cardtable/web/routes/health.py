"""Whether the server and its database answer."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from cardtable import __version__
from cardtable.web.routes.state import Web

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health")
async def health(web: Web) -> dict[str, Any]:
    """``ok``, or ``degraded`` while the database does not answer (asked now, once, on a worker
    thread: a database that hangs holds up no table); the live tables' count and the id of the
    server that answered (one of several on one database)."""
    try:
        await asyncio.to_thread(web.store.ping)
        database = "ok"
    except Exception:
        database = "unavailable"
    return {"status": "ok" if database == "ok" else "degraded", "version": __version__,
            "database": database, "backend": web.store.engine.dialect.name,
            "server": web.store.cluster.server_id,
            "tables": sum(1 for t in web.hub.tables.values() if t.row.status != "finished")}
