"""The ASGI app: the JSON API, the live tables' WebSockets and (from ``pages``) the pages.

``create_app(store)`` builds it; ``cardtable serve`` runs it on uvicorn. See docs/web.md for
every route and message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
import unicodedata
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardtable import __version__
from cardtable.web import games, serialize
from cardtable.web.live import OUTBOX_LIMIT, Connection, Flood, Hub, LiveTable, error_frame
from cardtable.web.record import record_text
from cardtable.web.store import Store, token_hash

log = logging.getLogger("cardtable.web")

PLAYER_COOKIE = "cardtable_player"
MAX_MESSAGE_BYTES = 4096
MAX_BODY_BYTES = 16384
FLOOD_LIMIT = 20
CHAT_LIMIT = 300
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,19}$")
MAX_TURN_SECONDS = 3600
MIN_TURN_SECONDS = 5


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def create_app(store: Store, bot_delay: float = 0.0, flood_limit: int = FLOOD_LIMIT,
               programs: games.Programs | None = None) -> FastAPI:
    """The app on ``store``; ``bot_delay`` seconds pass before each bot move, and a connection
    sending more than ``flood_limit`` messages within a second is closed. ``programs`` are the
    external programs the operator offers at its tables, name → command (none by default)."""
    hub = Hub(store, bot_delay, programs)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.resume()
        yield
        await hub.shutdown()

    app = FastAPI(title="cardtable", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url=None)
    app.state.hub = hub
    app.state.store = store

    @app.exception_handler(Refused)
    async def refused(_request: Request, error: Refused) -> JSONResponse:
        return JSONResponse({"error": error.message}, status_code=error.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, _error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": "Invalid request."}, status_code=400)

    @app.exception_handler(Exception)
    async def crashed(_request: Request, error: Exception) -> JSONResponse:
        log.error("request failed: %s", error, exc_info=error)
        return JSONResponse({"error": "Internal error."}, status_code=500)

    # --- helpers ------------------------------------------------------------------------------

    async def body(request: Request) -> dict[str, Any]:
        too_large = Refused(413, f"Request body over {MAX_BODY_BYTES} bytes.")
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > MAX_BODY_BYTES:
            raise too_large
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise too_large
            chunks.append(chunk)
        data = b"".join(chunks)
        if not data.strip():
            return {}
        try:
            parsed = json.loads(data)
        except (ValueError, RecursionError):
            raise Refused(400, "Malformed JSON.") from None
        if not isinstance(parsed, dict):
            raise Refused(400, "The request body must be a JSON object.")
        return parsed

    def player_of(request: Request) -> tuple[str, str] | None:
        secret = request.cookies.get(PLAYER_COOKIE)
        if not secret or len(secret) > 100:
            return None
        player_id = token_hash(secret)
        name = store.player_name(player_id)
        return None if name is None else (player_id, name)

    def table_of(table_id: str) -> LiveTable:
        live = hub.get(table_id)
        if live is None:
            raise Refused(404, "No such table.")
        return live

    def seat_of(live: LiveTable, request: Request, data: dict[str, Any]) -> str:
        token = data.get("token")
        header = request.headers.get("authorization", "")
        if not token and header.lower().startswith("bearer "):
            token = header[7:].strip()
        if not isinstance(token, str) or not token:
            raise Refused(401, "A seat's token is needed.")
        seat = live.seat_of_token(token)
        if seat is None:
            raise Refused(403, "Unknown token for this table.")
        return seat

    def display_name(value: object) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str) or not NAME_PATTERN.match(value.strip()):
            raise Refused(400, "A name is 1 to 20 letters, digits, spaces or _ . - "
                               "(starting with a letter or digit).")
        return value.strip()

    def game_name(value: object) -> str:
        if not isinstance(value, str) or value not in games.GAMES:
            raise Refused(400, f"Unknown game (allowed: {', '.join(games.GAMES)}).")
        return value

    # --- the API ------------------------------------------------------------------------------

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        try:
            store.ping()
            database = "ok"
        except Exception:
            database = "unavailable"
        return {"status": "ok" if database == "ok" else "degraded", "version": __version__,
                "database": database, "backend": store.engine.dialect.name,
                "tables": sum(1 for t in hub.tables.values() if t.row.status != "finished")}

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        return {"games": games.catalogue(hub.programs)}

    @app.get("/api/howto/{game}")
    async def howto(game: str, preset: str | None = None) -> dict[str, Any]:
        try:
            return games.howto(game, preset)
        except games.TableError as error:
            raise Refused(404, str(error)) from None

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        data = await body(request)
        unknown = set(data) - {"game", "params", "seats", "claim", "private", "spectators",
                               "turn_seconds", "name"}
        if unknown:
            raise Refused(400, f"Unknown field '{sorted(unknown)[0][:20]}'.")
        game = game_name(data.get("game"))
        try:
            params, kinds = games.check_table(game, data.get("params"), data.get("seats"),
                                              hub.programs)
        except games.TableError as error:
            raise Refused(400, str(error)) from None
        claim = data.get("claim")
        seat_names = list(games.new_state(game, params, 0, kinds).seats)
        if claim is not None and (not isinstance(claim, list) or not claim
                or not all(isinstance(seat, str) for seat in claim)
                or any(seat not in seat_names for seat in claim)
                or any(kinds[seat_names.index(seat)] != "human" for seat in claim)):
            raise Refused(400, "'claim' must list human seats of the table.")
        private = data.get("private", False)
        spectators = data.get("spectators", True)
        if not isinstance(private, bool) or not isinstance(spectators, bool):
            raise Refused(400, "'private' and 'spectators' are true or false.")
        turn = data.get("turn_seconds")
        if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool)
                                 or not MIN_TURN_SECONDS <= turn <= MAX_TURN_SECONDS):
            raise Refused(400, f"'turn_seconds' is {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS} "
                               "or null.")
        name = display_name(data.get("name"))
        player = player_of(request)
        names = None
        if name is not None and claim:
            names = {claim[0]: name}
        live, tokens = hub.create(game, params, kinds, claim=claim, player=player,
                                  private=private, spectators=spectators, turn_seconds=turn,
                                  names=names)
        return JSONResponse({"table": live.id, "tokens": tokens}, status_code=201)

    @app.get("/api/tables")
    async def open_tables(game: str | None = None, status: str | None = None) -> dict[str, Any]:
        if game is not None:
            game_name(game)
        if status not in (None, "open", "playing"):
            raise Refused(400, "'status' is open or playing.")
        return {"tables": [live.summary() for live in hub.open_tables(game)
                           if status is None or live.row.status == status]}

    @app.get("/api/tables/{table_id}")
    async def table_view(table_id: str) -> dict[str, Any]:
        live = table_of(table_id)
        frame = live.state_frame(None)
        return {**live.summary(), "observation": frame["observation"],
                "deadline": live.deadline}

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        data = await body(request)
        live = table_of(table_id)
        seat = data.get("seat")
        if seat is not None and not isinstance(seat, str):
            raise Refused(400, "'seat' must be a seat name.")
        name = display_name(data.get("name"))
        outcome = hub.join(live, seat, player_of(request), name)
        if isinstance(outcome, str):
            raise Refused(409, outcome)
        return {"table": live.id, "seat": outcome[0], "token": outcome[1]}

    @app.post("/api/quick")
    async def quick(request: Request) -> dict[str, Any]:
        """Join the oldest open table of a game (public, people only waiting) or create one."""
        data = await body(request)
        game = game_name(data.get("game"))
        name = display_name(data.get("name"))
        player = player_of(request)
        for live in hub.open_tables(game):
            if live.row.rematch_of is None and live.free_seats and not any(
                    seat.player_id is not None and player is not None
                    and seat.player_id == player[0] for seat in live.seats):
                outcome = hub.join(live, None, player, name)
                if not isinstance(outcome, str):
                    return {"table": live.id, "seat": outcome[0], "token": outcome[1]}
        kinds = ["human", "human"]
        params, kinds = games.check_table(game, dict(games.QUICK_PARAMS.get(game, {})), kinds)
        seat_names = list(games.new_state(game, params, 0, kinds).seats)
        live, tokens = hub.create(game, params, kinds, claim=[seat_names[0]], player=player,
                                  private=False, spectators=True, turn_seconds=None,
                                  names=None if name is None else {seat_names[0]: name})
        return {"table": live.id, "seat": seat_names[0], "token": tokens[seat_names[0]]}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, request: Request) -> dict[str, Any]:
        """A new table with the same game, rules and seats; each player who asks takes their
        own seat in it (the first one creates it)."""
        data = await body(request)
        live = table_of(table_id)
        seat = seat_of(live, request, data)
        if live.result is None:
            raise Refused(409, "The game is not over yet.")
        seat_row = next(row for row in live.seats if row.seat == seat)
        player = (seat_row.player_id, seat_row.name or "") if seat_row.player_id else None
        if live.row.rematch is None:
            new, _tokens = hub.create(live.row.game, live.row.params, live.kinds, claim=[],
                                      player=None, private=live.row.private,
                                      spectators=live.row.spectators,
                                      turn_seconds=live.row.turn_seconds, rematch_of=live.id)
            if store.set_rematch(live.id, new.id):
                live.row.rematch = new.id
                live.send_all({"type": "rematch", "table": new.id})
                live.broadcast_table()
        assert live.row.rematch is not None
        target = table_of(live.row.rematch)
        outcome = hub.join(target, seat, player,
                           None if player is not None else seat_row.name)
        if isinstance(outcome, str):
            raise Refused(409, outcome)
        return {"table": target.id, "seat": outcome[0], "token": outcome[1]}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> Response:
        live = table_of(table_id)
        if live.row.status != "finished" or live.result is None:
            raise Refused(409, "The record is available once the game is over.")
        text = record_text(live.row.game, live.row.params, live.row.seed, live.kinds,
                           [move for _seat, move in store.moves(live.id)], live.forfeited)
        return PlainTextResponse(text, media_type="application/x-ndjson", headers={
            "content-disposition": f'attachment; filename="{live.row.game}-{live.id}.jsonl"'})

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str) -> dict[str, Any]:
        """Every public view of a finished game, from the deal to the end (a forfeit too),
        with the moves; the last view carries the result, as the table page shows it."""
        live = table_of(table_id)
        if live.row.status != "finished":
            raise Refused(409, "A replay is available once the game is over.")
        moves = store.moves(live.id)
        state = games.new_state(live.row.game, live.row.params, live.row.seed, live.kinds)
        frames = [serialize.public_view(live.row.game, state)]
        for _seat, text in moves:
            state.apply(state.parse_action(text))
            frames.append(serialize.public_view(live.row.game, state))
        result = serialize.result_json(state.result or live.result)
        frames[-1]["result"] = result  # (a forfeit is not in the game's own view)
        return {"table": live.id, "game": live.row.game,
                "moves": [{"seat": seat, "move": move} for seat, move in moves],
                "frames": frames, "result": result}

    @app.post("/api/players")
    async def new_player(request: Request) -> JSONResponse:
        data = await body(request)
        name = display_name(data.get("name"))
        if name is None:
            raise Refused(400, "A name is needed.")
        if store.name_taken(name):
            raise Refused(409, f"The name '{name}' is taken.")
        secret = secrets.token_urlsafe(24)
        if not store.add_player(token_hash(secret), name):
            raise Refused(409, f"The name '{name}' is taken.")
        response = JSONResponse({"name": name}, status_code=201)
        response.set_cookie(PLAYER_COOKIE, secret, max_age=10 * 365 * 86400, httponly=True,
                            samesite="lax")
        return response

    @app.get("/api/players/me")
    async def me(request: Request) -> dict[str, Any]:
        player = player_of(request)
        if player is None:
            raise Refused(404, "No name chosen yet.")
        return {"name": player[1]}

    @app.get("/api/leaderboard/{game}")
    async def leaderboard(game: str) -> dict[str, Any]:
        game_name(game)
        return {"game": game, "players": store.leaderboard(game)}

    # --- the live tables ----------------------------------------------------------------------

    @app.websocket("/api/tables/{table_id}/ws")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        live = hub.get(table_id)
        if live is None:
            await websocket.send_json(error_frame("No such table."))
            await websocket.close(code=4404)
            return
        token = websocket.query_params.get("token")
        seat: str | None = None
        if token:
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
        outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

        def send(frame: dict[str, Any]) -> None:
            if connection.closed:
                return
            if outbox.qsize() >= OUTBOX_LIMIT:
                connection.closed = True
                outbox.put_nowait(None)
                return
            outbox.put_nowait(frame)

        connection = Connection(seat, name, send)

        async def sender() -> None:
            while True:
                frame = await outbox.get()
                if frame is None:
                    with contextlib.suppress(Exception):
                        await websocket.close(code=1008)
                    return
                await websocket.send_text(json.dumps(frame, separators=(",", ":")))

        live.connections.append(connection)
        sending = asyncio.get_running_loop().create_task(sender())
        try:
            send(live.table_frame())
            send({"type": "chat_history", "lines": [_chat_line(line)
                                                    for line in store.chat(live.id)]})
            send(live.state_frame(seat))
            live.broadcast_table()
            await _receive(websocket, live, connection)
        except WebSocketDisconnect:
            pass
        finally:
            connection.closed = True
            with contextlib.suppress(ValueError):
                live.connections.remove(connection)
            # Let queued frames (a last error) go out before the socket closes.
            outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sending, 2)
            sending.cancel()
            live.broadcast_table()

    async def _receive(websocket: WebSocket, live: LiveTable, connection: Connection) -> None:
        flood = Flood(flood_limit)
        send = connection.send
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
                else:
                    refusal = live.submit(connection.seat, move.strip())
                    if refusal is not None:
                        send(error_frame(refusal))
            elif kind == "chat":
                chat_text = data.get("text")
                if not isinstance(chat_text, str):
                    send(error_frame("A chat line is a string."))
                    continue
                cleaned = clean_chat(chat_text)
                if not cleaned:
                    send(error_frame("A chat line cannot be empty."))
                elif len(cleaned) > CHAT_LIMIT:
                    send(error_frame(f"A chat line has at most {CHAT_LIMIT} characters."))
                elif connection.seat is None:
                    send(error_frame("Spectators cannot chat."))
                else:
                    at = time.time()
                    store.add_chat(live.id, connection.seat, connection.name, cleaned, at)
                    live.send_all(_chat_line({"seat": connection.seat, "name": connection.name,
                                              "text": cleaned, "at": at}))
            elif kind == "ping":
                send({"type": "pong"})
            else:
                send(error_frame(f"Unknown message type '{kind[:20]}'."))

    from cardtable.web import pages

    pages.install(app)
    return app


def clean_chat(text: str) -> str:
    """Control characters removed, spaces collapsed at the ends."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " ").strip()


def _chat_line(line: dict[str, Any]) -> dict[str, Any]:
    import html

    return {"type": "chat", "seat": line["seat"], "name": line["name"], "text": line["text"],
            "html": html.escape(line["text"]), "at": line["at"]}
