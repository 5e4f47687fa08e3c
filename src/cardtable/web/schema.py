"""The web server's tables (SQLAlchemy Core). The migrations in ``migrations/versions`` create
exactly these; a new column is a new migration and a line here."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("params", Text, nullable=False),          # JSON object: load_game parameters
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),    # open, playing, finished
    Column("private", Boolean, nullable=False),
    Column("spectators", Boolean, nullable=False),
    Column("turn_seconds", Integer, nullable=True),
    Column("created", Float, nullable=False),
    Column("finished", Float, nullable=True),
    Column("result", Text, nullable=True),           # JSON object once finished
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),
)

seats = Table(
    "seats", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", String(8), primary_key=True),
    Column("position", Integer, nullable=False),
    Column("kind", String(200), nullable=False),     # "human" or "bot:SPEC"
    Column("token_hash", String(64), nullable=True, unique=True),
    Column("player_id", String(64), nullable=True),
    Column("name", String(40), nullable=True),
)

moves = Table(
    "moves", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("seat", String(8), nullable=False),
    Column("move", Text, nullable=False),
    Column("at", Float, nullable=False),
)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", String(8), nullable=True),
    Column("name", String(40), nullable=True),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)

players = Table(
    "players", metadata,
    Column("id", String(64), primary_key=True),      # sha256 of the cookie's secret
    Column("name", String(40), nullable=False, unique=True),
    Column("created", Float, nullable=False),
)

ratings = Table(
    "ratings", metadata,
    Column("player_id", String(64), ForeignKey("players.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)
