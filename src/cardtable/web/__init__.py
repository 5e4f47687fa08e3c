"""Play in the browser: the web server (``cardtable serve``), its storage, API and pages.

Needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy, Alembic, psycopg, openskill).
``cardtable.web.app.create_app(store)`` builds the ASGI app; see docs/web.md.
"""
