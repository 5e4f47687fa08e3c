"""The pages (lobby, table, how to play, leaderboard, replay) and their static files."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse


def install(app: FastAPI) -> None:
    """Add the page routes to ``app``."""

    @app.get("/", response_class=HTMLResponse)
    async def lobby() -> str:
        return ("<!doctype html><html><head><meta charset=\"utf-8\"><title>cardtable</title>"
                "</head><body><h1>cardtable</h1><p>The API is at <code>/api/</code>.</p>"
                "</body></html>")
