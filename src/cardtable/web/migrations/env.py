"""Alembic's environment: migrations run on the connection the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from cardtable.web.schema import metadata

MIGRATION_LOCK = 0x63617264  # ("card"): any constant every server agrees on
"""The PostgreSQL advisory lock held while migrating: servers started together on a new
database migrate it one after the other (the later ones find it done)."""

connection = context.config.attributes["connection"]
if connection.dialect.name == "postgresql":
    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
