"""For a public server: tables' last activity (the lobby's paging), per-table bot pace,
quick-match tables, accounts (a password hash on a player), sign-in sessions and each
account's rating history.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("activity", sa.Float, nullable=True))
        batch.add_column(sa.Column("bot_delay", sa.Float, nullable=True))
        batch.add_column(sa.Column("quick", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.execute("UPDATE tables SET activity = COALESCE(finished, created)")
    op.create_index("ix_tables_activity", "tables", ["activity"])
    op.create_index("ix_tables_game_activity", "tables", ["game", "activity"])
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("password_hash", sa.String(200), nullable=True))
    op.create_index("ix_seats_player_id", "seats", ["player_id"])
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(64), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["player_id", "game", "at"])


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("sessions")
    op.drop_index("ix_seats_player_id", "seats")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("password_hash")
    op.drop_index("ix_tables_game_activity", "tables")
    op.drop_index("ix_tables_activity", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("quick")
        batch.drop_column("bot_delay")
        batch.drop_column("activity")
