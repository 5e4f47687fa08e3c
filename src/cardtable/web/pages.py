"""The HTML pages: lobby, table, how to play, leaderboard, replay.

Pages are plain HTML written here from small templates (``templates/``, ``string.Template``
placeholders) with the static files of ``static/`` (CSS and a little plain JavaScript; no build
step). A page holds nothing secret: the table page is the same for players and spectators, and
all it learns of a game comes over the seat's own WebSocket (the token stays in the browser's
storage for that table). No page holds an inline script, an ``on…=`` handler or a ``style=``
attribute: the pages' Content-Security-Policy (``cardtable.web.security``) refuses them, and a
page's data for its scripts is a ``<script type="application/json">`` block or ``data-``
attributes. ``install(app)`` adds the routes and the static files to the app.
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

from cardtable.engine import game_registry
from cardtable.engine.description import GameDescription
from cardtable.engine.result_json import result_json
from cardtable.web import games, howto_pages, table_form
from cardtable.web.record import record_text
from cardtable.web.replay_steps import ReplayUnavailable, replay_steps

PACKAGE = files("cardtable.web")
GENERIC_PAGE = "generic.html"
"""The board of a game without a page of its own (``GameDescription.web_page`` None): the
seat's view laid out, whose turn it is, the last moves and the legal moves as buttons."""


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
    catalogue = games.catalogue(programs)
    titles = [entry["title"] for entry in catalogue]
    listed = (", ".join(titles[:-1]) + " or " + titles[-1] if len(titles) > 1
              else "".join(titles) or "card games")
    return _template("lobby.html").substitute(
        game_titles=escape(listed),
        game_options=table_form.game_options(catalogue),
        game_fieldsets=table_form.fieldsets(catalogue),
        games_json=script_json({entry["game"]: entry for entry in catalogue}),
    )


def board_html(description: GameDescription) -> str:
    """The board of a table or replay page of the game: its own page's template
    (``web_page``, a template of this package), else the generic page's."""
    name = description.web_page
    if name is not None and "/" not in name and "\\" not in name:
        try:
            return _template(name).template
        except FileNotFoundError:
            pass
    return _template(GENERIC_PAGE).template


def game_page(name: str, table_id: str, game: str) -> str:
    """The table or replay page (template ``name``) of a table of ``game``: the board, and
    what the scripts need of the game (its name, title and presets, the default first)."""
    description = game_registry.description(game)
    return _template(name).substitute(
        table=escape(table_id), game=escape(description.name), title=escape(description.title),
        presets=escape(" ".join(description.presets)), board=board_html(description))


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
    title = game_registry.description(howto["game"]).title + (
        f" ({howto['preset']} rules)" if howto.get("preset") else "")
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

    def game_of(table_id: str) -> str | None:
        """The game of the table, or None when there is no such table. Called on the event
        loop, where the live tables are kept."""
        live = app.state.hub.get(table_id)
        return None if live is None else str(live.row.game)

    def missing(table_id: str) -> HTMLResponse:
        return not_found("No such table", f"There is no table {escape(table_id)} here.")

    @app.get("/tables/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table(table_id: str) -> HTMLResponse:
        game = game_of(table_id)
        if game is None:
            return missing(table_id)
        return page(f"Table {table_id}", "table", game_page("table.html", table_id, game),
                    ("cards.js", "table.js"))

    @app.get("/howto", response_class=HTMLResponse, include_in_schema=False)
    def howto_index() -> HTMLResponse:
        return page("How to play", "howto",
                    '<article class="panel howto"><h1>How to play</h1>'
                    f"{howto_pages.index_html()}</article>")

    @app.get("/howto/{game}", response_class=HTMLResponse, include_in_schema=False)
    def howto_game(game: str) -> HTMLResponse:
        return _howto_page(game, None)

    @app.get("/howto/{game}/{preset}", response_class=HTMLResponse, include_in_schema=False)
    def howto_preset(game: str, preset: str) -> HTMLResponse:
        return _howto_page(game, preset)

    @app.get("/leaderboard", response_class=HTMLResponse, include_in_schema=False)
    def leaderboard() -> HTMLResponse:
        body = _template("leaderboard.html").substitute(game_options=table_form.game_options())
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
        if live.forfeit is not None:  # ended from outside its rules: the table's own result
            found["result"] = found["frames"][-1]["result"] = result_json(live.forfeit)
        return JSONResponse({"table": live.id, **found})

    @app.get("/replay/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def replay(table_id: str) -> HTMLResponse:
        game = game_of(table_id)
        if game is None:
            return missing(table_id)
        return page(f"Replay of table {table_id}", "replay",
                    game_page("replay.html", table_id, game),
                    ("cards.js", "table.js", "replay.js"))
