"""Reading a request's JSON body, for FastAPI to validate against the route's body model.

The API's routes use :class:`JsonBodyRoute`, whose requests read their body the API's way: at
most :data:`MAX_BODY_BYTES` (413 beyond, without reading the rest when ``Content-Length`` says
so), JSON (a body sent as anything but ``application/json`` was refused with 415 before it
came here: see :mod:`cardtable.web.security`), an empty body being ``{}``, and one message for
what is not a JSON object: malformed JSON, another JSON value, or a string holding a lone
surrogate (``"\\ud800"``: no text, and nothing can be stored or answered with it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.routing import APIRoute
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import Response

from cardtable.web.routes.refusals import Refused

MAX_BODY_BYTES = 16384


class JsonBodyRequest(Request):
    """A request whose body is read with the API's limit and parsed as the API parses it."""

    @property
    def headers(self) -> Headers:
        # FastAPI parses JSON only when the Content-Type says so; a request without a body
        # need not say it, and its empty body is read as the empty object.
        if not hasattr(self, "_json_headers"):
            headers = MutableHeaders(raw=list(super().headers.raw))
            headers["content-type"] = "application/json"
            self._json_headers = Headers(raw=headers.raw)
        return self._json_headers

    async def body(self) -> bytes:
        if not hasattr(self, "_body"):
            too_large = Refused(413, f"Request body over {MAX_BODY_BYTES} bytes.")
            length = super().headers.get("content-length", "")
            if length.isdigit() and int(length) > MAX_BODY_BYTES:
                raise too_large
            chunks: list[bytes] = []
            size = 0
            async for chunk in self.stream():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    raise too_large
                chunks.append(chunk)
            data = b"".join(chunks)
            self._body = data if data.strip() else b"{}"
        return self._body

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_object(await self.body())
        return self._json


def parse_object(data: bytes) -> dict[str, Any]:
    """The JSON object ``data`` holds, or a 400 :class:`Refused` saying what is wrong."""
    try:
        parsed = json.loads(data)
    except (ValueError, RecursionError):
        raise Refused(400, "Malformed JSON.") from None
    if not isinstance(parsed, dict):
        raise Refused(400, "The request body must be a JSON object.")
    try:
        json.dumps(parsed, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(400, "Malformed JSON: a string holds a lone surrogate.") from None
    except (ValueError, RecursionError):  # pragma: no cover - what json.loads gives dumps
        raise Refused(400, "Malformed JSON.") from None
    return parsed


class JsonBodyRoute(APIRoute):
    """An API route: its handler sees a :class:`JsonBodyRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def read_json_body(request: Request) -> Response:
            return await handler(JsonBodyRequest(request.scope, request.receive))

        return read_json_body
