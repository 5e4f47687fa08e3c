"""The web server's tables (SQLAlchemy Core). The migrations in ``migrations/versions`` create
exactly these; a new column is a new migration and a line here."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
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
    Column("activity", Float, nullable=True),        # last move, join or start (the lobby's order)
    Column("bot_delay", Float, nullable=True),       # seconds before each bot move (None: server's)
    Column("quick", Boolean, nullable=False, server_default=false()),  # made by quick match
    # --- cluster (0003): the server driving the table, fenced by its epoch ---
    Column("owner", String(32), nullable=True),      # servers.id driving it; None: nobody yet
    Column("epoch", Integer, nullable=False, server_default="0"),  # +1 at every new owner
    Column("rated", Boolean, nullable=False, server_default=false()),  # ratings written
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
    Column("password_hash", String(200), nullable=True),  # Argon2; None for a guest
)

sessions = Table(
    "sessions", metadata,
    Column("id", String(64), primary_key=True),      # sha256 of the session cookie's secret
    Column("player_id", String(64), ForeignKey("players.id"), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

rating_history = Table(
    "rating_history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(64), ForeignKey("players.id"), nullable=False),
    Column("game", String(16), nullable=False),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("at", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
)

ratings = Table(
    "ratings", metadata,
    Column("player_id", String(64), ForeignKey("players.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)

# --- cluster (0003): every running server, its heartbeat and where it runs ---
servers = Table(
    "servers", metadata,
    Column("id", String(32), primary_key=True),      # random hex, made at the server's start
    Column("host", String(255), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("started", Float, nullable=False),
    Column("heartbeat", Float, nullable=False),      # time.time() of its last beat
)

# --- presence and limits (0003): open WebSockets, seats on their way, rate limits ---
presence = Table(
    "presence", metadata,
    Column("id", String(32), primary_key=True),      # random, one per open table WebSocket
    Column("server_id", String(32), nullable=False),  # servers.id holding it
    Column("table_id", String(32), nullable=False),  # (from the URL: maybe no table)
    Column("seat", String(8), nullable=True),        # None: a spectator (or not said yet)
    Column("player_id", String(64), nullable=True),  # the seat's player
    Column("client", String(100), nullable=False),   # who it counts against (limits)
    Column("opened", Float, nullable=False),
    Index("ix_presence_table_seat", "table_id", "seat"),
    Index("ix_presence_client", "client"),
)

presence_waits = Table(
    "presence_waits", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", String(8), primary_key=True),     # taken, its page not connected yet
    Column("since", Float, nullable=False),          # when it was taken
)

presence_tables = Table(
    "presence_tables", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("last_here", Float, nullable=False),      # a person of the table last known here
)

rate_buckets = Table(
    "rate_buckets", metadata,
    Column("name", String(16), primary_key=True),    # the limit: create, join, chat, ...
    Column("client", String(100), primary_key=True),
    Column("tokens", Float, nullable=False),         # left when counted
    Column("at", Float, nullable=False),             # when they were counted
    Column("spent", Boolean, nullable=False),        # whether the last action was allowed
    Index("ix_rate_buckets_name_at", "name", "at"),
)
