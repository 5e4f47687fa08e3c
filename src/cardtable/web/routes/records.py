"""The record and the replay of a finished game."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse, Response

from cardtable.web import games, serialize
from cardtable.web.record import record_text
from cardtable.web.routes.refusals import ERROR_RESPONSES, Refused
from cardtable.web.routes.state import Web

router = APIRouter(prefix="/api", tags=["records"], responses=ERROR_RESPONSES)


@router.get("/tables/{table_id}/record", response_class=PlainTextResponse)
async def record(table_id: str, web: Web) -> Response:
    """The game's record, JSON lines (the format of every record, docs/engine.md)."""
    live = web.table(table_id)
    if live.row.status != "finished" or live.result is None:
        raise Refused(409, "The record is available once the game is over.")
    text = record_text(live.row.game, live.row.params, live.row.seed, live.kinds,
                       [move for _seat, move in web.store.moves(live.id)], live.forfeited)
    return PlainTextResponse(text, media_type="application/x-ndjson", headers={
        "content-disposition": f'attachment; filename="{live.row.game}-{live.id}.jsonl"'})


@router.get("/tables/{table_id}/replay")
async def replay(table_id: str, web: Web) -> dict[str, Any]:
    """Every public view of a finished game, from the deal to the end (a forfeit too),
    with the moves; the last view carries the result, as the table page shows it."""
    live = web.table(table_id)
    if live.row.status != "finished":
        raise Refused(409, "A replay is available once the game is over.")
    moves = web.store.moves(live.id)
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
