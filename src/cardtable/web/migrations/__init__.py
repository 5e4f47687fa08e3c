"""Alembic migrations of the web server's database, applied on start (``cardtable serve``)."""
