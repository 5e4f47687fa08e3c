"""The routes of the web server, one module per part of the API.

``state`` holds what every route shares (the store, the live tables, the settings), passed as
a FastAPI dependency; ``refusals`` turns every refusal into ``{"error": MESSAGE}``;
``json_body`` reads a request's JSON body and ``bodies`` declares each body as a Pydantic
model (what ``/openapi.json`` documents). The routers: ``health``, ``catalogue`` (games and how
to play), ``tables`` (the lobby: create, list, join, quick match, rematch), ``records``
(records and replays of finished games), ``players`` (names and the leaderboard) and
``table_socket`` (the live table's WebSocket, with ``socket_hello``: a seat's token as its
first message).
"""
