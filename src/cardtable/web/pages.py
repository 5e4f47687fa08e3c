"""The HTML pages: lobby, table, how to play, leaderboard, replay.

Pages are plain HTML written here from small templates (``templates/``, ``string.Template``
placeholders) with the static files of ``static/`` (CSS and a little plain JavaScript; no build
step). A page holds nothing secret: the table page is the same for players and spectators, and
all it learns of a game comes over the seat's own WebSocket (the token stays in the browser's
storage for that table). ``install(app)`` adds the routes and the static files to the app.
"""

from __future__ import annotations

import asyncio
import json
from functools import cache
from html import escape
from importlib.resources import files
from string import Template
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from cardtable.web import games, howto_pages, table_form
from cardtable.web.record import record_text
from cardtable.web.replay_steps import ReplayUnavailable, replay_steps

PACKAGE = files("cardtable.web")
GAME_TITLES = {"caravan": "Caravan", "obsession": "Obsession", "austerity": "Austerity"}


@cache
def _template(name: str) -> Template:
    return Template(PACKAGE.joinpath("templates", name).read_text(encoding="utf-8"))


def script_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>`` or ``<!--`` can end it)."""
    return (json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026"))


def page(title: str, name: str, body: str, scripts: tuple[str, ...] = ()) -> HTMLResponse:
    tags = "".join(f'<script src="/static/{escape(script)}"></script>' for script in scripts)
    html = _template("base.html").substitute(title=escape(title), page=escape(name), body=body,
                                             scripts=tags)
    return HTMLResponse(html)


def lobby_body(programs: games.Programs | None = None) -> str:
    bots = {game: games.bot_names(game, programs) for game in table_form.GAMES}
    return _template("lobby.html").substitute(
        game_options=table_form.options(table_form.GAMES),
        caravan_presets=table_form.caravan_preset_options(),
        caravan_fields=table_form.caravan_field_rows(),
        kill_orders=table_form.kill_order_options(),
        bot_names=script_json(bots),
        seat_names=script_json(table_form.SEAT_NAMES),
    )


def not_found(title: str, html: str) -> HTMLResponse:
    """A 404 page saying ``html`` (already HTML), with the way back to the lobby."""
    answer = page(title, "missing", f'<section class="panel"><h1>{escape(title)}</h1>'
                  f'<p>{html} <a href="/">Back to the lobby</a></p></section>')
    answer.status_code = 404
    return answer


def _howto_page(game: str, preset: str | None) -> HTMLResponse:
    try:
        howto = games.howto(game, preset)
    except games.TableError as error:
        return not_found("No such page", escape(str(error)))
    title = GAME_TITLES[game] + (f" ({howto['preset']} rules)" if howto.get("preset") else "")
    return page(f"How to play {title}", "howto",
                f'<article class="panel howto"><h1>How to play {escape(title)}</h1>'
                f"{howto_pages.howto_html(howto)}"
                '<p><a href="/howto">All games and presets</a></p></article>')


def install(app: FastAPI) -> None:
    """Add the pages and ``/static`` to ``app``."""
    app.mount("/static", StaticFiles(directory=str(PACKAGE.joinpath("static"))), name="static")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def lobby() -> HTMLResponse:
        return page("Lobby", "lobby", lobby_body(app.state.hub.programs), ("lobby.js",))

    def missing(table_id: str) -> HTMLResponse | None:
        """The "no such table" page, or None when the table exists. Called on the event
        loop, where the live tables are kept."""
        if app.state.hub.get(table_id) is not None:
            return None
        return not_found("No such table", f"There is no table {escape(table_id)} here.")

    @app.get("/tables/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table(table_id: str) -> HTMLResponse:
        body = _template("table.html").substitute(table=escape(table_id))
        return missing(table_id) or page(f"Table {table_id}", "table", body,
                                         ("cards.js", "table.js"))

    @app.get("/howto", response_class=HTMLResponse, include_in_schema=False)
    def howto_index() -> HTMLResponse:
        return page("How to play", "howto",
                    '<article class="panel howto"><h1>How to play</h1>'
                    f"{howto_pages.index_html()}</article>")

    @app.get("/howto/{game}", response_class=HTMLResponse, include_in_schema=False)
    def howto_game(game: str) -> HTMLResponse:
        return _howto_page(game, None)

    @app.get("/howto/caravan/{preset}", response_class=HTMLResponse, include_in_schema=False)
    def howto_caravan(preset: str) -> HTMLResponse:
        return _howto_page("caravan", preset)

    @app.get("/leaderboard", response_class=HTMLResponse, include_in_schema=False)
    def leaderboard() -> HTMLResponse:
        body = _template("leaderboard.html").substitute(
            game_options=table_form.options(table_form.GAMES))
        return page("Leaderboard", "leaderboard", body, ("leaderboard.js",))

    @app.get("/replay/{table_id}/steps", include_in_schema=False)
    async def replay_data(table_id: str) -> JSONResponse:
        """The replay page's steps, from the table's record (see ``replay_steps``)."""
        live = app.state.hub.get(table_id)
        if live is None:
            return JSONResponse({"error": "No such table."}, status_code=404)
        if live.row.status != "finished" or live.result is None:
            return JSONResponse({"error": "A replay is available once the game is over."},
                                status_code=409)
        moves = [move for _seat, move in app.state.store.moves(live.id)]
        row, kinds, forfeited = live.row, list(live.kinds), live.forfeited

        def steps() -> dict[str, Any]:
            # Replaying a whole game is work for a thread, not for the event loop.
            text = record_text(row.game, row.params, row.seed, kinds, moves, forfeited)
            return replay_steps(row.game, text)

        try:
            found = await asyncio.to_thread(steps)
        except ReplayUnavailable as error:
            return JSONResponse({"error": str(error)}, status_code=500)
        return JSONResponse({"table": live.id, **found})

    @app.get("/replay/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def replay(table_id: str) -> HTMLResponse:
        body = _template("replay.html").substitute(table=escape(table_id))
        return missing(table_id) or page(f"Replay of table {table_id}", "replay", body,
                                         ("cards.js", "table.js", "replay.js"))
