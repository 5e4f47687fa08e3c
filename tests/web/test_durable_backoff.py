"""The retry policy and the store's short retry, with a fake clock (nothing sleeps)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from cardtable.web.backoff import Backoff, retry_async, retry_call
from cardtable.web.store import Store, StoreUnavailable, transient


def test_waits_double_up_to_the_cap() -> None:
    waits = Backoff(first=0.2, cap=5.0).delays()
    assert [next(waits) for _ in range(8)] == [0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0, 5.0]


def test_a_limited_policy_waits_one_time_fewer_than_it_tries() -> None:
    assert list(Backoff(first=0.05, cap=0.2, attempts=4).delays()) == [0.05, 0.1, 0.2]
    assert list(Backoff(first=1.0, cap=1.0, attempts=1).delays()) == []


class Flaky:
    """Fails ``failures`` times with ``error``, then answers."""

    def __init__(self, failures: int, error: Exception) -> None:
        self.failures = failures
        self.error = error
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error
        return "stored"


def test_a_transient_error_is_tried_again_after_each_wait() -> None:
    slept: list[float] = []
    told: list[float] = []
    flaky = Flaky(3, ConnectionError("away"))
    answer = retry_call(flaky, Backoff(first=0.1, cap=0.3), lambda e: True, slept.append,
                        lambda _error, delay: told.append(delay))
    assert (answer, flaky.calls) == ("stored", 4)
    assert slept == told == [0.1, 0.2, 0.3]


def test_the_last_error_is_raised_when_the_tries_run_out() -> None:
    slept: list[float] = []
    flaky = Flaky(10, ConnectionError("away"))
    with pytest.raises(ConnectionError):
        retry_call(flaky, Backoff(first=0.1, cap=1.0, attempts=3), lambda e: True,
                   slept.append)
    assert flaky.calls == 3 and slept == [0.1, 0.2]


def test_an_error_that_is_not_transient_is_raised_at_once() -> None:
    slept: list[float] = []
    flaky = Flaky(1, ValueError("a bug"))
    with pytest.raises(ValueError):
        retry_call(flaky, Backoff(first=0.1, cap=1.0), lambda e: isinstance(e, OSError),
                   slept.append)
    assert flaky.calls == 1 and slept == []


def test_the_async_form_waits_on_the_event_loop_until_it_works() -> None:
    slept: list[float] = []

    async def sleep(delay: float) -> None:
        slept.append(delay)

    flaky = Flaky(7, ConnectionError("away"))

    async def call() -> str:
        return flaky()

    answer = asyncio.run(retry_async(call, Backoff(first=0.2, cap=5.0), lambda e: True, sleep))
    assert answer == "stored" and slept == [0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0]


def operational(orig: Exception) -> OperationalError:
    return OperationalError("INSERT ...", {}, orig)


def test_what_counts_as_the_database_being_away() -> None:
    assert transient(operational(sqlite3.OperationalError("database is locked")))
    assert not transient(operational(sqlite3.OperationalError("no such table: moves")))
    assert transient(operational(OSError("connection refused")))  # (psycopg's kind)
    assert transient(StoreUnavailable("away"))
    assert not transient(IntegrityError("INSERT ...", {}, sqlite3.IntegrityError("UNIQUE")))
    assert not transient(ValueError("a bug"))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    slept: list[float] = []
    store = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}",
                  retry=Backoff(first=0.05, cap=0.2, attempts=4), sleep=slept.append)
    store.slept = slept  # type: ignore[attr-defined]
    return store


def test_a_store_call_is_retried_and_records_that_the_database_answers(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    real = store.engine.connect
    failures = iter([True, True])

    def connect() -> object:
        if next(failures, False):
            raise operational(sqlite3.OperationalError("database is locked"))
        return real()

    monkeypatch.setattr(store.engine, "connect", connect)
    assert store.moves("no-such-table") == []
    assert store.slept == [0.05, 0.1]  # type: ignore[attr-defined]
    assert store.answering


def test_a_store_call_that_keeps_failing_raises_store_unavailable(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    def connect() -> object:
        raise operational(sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(store.engine, "connect", connect)
    with pytest.raises(StoreUnavailable) as refused:
        store.moves("t")
    assert str(refused.value) == "The database is not answering: database is locked."
    assert store.slept == [0.05, 0.1, 0.2]  # type: ignore[attr-defined]
    assert not store.answering
    # Known to be away: the next call is tried once, and nobody waits.
    with pytest.raises(StoreUnavailable):
        store.moves("t")
    assert store.slept == [0.05, 0.1, 0.2]  # type: ignore[attr-defined]
    monkeypatch.undo()
    assert store.moves("t") == [] and store.answering


def test_a_wrong_query_is_not_retried(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    def connect() -> object:
        raise operational(sqlite3.OperationalError("no such table: moves"))

    monkeypatch.setattr(store.engine, "connect", connect)
    with pytest.raises(OperationalError):
        store.moves("t")
    assert store.slept == []  # type: ignore[attr-defined]
