"""Named players (an anonymous account: a cookie, no password) and the leaderboard."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from cardtable.web.routes import bodies
from cardtable.web.routes.json_body import JsonBodyRoute
from cardtable.web.routes.refusals import ERROR_RESPONSES, Refused
from cardtable.web.routes.state import PLAYER_COOKIE, Web
from cardtable.web.store import token_hash

router = APIRouter(prefix="/api", tags=["players"], route_class=JsonBodyRoute,
                   responses=ERROR_RESPONSES)

COOKIE_SECONDS = 10 * 365 * 86400


@router.post("/players", status_code=201)
async def new_player(body: bodies.NewPlayer, web: Web) -> JSONResponse:
    """A named account for this browser: its cookie ``cardtable_player``."""
    name = body.name
    if web.store.name_taken(name):
        raise Refused(409, f"The name '{name}' is taken.")
    secret = secrets.token_urlsafe(24)
    if not web.store.add_player(token_hash(secret), name):
        raise Refused(409, f"The name '{name}' is taken.")
    response = JSONResponse({"name": name}, status_code=201)
    response.set_cookie(PLAYER_COOKIE, secret, max_age=COOKIE_SECONDS, httponly=True,
                        samesite="lax")
    return response


@router.get("/players/me")
async def me(request: Request, web: Web) -> dict[str, Any]:
    """The name of the player whose cookie came with the request."""
    player = web.player(request)
    if player is None:
        raise Refused(404, "No name chosen yet.")
    return {"name": player[1]}


@router.get("/leaderboard/{game}")
async def leaderboard(game: str, web: Web) -> dict[str, Any]:
    """The game's rated players, best first."""
    bodies.known_game(game)
    return {"game": game, "players": web.store.leaderboard(game)}
