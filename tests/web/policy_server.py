"""A web server for the tables' tests: its table policy given, bots without delay, rate limits
off, and its hub's clock driven by the test (nobody waits ten minutes for a table to be
abandoned)."""

from __future__ import annotations

import time
from typing import Any

from webplay import Server

from cardtable.web.table_policy import TablePolicy
from waiting import wait_until


class Clock:
    """The hub's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


class PolicyServer(Server):
    """:class:`Server` with the table policy given, bots without delay, and its hub's clock
    driven by the test."""

    def __init__(self, url: str, policy: TablePolicy | None = None,
                 programs: dict[str, str] | None = None) -> None:
        from fastapi.testclient import TestClient

        from cardtable.web.app import create_app
        from cardtable.web.limits import Limits
        from cardtable.web.store import Store

        self.url = url
        self.store = Store(url)
        self.app = create_app(self.store, flood_limit=10_000, programs=programs,
                              limits=Limits.off(), policy=policy)
        self.client = TestClient(self.app)
        self.clock = Clock()
        self.app.state.hub.clock = self.clock

    def sweep(self) -> list[str]:
        """One sweep of the hub, on the server's event loop, at the test's time."""
        closed: list[str] = self.client.portal.call(self.app.state.hub.sweep)
        return closed

    def abandon(self, table: str) -> None:
        """Close the table as abandoned, on the server's event loop: as soon as it can be (not
        while one of its moves is being stored; the hub's sweep would try again too)."""
        live = self.app.state.hub.tables[table]
        wait_until(lambda: self.client.portal.call(self.app.state.hub.abandon, live, 601.0),
                   f"table {table} closed as abandoned")

    def view(self, table: str) -> dict[str, Any]:
        answer = self.client.get(f"/api/tables/{table}")
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()
        return view

    def quick(self, game: str = "caravan") -> dict[str, Any]:
        answer = self.client.post("/api/quick", json={"game": game})
        assert answer.status_code == 200, answer.text
        made: dict[str, Any] = answer.json()
        return made


def new_table(server: PolicyServer, game: str, seats: list[str],
              **extra: object) -> tuple[str, dict[str, str]]:
    answer = server.client.post("/api/tables", json={"game": game, "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    return made["table"], made["tokens"]
