"""A store call whose transaction commits but whose answer is lost (the connection drops as
the database commits) is tried again by the store's retry: that second try must find its own
first try's work and answer as the first would have, changing nothing more. Checked on
SQLite and on the real PostgreSQL cluster, with the loss made to happen after a commit."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError

from cardtable.web import schema
from cardtable.web.backoff import Backoff
from cardtable.web.store import SeatRow, Store, TableRow


class AnswerLost:
    """Makes the next ``armed`` transactions of ``store`` commit and then fail as a dropped
    connection does."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.armed = 0
        self.lost = 0
        begin = store.engine.begin

        @contextlib.contextmanager
        def begin_then_lose() -> Iterator[Any]:
            with begin() as conn:
                yield conn
            if self.armed:
                self.armed -= 1
                self.lost += 1
                raise OperationalError("COMMIT", {},
                                       OSError("server closed the connection unexpectedly"))

        monkeypatch.setattr(store.engine, "begin", begin_then_lose)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    else:
        url = request.getfixturevalue("pg_cluster").new_database()
    made = Store(url, retry=Backoff(first=0.0, cap=0.0, attempts=3), sleep=lambda _s: None)
    try:
        yield made
    finally:
        made.close()


def a_table(store: Store, table_id: str = "t1") -> TableRow:
    row = TableRow(table_id, "caravan", {"rules": "nv"}, 7, "open", False, True, None,
                   time.time(), None, None, None, None, None, False)
    store.add_table(row, [SeatRow("ABC", 0, "human", None, None, None),
                          SeatRow("DEF", 1, "human", None, None, None)])
    return row


def test_a_new_table_stored_before_the_answer_was_lost_is_stored_once(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    lost = AnswerLost(store, monkeypatch)
    lost.armed = 1
    row = a_table(store)
    assert lost.lost == 1
    stored = store.table(row.id)
    assert stored is not None and stored.seed == row.seed
    assert [seat.seat for seat in store.seats(row.id)] == ["ABC", "DEF"]


def test_another_table_of_the_same_id_is_still_refused(store: Store) -> None:
    a_table(store)
    other = TableRow("t1", "caravan", {"rules": "nv"}, 8, "open", False, True, None,
                     time.time(), None, None, None, None, None, False)
    with pytest.raises(IntegrityError):
        store.add_table(other, [])


def test_a_seat_claimed_before_the_answer_was_lost_is_the_claimers(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    row = a_table(store)
    lost = AnswerLost(store, monkeypatch)
    lost.armed = 1
    assert store.claim_seat(row.id, "ABC", "hash-of-alice", None, "Alice")
    assert lost.lost == 1
    # Anyone else still finds it taken.
    assert not store.claim_seat(row.id, "ABC", "hash-of-bob", None, "Bob")
    assert [seat.token_hash for seat in store.seats(row.id)] == ["hash-of-alice", None]


def test_a_chat_line_stored_before_the_answer_was_lost_is_stored_once(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    row = a_table(store)
    lost = AnswerLost(store, monkeypatch)
    lost.armed = 1
    store.add_chat(row.id, "ABC", "Alice", "good game", 1000.5)
    assert lost.lost == 1
    store.add_chat(row.id, None, None, "good game", 1000.5)  # (a spectator's, the same moment)
    store.add_chat(row.id, "ABC", "Alice", "good game", 1001.0)  # (said again, later)
    assert [(line["seat"], line["at"]) for line in store.chat(row.id)] == [
        ("ABC", 1000.5), (None, 1000.5), ("ABC", 1001.0)]


def test_a_player_stored_before_the_answer_was_lost_is_theirs(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    lost = AnswerLost(store, monkeypatch)
    lost.armed = 1
    assert store.add_player("secret-hash-1", "Alice")
    assert lost.lost == 1
    assert store.player_name("secret-hash-1") == "Alice"
    assert not store.add_player("secret-hash-2", "Alice")  # (the name is taken)


def test_a_rematch_linked_before_the_answer_was_lost_is_linked(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    row = a_table(store)
    a_table(store, "t2")
    lost = AnswerLost(store, monkeypatch)
    lost.armed = 1
    assert store.set_rematch(row.id, "t2")
    assert lost.lost == 1
    assert not store.set_rematch(row.id, "t3")  # (another one: refused)
    with store.engine.connect() as conn:
        linked = conn.execute(select(schema.tables.c.rematch)
                              .where(schema.tables.c.id == row.id)).scalar()
    assert linked == "t2"


def test_a_table_claimed_before_the_answer_was_lost_is_the_claimers(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    row = a_table(store)  # (owned by a server that has no row: nobody drives it)
    now = time.time()
    with store.engine.begin() as conn:
        conn.execute(schema.servers.insert().values(id="me", host="h", pid=1, started=now,
                                                    heartbeat=now))
    troubles = store.troubles
    lost = AnswerLost(store, monkeypatch)
    lost.armed = 1
    epoch = store.claim_table(row.id, "me", now - 5)
    assert lost.lost == 1 and store.troubles > troubles
    stored = store.table(row.id)
    assert stored is not None and stored.owner == "me" and epoch == stored.epoch
    assert store.owned("me") == [(row.id, epoch)]
    assert store.claim_table(row.id, "another", now - 5) is None  # ("me" runs)
