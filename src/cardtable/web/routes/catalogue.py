"""What the server offers: its games (bots, seats, parameters) and how to play them."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from cardtable.web import games
from cardtable.web.routes.refusals import ERROR_RESPONSES, Refused
from cardtable.web.routes.state import Web

router = APIRouter(prefix="/api", tags=["games"], responses=ERROR_RESPONSES)


@router.get("/games")
async def list_games(web: Web) -> dict[str, Any]:
    """Each game the lobby offers: its seats, presets, bots and parameters."""
    return {"games": games.catalogue(web.hub.programs)}


@router.get("/howto/{game}")
async def howto(game: str, preset: str | None = None) -> dict[str, Any]:
    """How to play, as the terminal's help says it (for each preset of a game that has some)."""
    try:
        return games.howto(game, preset)
    except games.TableError as error:
        raise Refused(404, str(error)) from None
