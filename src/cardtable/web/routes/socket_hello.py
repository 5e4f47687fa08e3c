"""The table WebSocket's ``hello``: a seat's token sent as a message, never in the URL.

A URL ends up in logs (the server's, a proxy's) and in the browser's history; a message does
not. A client opens ``/api/tables/{id}/ws`` without ``?token=`` and says, first,
``{"type": "hello", "token": TOKEN}`` to be that seat, or ``{"type": "hello"}`` to watch; the
server answers as it does a connection with ``?token=`` (a ``table``, a ``chat_history`` and
a ``state`` frame), or refuses it the same way (a token not of the table: an error frame and
code 4401; a spectator at a table without spectators: code 4403).

A client that will say hello opens ``/ws?hello`` (the pages do): the server waits up to
:data:`HELLO_SECONDS` for that first message (none in time: a spectator, or code 4403 at a
table without spectators; a first message that is no hello makes it a spectator at once, and
a ``ping`` is answered). A client that opens ``/ws`` with neither ``?hello`` nor ``?token=``
is a spectator at once, as it always was. A spectator's connection that says hello with a
token later becomes the seat's. ``?token=TOKEN`` keeps working as it always did.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import WebSocket

from cardtable.web.live import Connection, LiveTable, error_frame

HELLO_SECONDS = 10.0
"""How long a connection opened with ``?hello`` has to say it (then it watches, or is closed
at a table without spectators)."""
UNKNOWN_TOKEN = "Unknown token for this table."
WRONG_TOKEN_CODE = 4401


def parse(text: str | None) -> dict[str, Any] | None:
    """A message's JSON object, or None."""
    try:
        data = json.loads(text or "")
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


async def first_token(websocket: WebSocket, spectators: bool) -> str | None:
    """The token of a connection opened with ``?hello``, from its first message: the hello's
    token, ``""`` for a spectator (a hello without a token, another message, or nothing in
    time), None when the client left."""
    try:
        message = await asyncio.wait_for(websocket.receive(), HELLO_SECONDS)
    except TimeoutError:
        return ""
    if message["type"] == "websocket.disconnect":
        return None
    data = parse(message.get("text"))
    if data is None or data.get("type") != "hello":
        if data is not None and data.get("type") == "ping" and spectators:
            await websocket.send_json({"type": "pong"})
        return ""
    token = data.get("token")
    if token is None:
        return ""
    # (Anything but a string is no table's token: refused as a wrong one.)
    return token if isinstance(token, str) else json.dumps(token)


def take_seat(live: LiveTable, connection: Connection, data: dict[str, Any]) -> None:
    """A ``hello`` on an open connection: with a seat's token, a spectator's connection
    becomes the seat's; with a wrong one the connection is closed (code 4401); without a token,
    or the token of the seat it already is, nothing changes."""
    token = data.get("token")
    if token is None or token == "":
        return
    seat = live.seat_of_token(token) if isinstance(token, str) else None
    if seat is None:
        connection.send(error_frame(UNKNOWN_TOKEN))
        connection.close_code = WRONG_TOKEN_CODE
        connection.closed = True
        return
    if connection.seat is not None:
        if seat != connection.seat:
            connection.send(error_frame(f"This connection is seat {connection.seat}'s."))
        return
    connection.seat = seat
    connection.name = next((row.name for row in live.seats if row.seat == seat), None)
    live.hub.arrived(live, connection)  # (the seat's person is here now)
    live.send_state(connection)
    live.broadcast_table()
