"""What every route shares: the store, the live tables and the server's settings.

``create_app`` builds one :class:`WebState` and keeps it in ``app.state.web``; a route asks for
it with the dependency :data:`Web` instead of reaching for a global.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from cardtable.web.live import Hub, LiveTable
from cardtable.web.routes.refusals import Refused
from cardtable.web.store import Store, token_hash

PLAYER_COOKIE = "cardtable_player"
MAX_COOKIE_CHARS = 100
"""A player cookie longer than this is no cookie the server gave (they are 32 characters)."""


@dataclass(frozen=True)
class Settings:
    """The operator's choices (``cardtable serve`` options)."""

    bot_delay: float
    """Seconds before each bot move."""
    flood_limit: int
    """A WebSocket sending more messages than this within a second is closed."""
    programs: Mapping[str, str] = field(default_factory=dict)
    """The programs offered at the tables (``--allow-exec NAME=COMMAND``), by name."""


@dataclass(frozen=True)
class WebState:
    """The server's shared state: its settings, its database and its live tables."""

    settings: Settings
    store: Store
    hub: Hub

    def table(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, or a 404 refusal."""
        live = self.hub.get(table_id)
        if live is None:
            raise Refused(404, "No such table.")
        return live

    def player(self, connection: HTTPConnection) -> tuple[str, str] | None:
        """``(player id, name)`` of the named player whose cookie came with the request."""
        secret = connection.cookies.get(PLAYER_COOKIE)
        if not secret or len(secret) > MAX_COOKIE_CHARS:
            return None
        player_id = token_hash(secret)
        name = self.store.player_name(player_id)
        return None if name is None else (player_id, name)


def web_state(connection: HTTPConnection) -> WebState:
    """The dependency behind :data:`Web` (HTTP routes and WebSockets alike)."""
    state = connection.app.state.web
    assert isinstance(state, WebState)
    return state


Web = Annotated[WebState, Depends(web_state)]
"""A route's parameter ``web: Web`` receives the server's :class:`WebState`."""
