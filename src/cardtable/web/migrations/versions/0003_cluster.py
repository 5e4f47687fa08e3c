"""Several servers on one database: every running server and its heartbeat (``servers``), the
server driving each table and the epoch that fences a server that lost it (``tables.owner``,
``tables.epoch``), and whether a finished table's ratings are written (``tables.rated``).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "servers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
    )
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(32), nullable=True))
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    # Games finished before this migration had their ratings written when they finished.
    op.execute("UPDATE tables SET rated = true WHERE status = 'finished'")
    # A server looks for the unfinished tables whose owner is gone at every sweep.
    op.create_index("ix_tables_status_owner", "tables", ["status", "owner"])
    # --- presence and limits ---
    # An open table WebSocket (a spectator's too: seat NULL) on a server; its client's
    # sockets are counted over every live server.
    op.create_table(
        "presence",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("server_id", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(8), nullable=True),
        sa.Column("player_id", sa.String(64), nullable=True),
        sa.Column("client", sa.String(100), nullable=False),
        sa.Column("opened", sa.Float, nullable=False),
    )
    op.create_index("ix_presence_table_seat", "presence", ["table_id", "seat"])
    op.create_index("ix_presence_client", "presence", ["client"])
    # A seat taken whose page has not connected yet (quick match waits for it a moment).
    op.create_table(
        "presence_waits",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.String(8), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
    )
    # When a table's people were last known to be here (abandoned tables).
    op.create_table(
        "presence_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("last_here", sa.Float, nullable=False),
    )
    # A token bucket per (limit, client), refilled and spent in one statement.
    op.create_table(
        "rate_buckets",
        sa.Column("name", sa.String(16), primary_key=True),
        sa.Column("client", sa.String(100), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("spent", sa.Boolean, nullable=False),
    )
    op.create_index("ix_rate_buckets_name_at", "rate_buckets", ["name", "at"])


def downgrade() -> None:
    # --- presence and limits ---
    op.drop_table("rate_buckets")
    op.drop_table("presence_tables")
    op.drop_table("presence_waits")
    op.drop_table("presence")
    op.drop_index("ix_tables_status_owner", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
        batch.drop_column("epoch")
        batch.drop_column("owner")
    op.drop_table("servers")
