"""The lobby's routes: create a table, list the open ones, look at one, join it, the quick
match and the rematch."""

from __future__ import annotations

import contextlib
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse

from cardtable.web import games, limits, shared_store, table_queries
from cardtable.web.live import LiveTable
from cardtable.web.routes import bodies
from cardtable.web.routes.json_body import JsonBodyRoute
from cardtable.web.routes.refusals import ERROR_RESPONSES, Refused
from cardtable.web.routes.state import Web, WebState
from cardtable.web.store import StoreUnavailable

RESULT_WAIT = 5.0
"""Seconds a table's view waits for a result being stored (the result's own retries wait at
most as long between two tries)."""

router = APIRouter(prefix="/api", tags=["tables"], route_class=JsonBodyRoute,
                   responses=ERROR_RESPONSES)


def seat_of(live: LiveTable, request: Request, token: str | None) -> str:
    """The seat whose token came in the body or as ``Authorization: Bearer TOKEN``."""
    header = request.headers.get("authorization", "")
    if not token and header.lower().startswith("bearer "):
        token = header[7:].strip()
    if not token:
        raise Refused(401, "A seat's token is needed.")
    seat = live.seat_of_token(token)
    if seat is None:
        raise Refused(403, "Unknown token for this table.")
    return seat


@router.post("/tables", status_code=201)
async def create_table(body: bodies.NewTable, request: Request, web: Web) -> JSONResponse:
    """A new table; the tokens of its claimed human seats (each a secret given once)."""
    try:
        params, kinds = games.check_table(body.game, body.params, body.seats,
                                          web.settings.programs)
    except games.TableError as error:
        raise Refused(400, str(error)) from None
    claim = body.claim
    seat_names = list(games.new_state(body.game, params, 0, kinds).seats)
    if claim is not None and (any(seat not in seat_names for seat in claim)
                              or any(kinds[seat_names.index(seat)] != "human"
                                     for seat in claim)):
        raise Refused(400, bodies.CLAIM_MESSAGE)
    client = web.client(request)
    over = web.hub.program_refusal(kinds, client)
    if over is not None:
        raise Refused(429, over)
    limits.spend(web.limiters.create, client, "new tables")
    names = {claim[0]: body.name} if body.name is not None and claim else None
    live, tokens = await web.hub.create_heard(
        body.game, params, kinds, claim=claim, player=web.player(request),
        private=body.private, spectators=body.spectators, turn_seconds=body.turn_seconds,
        names=names, bot_delay=body.bot_delay, client=client)
    return JSONResponse({"table": live.id, "tokens": tokens}, status_code=201)


@router.get("/tables")
async def open_tables(web: Web, game: str | None = None, status: str | None = None,
                      limit: str | None = None, cursor: str | None = None) -> dict[str, Any]:
    """The public tables not finished, a page at a time (``limit``: 1 to 100, default 50),
    the most recently active first (``status``: ``open`` or ``playing``); ``next`` is the
    ``cursor`` of the next page, null on the last. Read on the store's threads; a table this
    server does not hold is summed up from the database, not brought into memory."""
    if game is not None:
        bodies.known_game(game)
    if status not in (None, "open", "playing"):
        raise Refused(400, "'status' is open or playing.")
    try:
        size = table_queries.page_size(limit)
        page = await web.hub.in_store_thread(lambda: table_queries.open_tables(
            web.store.engine, game=game, status=status, limit=size, cursor=cursor))
    except table_queries.PageError as error:
        raise Refused(400, str(error)) from None
    held = {table_id: live.summary() for table_id, _activity in page.tables
            if (live := web.hub.tables.get(table_id)) is not None}
    missing = [table_id for table_id, _activity in page.tables if table_id not in held]
    if missing:
        held.update(await web.hub.in_store_thread(lambda: web.hub.stored_summaries(missing)))
    listed = [{**held[table_id], "activity": activity} for table_id, activity in page.tables
              if table_id in held]
    return {"tables": listed, "next": page.next}


@router.get("/tables/{table_id}")
async def table_view(table_id: str, web: Web) -> dict[str, Any]:
    """A table's summary, its public view and its turn's deadline. A game over whose result is
    being stored is shown once it is (its last position may name the result): after a moment,
    or 503 as when the database does not answer."""
    live = web.table(table_id)
    if not await live.until(lambda: not live.result_pending, RESULT_WAIT):
        raise StoreUnavailable(f"the result of table {table_id} is not stored yet")
    frame = live.state_frame(None)
    return {**live.summary(), "observation": frame["observation"], "deadline": live.deadline}


@router.post("/tables/{table_id}/join")
async def join(table_id: str, request: Request, web: Web,
               body: Annotated[bodies.JoinTable, Body(default_factory=bodies.JoinTable)]
               ) -> dict[str, Any]:
    """A free seat of the table and its token."""
    live = web.table(table_id)
    limits.spend(web.limiters.join, web.client(request), "seats taken")
    outcome = web.hub.join(live, body.seat, web.player(request), body.name)
    if isinstance(outcome, str):
        raise Refused(409, outcome)
    return {"table": live.id, "seat": outcome[0], "token": outcome[1]}


@router.post("/quick")
async def quick(body: bodies.QuickMatch, request: Request, web: Web) -> dict[str, Any]:
    """A seat opposite people waiting for a game: at the public table of the game that has
    waited longest whose people are all here now (or asked for a quick match a moment ago and
    are on their way), else at a new quick-match table (people only, with a turn timer) where
    the next person to ask finds this one. Servers sharing a database pair their people with
    each other's, one quick match of a game at a time."""
    hub, game, name = web.hub, body.game, body.name
    limits.spend(web.limiters.join, web.client(request), "seats taken")
    player = web.player(request)
    with one_at_a_time(web, f"quick:{game}"):
        for live in hub.pairable_tables(game, player):
            outcome = hub.join(live, None, player, name)
            if not isinstance(outcome, str):
                return {"table": live.id, "seat": outcome[0], "token": outcome[1]}
        params, kinds = games.check_table(game, games.quick_params(game),
                                          games.quick_seats(game))
        seat_names = list(games.new_state(game, params, 0, kinds).seats)
        live, tokens = hub.create(game, params, kinds, claim=[seat_names[0]], player=player,
                                  private=False, spectators=True,
                                  turn_seconds=hub.policy.quick_turn_seconds,
                                  names=None if name is None else {seat_names[0]: name},
                                  quick=True)
    return {"table": live.id, "seat": seat_names[0], "token": tokens[seat_names[0]]}


@router.post("/tables/{table_id}/rematch")
async def rematch(table_id: str, request: Request, web: Web,
                  body: Annotated[bodies.Rematch, Body(default_factory=bodies.Rematch)]
                  ) -> dict[str, Any]:
    """A new table with the same game, rules and seats; each player who asks takes their
    own seat in it (the first one creates it, on whichever server they ask)."""
    hub = web.hub
    live = web.table(table_id)
    seat = seat_of(live, request, body.token)
    limits.spend(web.limiters.join, web.client(request), "seats taken")
    if live.result is None:
        raise Refused(409, "The game is not over yet.")
    seat_row = next(row for row in live.seats if row.seat == seat)
    player = (seat_row.player_id, seat_row.name or "") if seat_row.player_id else None
    if live.row.rematch is None:
        with one_at_a_time(web, f"rematch:{live.id}"):
            linked = linked_rematch(web, live.id)  # (another server may have made it)
            if linked is None:
                client = web.client(request)
                over = hub.program_refusal(live.kinds, client)
                if over is not None:
                    raise Refused(429, over)
                new, _tokens = hub.create(live.row.game, live.row.params, live.kinds,
                                          claim=[], player=None, private=live.row.private,
                                          spectators=live.row.spectators,
                                          turn_seconds=live.row.turn_seconds,
                                          rematch_of=live.id, bot_delay=live.row.bot_delay,
                                          client=client)
                linked = new.id if web.store.set_rematch(live.id, new.id) \
                    else linked_rematch(web, live.id)
        if live.row.rematch is None and linked is not None:
            live.row.rematch = linked
            live.send_all({"type": "rematch", "table": linked})
            live.broadcast_table()
    if live.row.rematch is None:
        raise Refused(409, "The rematch could not be made; try again.")
    target = web.table(live.row.rematch)
    outcome = hub.join(target, seat, player, None if player is not None else seat_row.name)
    if isinstance(outcome, str):
        raise Refused(409, outcome)
    return {"table": target.id, "seat": outcome[0], "token": outcome[1]}


def linked_rematch(web: WebState, table_id: str) -> str | None:
    """The rematch of ``table_id`` as the database has it."""
    row = web.store.table(table_id)
    return None if row is None else row.rematch


def one_at_a_time(web: WebState, key: str) -> contextlib.AbstractContextManager[None]:
    """The block run by one server at a time for ``key`` when servers share the database (a
    lock in it: a quick match or rematch racing on another server waits for this one). One
    server alone needs no lock: the block never waits for anything, so nothing else of the
    server runs meanwhile."""
    if shared_store.shared_cluster(web.store) is None:
        return contextlib.nullcontext()
    return shared_store.exclusive(web.store, key)
