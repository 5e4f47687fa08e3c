"""The lobby's list of tables from the database, a page at a time.

The public tables not finished, the most recently active first (``tables.activity``: the last
move, join or start; the creation time when a table has none), then by id. A page ends with a
cursor, the position of its last table: the next page starts right after it (keyset paging),
so a page is as quick to read deep in the list as at its start and no table is shown twice
or skipped because tables were added before the position. A table that becomes active while
someone pages moves to the first page (it is then not met again further on).

The cursor is opaque to clients: base64url of ``[activity, id]``.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from dataclasses import dataclass

from sqlalchemy import Engine, and_, false, func, or_, select

from cardtable.web import schema

DEFAULT_PAGE = 50
MAX_PAGE = 100
MAX_CURSOR_CHARS = 200
"""A cursor the server gave is under 80 characters (a float and an id of at most 32)."""
MAX_ID_CHARS = 32
UNFINISHED = ("open", "playing")


class PageError(ValueError):
    """A page that cannot be asked for; the message is one line for the client."""


@dataclass(frozen=True)
class Page:
    """One page of the list: ``(table id, activity)`` in order, and the cursor of the next
    page (None on the last one)."""

    tables: list[tuple[str, float]]
    next: str | None


def page_size(text: str | None) -> int:
    """The ``limit`` of a request: ``DEFAULT_PAGE`` when absent, else 1 to ``MAX_PAGE``."""
    if text is None:
        return DEFAULT_PAGE
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_PAGE):
        raise PageError(f"'limit' is a whole number from 1 to {MAX_PAGE}.")
    return int(text)


def encode_cursor(activity: float, table_id: str) -> str:
    raw = json.dumps([activity, table_id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> tuple[float, str]:
    """``(activity, id)`` of a cursor this module gave; PageError for anything else."""
    invalid = PageError("Invalid 'cursor': use the 'next' of the previous page.")
    if not cursor or len(cursor) > MAX_CURSOR_CHARS or not cursor.isascii():
        raise invalid
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError):
        raise invalid from None
    if not (isinstance(value, list) and len(value) == 2
            and isinstance(value[0], int | float) and not isinstance(value[0], bool)
            and math.isfinite(value[0]) and isinstance(value[1], str)
            and 0 < len(value[1]) <= MAX_ID_CHARS):
        raise invalid
    return float(value[0]), value[1]


def open_tables(engine: Engine, *, game: str | None = None, status: str | None = None,
                limit: int = DEFAULT_PAGE, cursor: str | None = None) -> Page:
    """A page of the public tables not finished (``status``: only ``open`` or ``playing``
    ones; ``game``: only that game's), after ``cursor`` (from the first when None)."""
    tables = schema.tables
    # A table nothing happened at since it was made has no activity yet: its creation.
    activity = func.coalesce(tables.c.activity, tables.c.created)
    # (By status, so that the index on it skips every finished table.)
    conditions = [tables.c.status.in_(UNFINISHED if status is None else (status,)),
                  tables.c.private == false()]
    if game is not None:
        conditions.append(tables.c.game == game)
    if cursor is not None:
        after, table_id = decode_cursor(cursor)
        conditions.append(or_(activity < after,
                              and_(activity == after, tables.c.id < table_id)))
    query = (select(tables.c.id, activity.label("activity")).where(*conditions)
             .order_by(activity.desc(), tables.c.id.desc()).limit(limit + 1))
    with engine.connect() as conn:
        rows = [(str(row.id), float(row.activity)) for row in conn.execute(query)]
    if len(rows) <= limit:
        return Page(rows, None)
    rows = rows[:limit]
    return Page(rows, encode_cursor(rows[-1][1], rows[-1][0]))
