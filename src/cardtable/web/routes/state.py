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

from cardtable.web.accounts import SESSION_COOKIE, Accounts, Player
from cardtable.web.hub import Hub
from cardtable.web.limits import Limiters, Limits, client_key
from cardtable.web.live import LiveTable
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
    limits: Limits = field(default_factory=Limits)
    """Rate limits per client (``--rate-limits``)."""


@dataclass(frozen=True)
class WebState:
    """The server's shared state: its settings, its database and its live tables."""

    settings: Settings
    store: Store
    hub: Hub
    accounts: Accounts = field(init=False)
    """Sign-up, sign-in and sessions (on ``store``)."""
    limiters: Limiters = field(init=False)
    """The rate limits' live counts, per client (:meth:`client`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "limiters", Limiters(self.settings.limits, store=self.store))
        object.__setattr__(self, "accounts",
                           Accounts(self.store, client_limit=self.limiters.signin))
        self.limiters.share_accounts(self.accounts)

    def table(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, or a 404 refusal."""
        live = self.hub.get(table_id)
        if live is None:
            raise Refused(404, "No such table.")
        return live

    def player(self, connection: HTTPConnection) -> tuple[str, str] | None:
        """``(player id, name)`` of the request's player: the signed-in account, else the
        guest whose cookie came with it."""
        person = self.person(connection)
        return None if person is None else (person.id, person.name)

    def person(self, connection: HTTPConnection) -> Player | None:
        """The request's player: the account of its session cookie, else the guest of its
        guest cookie."""
        account = self.accounts.session_player(connection.cookies.get(SESSION_COOKIE))
        return account if account is not None else self.guest(connection)

    def guest(self, connection: HTTPConnection) -> Player | None:
        """The guest of the request's guest cookie."""
        player_id = self.guest_id(connection)
        guest = None if player_id is None else self.accounts.player(player_id)
        # A guest who became an account is that account only when signed in.
        return None if guest is None or guest.account else guest

    def client(self, connection: HTTPConnection) -> str:
        """Who the request counts against for rate limits: its known player, else its
        address."""
        player = self.player(connection)
        address = connection.client.host if connection.client is not None else None
        return client_key(None if player is None else player[0], address)

    def guest_id(self, connection: HTTPConnection) -> str | None:
        """The player id the request's guest cookie names (it may name no player)."""
        secret = connection.cookies.get(PLAYER_COOKIE)
        if not secret or len(secret) > MAX_COOKIE_CHARS:
            return None
        return token_hash(secret)


def web_state(connection: HTTPConnection) -> WebState:
    """The dependency behind :data:`Web` (HTTP routes and WebSockets alike)."""
    state = connection.app.state.web
    assert isinstance(state, WebState)
    return state


Web = Annotated[WebState, Depends(web_state)]
"""A route's parameter ``web: Web`` receives the server's :class:`WebState`."""
