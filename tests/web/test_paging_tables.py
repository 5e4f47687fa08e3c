"""``GET /api/tables`` a page at a time: at most 100 rows, the most recently active first,
filtered by game and status, a cursor that keeps its place while tables come and go, and a
400 for a page that cannot be asked for."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from sqlalchemy import update
from webplay import Server

from cardtable.web import schema

SUMMARY_FIELDS = {"table", "game", "params", "status", "private", "created", "seats",
                  "free_seats", "spectators", "turn_seconds", "to_move", "ply", "result",
                  "rematch", "rematch_of"}


def set_activity(server: Server, activity: dict[str, float]) -> None:
    """Tables' last activity, as moves and joins set it."""
    with server.store.engine.begin() as conn:
        for table_id, at in activity.items():
            conn.execute(update(schema.tables).where(schema.tables.c.id == table_id)
                         .values(activity=at))


def every_page(server: Server, query: str = "", limit: int | None = None) -> list[list[str]]:
    """The ids of each page, following ``next`` from the first page to the last."""
    pages: list[list[str]] = []
    cursor: str | None = None
    while True:
        params = [part for part in (query, f"limit={limit}" if limit else "",
                                    f"cursor={cursor}" if cursor else "") if part]
        answer = server.client.get("/api/tables?" + "&".join(params))
        assert answer.status_code == 200, answer.text
        data = answer.json()
        pages.append([entry["table"] for entry in data["tables"]])
        cursor = data["next"]
        if cursor is None:
            return pages
        assert len(pages) < 50, "the pages never end"


def flat(pages: list[list[str]]) -> list[str]:
    return [table for page in pages for table in page]


def test_more_than_100_tables_come_by_pages_newest_activity_first(server: Server) -> None:
    caravans = [server.create("caravan", ["human", "human"], claim=["ABC"])[0]
                for _ in range(120)]
    obsessions = [server.create("obsession", ["human", "human", "bot:random"], claim=["P1"])[0]
                  for _ in range(6)]
    hidden = server.create("caravan", ["human", "human"], claim=["ABC"], private=True)[0]
    finished = server.create("caravan", ["human", "human"], claim=["ABC"])[0]
    server.store.finish(finished, {"winners": [], "reason": "abandoned"})
    listed = caravans + obsessions
    # An order unlike the creation's: activity, not creation, decides.
    activity = {table: 1_000_000.0 + (index * 37) % 127 for index, table in
                enumerate(listed)}
    set_activity(server, {**activity, hidden: 2e9, finished: 2e9})
    newest_first = sorted(listed, key=lambda table: -activity[table])

    first = server.client.get("/api/tables").json()
    assert len(first["tables"]) == 50 and isinstance(first["next"], str)
    assert set(first["tables"][0]) >= SUMMARY_FIELDS
    assert [entry["activity"] for entry in first["tables"]] == [
        activity[table] for table in newest_first[:50]]
    pages = every_page(server)
    assert [len(page) for page in pages] == [50, 50, 26]
    assert flat(pages) == newest_first

    most = server.client.get("/api/tables?limit=100").json()
    assert [entry["table"] for entry in most["tables"]] == newest_first[:100]
    assert flat(every_page(server, limit=100)) == newest_first

    assert flat(every_page(server, "game=obsession", limit=4)) == [
        table for table in newest_first if table in obsessions]
    assert flat(every_page(server, "game=caravan&status=open", limit=7)) == [
        table for table in newest_first if table in caravans]
    assert every_page(server, "status=playing") == [[]]


def test_a_new_table_comes_first_and_a_table_without_activity_counts_from_creation(
        server: Server) -> None:
    older = server.create("caravan", ["human", "human"], claim=["ABC"])[0]
    newer = server.create("caravan", ["human", "human"], claim=["ABC"])[0]
    with server.store.engine.begin() as conn:
        conn.execute(update(schema.tables).values(activity=None))
        conn.execute(update(schema.tables).where(schema.tables.c.id == older)
                     .values(created=1.0))
        conn.execute(update(schema.tables).where(schema.tables.c.id == newer)
                     .values(created=2.0))
    answer = server.client.get("/api/tables").json()
    assert [(entry["table"], entry["activity"]) for entry in answer["tables"]] == [
        (newer, 2.0), (older, 1.0)]
    assert answer["next"] is None


def test_the_cursor_keeps_its_place_while_tables_come_and_go(server: Server) -> None:
    tables = [server.create("caravan", ["human", "human"], claim=["ABC"])[0]
              for _ in range(30)]
    set_activity(server, {table: 100.0 + index for index, table in enumerate(tables)})
    newest_first = tables[::-1]
    first = server.client.get("/api/tables?limit=10").json()
    assert [entry["table"] for entry in first["tables"]] == newest_first[:10]
    # Meanwhile: new tables, a move at a table of the third page, a table of the second
    # page ends.
    fresh = [server.create("caravan", ["human", "human"], claim=["ABC"])[0] for _ in range(3)]
    set_activity(server, {newest_first[25]: 500.0, **{t: 600.0 + i for i, t in
                                                      enumerate(fresh)}})
    server.store.finish(newest_first[12], {"winners": [], "reason": "abandoned"})
    second = server.client.get(f"/api/tables?limit=10&cursor={first['next']}").json()
    expected = [table for table in newest_first[10:] if table not in
                (newest_first[12], newest_first[25])]
    assert [entry["table"] for entry in second["tables"]] == expected[:10]
    rest = server.client.get(f"/api/tables?limit=10&cursor={second['next']}").json()
    assert [entry["table"] for entry in rest["tables"]] == expected[10:]
    assert rest["next"] is None
    # The same cursor gives the same page again.
    again = server.client.get(f"/api/tables?limit=10&cursor={first['next']}").json()
    assert again == second


def test_tables_with_the_same_activity_are_each_listed_once(server: Server) -> None:
    tables = [server.create("caravan", ["human", "human"], claim=["ABC"])[0]
              for _ in range(9)]
    set_activity(server, {table: 7.0 if index < 6 else 3.0
                          for index, table in enumerate(tables)})
    pages = every_page(server, limit=2)
    listed = flat(pages)
    assert sorted(listed) == sorted(tables) and len(listed) == len(tables)
    assert set(listed[:6]) == set(tables[:6])


def _cursor(value: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


@pytest.mark.parametrize("cursor", [
    "garbage!", "x", _cursor({"a": 1}), _cursor([True, "abc"]), _cursor(["1", "abc"]),
    _cursor([1.0, ""]), _cursor([1.0, "x" * 33]), _cursor([1.0]), _cursor([1.0, "a", 2]),
    _cursor("text"), "A" * 201, "\u00e9t\u00e9",
    base64.urlsafe_b64encode(b"\xff\xfe[1,").decode(),
])
def test_a_bad_cursor_is_a_400_with_a_message(sqlite_server: Server, cursor: str) -> None:
    sqlite_server.create("caravan", ["human", "human"], claim=["ABC"])
    answer = sqlite_server.client.get("/api/tables", params={"cursor": cursor})
    assert answer.status_code == 400
    assert answer.json() == {"error": "Invalid 'cursor': use the 'next' of the previous page."}


@pytest.mark.parametrize("limit", ["0", "101", "-1", "ten", "1.5", "", "\u0661"])
def test_a_bad_limit_is_a_400_with_a_message(sqlite_server: Server, limit: str) -> None:
    answer = sqlite_server.client.get("/api/tables", params={"limit": limit})
    assert answer.status_code == 400
    assert answer.json() == {"error": "'limit' is a whole number from 1 to 100."}


def test_the_answer_of_one_page_has_no_next(sqlite_server: Server) -> None:
    table = sqlite_server.create("caravan", ["human", "human"], claim=["ABC"])[0]
    answer = sqlite_server.client.get("/api/tables?limit=1").json()
    assert [entry["table"] for entry in answer["tables"]] == [table]
    assert answer["next"] is None
    assert sqlite_server.client.get("/api/tables?limit=1&game=obsession").json() == {
        "tables": [], "next": None}
