"""Migration 0003 (several servers): the migrations make exactly the schema of
``cardtable.web.schema``, on SQLite and PostgreSQL; a database of 0002 is upgraded with its
finished games counted as rated, every table without an owner; and servers started together
on a new PostgreSQL database migrate it one after the other."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, select, text

from cardtable.web import schema
from cardtable.web.store import Store, normalize_url


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location",
                           str(Path(schema.__file__).parent / "migrations"))
    return config


def test_the_migrations_make_exactly_the_schema(db_url: str) -> None:
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), schema.metadata)
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    finally:
        store.close()
    # (server defaults and index names are not compared; columns, types and tables are)
    assert [d for d in differences if d[0] not in ("add_index", "remove_index")] == []
    assert version == "0003"


def test_a_database_of_0002_is_upgraded(db_url: str) -> None:
    engine = create_engine(normalize_url(db_url))
    config = alembic_config()
    try:
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "0002")
            for table_id, status in (("old", "finished"), ("live", "playing"),
                                     ("wait", "open")):
                conn.execute(text(
                    "INSERT INTO tables (id, game, params, seed, status, private, spectators, "
                    "created) VALUES (:id, 'caravan', '{}', 1, :status, false, true, 0)"),
                    {"id": table_id, "status": status})
    finally:
        engine.dispose()
    store = Store(db_url)  # (upgrades to the head)
    try:
        with store.engine.connect() as conn:
            rows = {row.id: (row.owner, row.epoch, bool(row.rated))
                    for row in conn.execute(select(schema.tables))}
            servers = conn.execute(select(schema.servers)).all()
    finally:
        store.close()
    assert rows == {"old": (None, 0, True), "live": (None, 0, False),
                    "wait": (None, 0, False)}
    assert servers == []


def test_servers_started_together_migrate_one_after_the_other(pg_cluster: Any) -> None:
    url = pg_cluster.new_database()
    # Processes (Alembic is not made for threads), each opening the store at once.
    opener = ("import sys; from cardtable.web.store import Store; sys.stdin.read(); "
              "Store(sys.argv[1]).close()")
    processes = [subprocess.Popen([sys.executable, "-c", opener, url], stdin=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for process in processes:  # (all started: now they go)
        assert process.stdin is not None
        process.stdin.close()
    for process in processes:
        assert process.stderr is not None
        err = process.stderr.read()
        assert process.wait(timeout=120) == 0, err
