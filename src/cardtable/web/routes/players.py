"""Named players: guests (a name kept by a cookie, no password; accounts are in
``routes.accounts``), who the request's player is, and the leaderboard of accounts."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from cardtable.web import limits
from cardtable.web.ratings import leaderboard as rated_accounts
from cardtable.web.routes import bodies
from cardtable.web.routes.accounts import me_json
from cardtable.web.routes.json_body import JsonBodyRoute
from cardtable.web.routes.refusals import ERROR_RESPONSES, Refused
from cardtable.web.routes.state import PLAYER_COOKIE, Web
from cardtable.web.security import set_cookie
from cardtable.web.store import token_hash

router = APIRouter(prefix="/api", tags=["players"], route_class=JsonBodyRoute,
                   responses=ERROR_RESPONSES)

COOKIE_SECONDS = 10 * 365 * 86400


@router.post("/players", status_code=201)
async def new_player(body: bodies.NewPlayer, request: Request, web: Web) -> JSONResponse:
    """A guest's name for this browser: its cookie ``cardtable_player`` (no password; a
    guest's games are played but not rated)."""
    name = body.name
    if web.store.name_taken(name):
        raise Refused(409, f"The name '{name}' is taken.")
    # Counted by address: a new name is a new client for the other limits.
    address = request.client.host if request.client is not None else None
    limits.spend(web.limiters.names, limits.client_key(None, address), "new names")
    secret = secrets.token_urlsafe(24)
    if not web.store.add_player(token_hash(secret), name):
        raise Refused(409, f"The name '{name}' is taken.")
    response = JSONResponse({"name": name, "account": False}, status_code=201)
    set_cookie(response, request, PLAYER_COOKIE, secret, COOKIE_SECONDS)
    return response


@router.get("/players/me")
async def me(request: Request, web: Web) -> dict[str, Any]:
    """Who the request's player is: the signed-in account, else the guest of the cookie
    (``account`` false), else ``{"name": null, "account": false}``."""
    return me_json(web.person(request))


@router.get("/leaderboard/{game}")
async def leaderboard(game: str, web: Web) -> dict[str, Any]:
    """The game's rated accounts, best first."""
    bodies.known_game(game)
    return {"game": game, "players": rated_accounts(web.store, game)}
