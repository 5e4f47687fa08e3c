"""Every refusal of the HTTP API is ``{"error": MESSAGE}``: one line, with a 4xx status.

``install(app)`` adds the exception handlers: :class:`Refused` and HTTP errors (a 404 route, a
405 method) answer their own status and message, a body that fails its model answers 400 with
the model's message, a database that does not answer (even after the store's retry) answers
503 ``{"error": "The database is not answering; try again in a moment."}``, and anything
unexpected is logged and answers 500 ``{"error": "Internal error."}`` (never a traceback).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from cardtable.web.store import StoreUnavailable, transient

log = logging.getLogger("cardtable.web")

DATABASE_AWAY = "The database is not answering; try again in a moment."
"""The 503 refusal of any request that needed the database while it was away."""
RETRY_AFTER = 5
"""Seconds a client is asked to wait before it asks again after that refusal."""
REFUSED = "refused"
"""The Pydantic error type of a body model's refusals: its message is the API's message."""


class Refused(HTTPException):
    """A request the API refuses: ``status`` and the one-line ``message`` the client gets.

    An ``HTTPException``, so that a refusal raised while FastAPI reads a body (too large,
    malformed) reaches the handler as it is."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(status, message)
        self.status = status
        self.message = message


class ApiError(BaseModel):
    """Every refusal's body."""

    error: str


ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    "4XX": {"model": ApiError, "description": "Refused: one line saying why."}}
"""What the OpenAPI document says of refusals (instead of FastAPI's own 422 shape)."""


def error_response(message: str, status: int) -> JSONResponse:
    # A message may quote the request; a lone surrogate in it cannot be encoded as UTF-8.
    shown = message.encode("utf-8", "replace").decode("utf-8")
    return JSONResponse({"error": shown}, status_code=status)


def validation_message(error: RequestValidationError) -> str:
    """The message of a request FastAPI refused before its handler ran: a body model's own
    message, else (a path or query parameter) ``Invalid request.``."""
    for detail in error.errors():
        if detail.get("type") == REFUSED:
            return str(detail.get("msg"))
    return "Invalid request."


def install(app: FastAPI) -> None:
    """Answer every refusal of ``app`` as ``{"error": MESSAGE}``."""

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, error: HTTPException) -> JSONResponse:
        response = error_response(str(error.detail), error.status_code)
        response.headers.update(error.headers or {})  # (a 429's Retry-After)
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return error_response(validation_message(error), 400)

    @app.exception_handler(StoreUnavailable)
    async def database_away(_request: Request, error: Exception) -> JSONResponse:
        log.warning("request refused: %s", error)
        response = error_response(DATABASE_AWAY, 503)
        response.headers["Retry-After"] = str(RETRY_AFTER)
        return response

    @app.exception_handler(SQLAlchemyError)
    async def database_error(request: Request, error: Exception) -> JSONResponse:
        # A query made outside the store's calls (no retry of its own) meeting the same.
        if transient(error):
            return await database_away(request, error)
        log.error("request failed: %s", error, exc_info=error)
        return error_response("Internal error.", 500)

    @app.exception_handler(Exception)
    async def crashed(_request: Request, error: Exception) -> JSONResponse:
        log.error("request failed: %s", error, exc_info=error)
        return error_response("Internal error.", 500)
