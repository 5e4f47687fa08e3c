"""The live table's WebSocket: a seat's moves and chat in, every frame of the table out.

docs/web.md lists the frames. Each connection has its own queue of frames (``OUTBOX_LIMIT``):
a client that stops reading is dropped instead of holding up the table. A client holds at most
the server's ``sockets`` limit of connections at once and posts chat lines at its ``chat``
rate (``cardtable.web.limits``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import unicodedata
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from cardtable.web.limits import wait_message
from cardtable.web.live import (
    CHAT_HISTORY,
    OUTBOX_LIMIT,
    Connection,
    Flood,
    LiveTable,
    error_frame,
)
from cardtable.web.routes import socket_hello
from cardtable.web.routes.refusals import DATABASE_AWAY
from cardtable.web.routes.state import Web, WebState
from cardtable.web.store import StoreUnavailable

router = APIRouter(prefix="/api")

MAX_MESSAGE_BYTES = 4096
CHAT_LIMIT = 300


@router.websocket("/tables/{table_id}/ws")
async def table_socket(websocket: WebSocket, table_id: str, web: Web) -> None:
    await websocket.accept()
    sockets = web.limiters.sockets
    counted: str | None = None  # its key, once its connection is counted
    try:
        client = web.client(websocket)
        if web.hub.shared:  # (counted in the database, on a store thread)
            counted = await web.hub.in_store_thread(
                lambda: sockets.enter(client, table_id, time.time()))
        else:
            counted = sockets.enter(client, table_id, time.time())
        if counted is None:
            await websocket.send_json(error_frame(
                f"Too many connections at once (at most {sockets.limit}): close another "
                "table's page first."))
            await websocket.close(code=4429)
            return
        await _serve(websocket, table_id, web, client, counted)
    except StoreUnavailable:  # (the table could not be read: no frame of it went out)
        await websocket.send_json(error_frame(DATABASE_AWAY))
        await websocket.close(code=1013)
    finally:
        if counted is not None:
            if web.hub.shared:
                key = counted
                web.hub.write_later("a WebSocket closed", lambda: sockets.leave(key))
            else:
                sockets.leave(counted)


async def _serve(websocket: WebSocket, table_id: str, web: WebState, client: str,
                 counted: str) -> None:
    live = await web.hub.load(table_id)
    if live is None:
        await websocket.send_json(error_frame("No such table."))
        await websocket.close(code=4404)
        return
    token = websocket.query_params.get("token")
    if not token and "hello" in websocket.query_params:  # (the token comes in a hello)
        token = await socket_hello.first_token(websocket, live.row.spectators)
        if token is None:
            return
    seat: str | None = None
    if token:
        seat = live.seat_of_token(token)
        if seat is None and web.hub.shared:  # (a seat taken at another server a moment ago)
            await live.reload_seats()
            seat = live.seat_of_token(token)
        if seat is None:
            await websocket.send_json(error_frame("Unknown token for this table."))
            await websocket.close(code=4401)
            return
    elif not live.row.spectators:
        await websocket.send_json(error_frame("This table has no spectators."))
        await websocket.close(code=4403)
        return
    name = next((row.name for row in live.seats if row.seat == seat), None)
    # On a store thread: the seat's presence written (before any frame, as a seat is told
    # it is here), and the chat history read; a line said meanwhile is told to the table
    # (``LiveTable.said``), and completes the history once it is read.
    here, now = live, web.hub.clock()

    def opening() -> list[dict[str, Any]]:
        if seat is not None:
            web.hub.presence.write_arrival(here, counted, seat, now)
        return web.store.chat(here.id, CHAT_HISTORY)

    stored = await web.hub.in_store_thread(opening)
    # (A mirror nobody here watched may have been dropped from memory while the socket said
    # its hello or its history was read: hold it again, or the one of its id brought back
    # since.)
    live = web.hub.hold(live)
    outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def send(frame: dict[str, Any]) -> None:
        if connection.closed:
            return
        if outbox.qsize() >= OUTBOX_LIMIT:
            connection.closed = True
            outbox.put_nowait(None)
            return
        outbox.put_nowait(frame)

    connection = Connection(seat, name, send, presence=counted)

    async def sender() -> None:
        while True:
            frame = await outbox.get()
            if frame is None:
                with contextlib.suppress(Exception):
                    await websocket.close(code=connection.close_code)
                return
            await websocket.send_text(frame_text(frame))

    live.connections.append(connection)
    if web.hub.shared and not live.here_known:  # (who is here through other servers)
        live.refresh("here")
    web.hub.arrived(live, connection, now, written=True)
    sending = asyncio.get_running_loop().create_task(sender())
    try:
        send(live.table_frame())
        send({"type": "chat_history", "lines": live.chat_history(stored)})
        live.send_state(connection)
        live.broadcast_table()
        await _receive(websocket, web, live, connection, client)
    except WebSocketDisconnect:
        pass
    except StoreUnavailable:
        send(error_frame(DATABASE_AWAY))
        connection.close_code = 1013  # (try again later)
    finally:
        connection.closed = True
        with contextlib.suppress(ValueError):
            live.connections.remove(connection)
        web.hub.left(live, connection)
        # Let queued frames (a last error) go out before the socket closes.
        outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sending, 2)
        sending.cancel()
        live.broadcast_table()


async def _receive(websocket: WebSocket, web: WebState, live: LiveTable,
                   connection: Connection, client: str) -> None:
    flood_limit = web.settings.flood_limit
    flood = Flood(flood_limit)
    send = connection.send
    forwarded: set[asyncio.Task[None]] = set()  # moves on their way to the table's server
    while not connection.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if flood.hit(time.monotonic()):
            send(error_frame(f"Too many messages (more than {flood_limit} a second)."))
            connection.closed = True
            return
        text = message.get("text")
        if text is None:
            send(error_frame("Messages are JSON text frames."))
            continue
        if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "replace")) \
                > MAX_MESSAGE_BYTES:
            send(error_frame(f"Message over {MAX_MESSAGE_BYTES} bytes."))
            continue
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            send(error_frame("Malformed JSON."))
            continue
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            send(error_frame("A message is a JSON object with a \"type\"."))
            continue
        kind = data["type"]
        if kind == "move":
            move = data.get("move")
            if connection.seat is None:
                send(error_frame("Spectators cannot move."))
            elif not isinstance(move, str) or not move.strip():
                send(error_frame("A move is a non-empty string in the game's notation."))
            elif not live.owner:  # (another server drives the table: the move goes there)
                _forward(live, connection, move.strip(), forwarded)
            else:
                refusal = live.submit(connection.seat, move.strip())
                if refusal is not None:
                    send(error_frame(refusal))
        elif kind == "chat":
            await _chat(web, live, connection, data.get("text"), client)
        elif kind == "ping":
            send({"type": "pong"})
        elif kind == "hello":
            socket_hello.take_seat(live, connection, data)
        else:
            send(error_frame(f"Unknown message type '{kind[:20]}'."))


def _forward(live: LiveTable, connection: Connection, move: str,
             forwarded: set[asyncio.Task[None]]) -> None:
    """Hand ``move`` to the server driving ``live`` without holding up this connection's other
    messages; its refusal, if any, is sent back."""
    seat = connection.seat
    assert seat is not None

    async def hand_over() -> None:
        refusal = await live.hand_over.forward(seat, move)
        if refusal is not None:
            connection.send(error_frame(refusal))

    task = asyncio.get_running_loop().create_task(hand_over())
    forwarded.add(task)
    task.add_done_callback(forwarded.discard)


async def _chat(web: WebState, live: LiveTable, connection: Connection, text: object,
                client: str) -> None:
    """A chat line said through ``connection``: stored on one of the store's threads (the
    event loop serves the other tables meanwhile), then told; this connection's next messages
    wait for it, so that its lines keep their order."""
    send = connection.send
    if not isinstance(text, str):
        send(error_frame("A chat line is a string."))
        return
    cleaned = clean_chat(text)
    if not cleaned:
        send(error_frame("A chat line cannot be empty."))
    elif len(cleaned) > CHAT_LIMIT:
        send(error_frame(f"A chat line has at most {CHAT_LIMIT} characters."))
    elif connection.seat is None:
        send(error_frame("Spectators cannot chat."))
    elif (wait := web.limiters.chat.take(client)) > 0:
        send(error_frame(wait_message("chat lines", wait)))
    else:
        at, seat, name = time.time(), connection.seat, connection.name
        try:  # stored before it is shown
            await web.hub.in_store_thread(
                lambda: web.store.add_chat(live.id, seat, name, cleaned, at))
        except StoreUnavailable:
            send(error_frame("The server could not save your chat line; try again."))
            return
        live.tell_chat({"seat": seat, "name": name, "text": cleaned, "at": at})


def frame_text(frame: dict[str, Any]) -> str:
    """``frame`` as the JSON text a WebSocket carries: compact, UTF-8 (orjson: a state frame
    is encoded for every connection after every move, where the standard library's encoder
    was a tenth of the server's time)."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def clean_chat(text: str) -> str:
    """Control characters removed, spaces collapsed at the ends."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " ").strip()
