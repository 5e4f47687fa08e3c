"""What guards the server against the web at large: cookies, headers, request checks, logs.

- :func:`set_cookie` / :func:`delete_cookie`: every cookie the server sets is ``HttpOnly``,
  ``SameSite=Lax``, for the whole site, and ``Secure`` when the request came over HTTPS (behind
  a TLS proxy, ``cardtable serve --behind-proxy`` makes the forwarded scheme the request's).
- :class:`Guard`, the outermost middleware (``create_app`` installs it):
  every response carries the security headers (a Content-Security-Policy that allows the
  server's own scripts, styles and connections and nothing inline, no framing, no MIME
  sniffing, the referrer kept to the site); a request that changes something (``POST``,
  ``PUT``, ``PATCH``, ``DELETE``) and a WebSocket handshake are refused (403) when their
  ``Origin`` is another site's, and such a request with a body that is not
  ``application/json`` is refused (415): a page of another site can make neither; ``HEAD``
  answers wherever ``GET`` does, without the body.
- :class:`RedactSecrets`: a logging filter that removes seat tokens (``token=…`` in a URL,
  ``"token": "…"``, ``Bearer …``) from log lines; ``cardtable serve`` puts it on every
  handler, so no token reaches the server's log at any level.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("cardtable.web")


def is_https(connection: HTTPConnection) -> bool:
    """Whether the request came over TLS (``https``, or ``wss`` for a WebSocket): as the
    server saw it, or as a trusted proxy forwarded it (``X-Forwarded-Proto``)."""
    return connection.url.scheme in ("https", "wss")


def set_cookie(response: Response, request: HTTPConnection, name: str, value: str,
               max_age: int) -> None:
    """Set the cookie ``name`` on ``response`` for ``max_age`` seconds: out of scripts' reach
    (``HttpOnly``), not sent with other sites' requests (``SameSite=Lax``), and ``Secure``
    when ``request`` came over HTTPS (a browser would drop a Secure cookie set over HTTP)."""
    response.set_cookie(name, value, max_age=max_age, path="/", httponly=True,
                        samesite="lax", secure=is_https(request))


def delete_cookie(response: Response, request: HTTPConnection, name: str) -> None:
    """Remove the cookie ``name`` (set by :func:`set_cookie`) from the browser."""
    response.delete_cookie(name, path="/", httponly=True, samesite="lax",
                           secure=is_https(request))


PAGE_POLICY = "; ".join((
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
    "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'",
    "form-action 'self'", "frame-ancestors 'none'"))
"""A page's Content-Security-Policy: scripts, styles and connections (the WebSocket
included: ``'self'`` covers ``ws:``/``wss:`` of the same host) from the server only, nothing
inline (no ``<script>`` body, no ``on…=`` attribute, no ``style=`` attribute), images from the
server or ``data:``, never inside another site's frame."""
OTHER_POLICY = "default-src 'none'; frame-ancestors 'none'"
"""The policy of everything that is not a page (JSON, scripts, styles): it loads nothing."""
HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
"""Headers on every response, besides the Content-Security-Policy."""

CHANGING_METHODS = frozenset(("POST", "PUT", "PATCH", "DELETE"))
NOT_JSON = "The request body must be JSON, sent with Content-Type: application/json."
DEFAULT_PORTS = {"http": 80, "https": 443}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _address(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin's parts, the port made explicit; None when the
    address is not one."""
    try:
        parts = urlsplit(f"//{netloc}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or scheme not in DEFAULT_PORTS:
        return None
    return scheme, parts.hostname, port if port is not None else DEFAULT_PORTS[scheme]


def foreign_origin(scope: Scope) -> str | None:
    """The request's ``Origin`` when it is not the server's own (its scheme, as a trusted
    proxy forwarded it, and its ``Host``), else None (no ``Origin``: not a browser's request
    from a page, or a same-origin one)."""
    origin = _header(scope, b"origin")
    if origin is None:
        return None
    scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
    own = _address(scheme, _header(scope, b"host") or "")
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return origin
    theirs = _address(parts.scheme.lower(), parts.netloc)
    return None if own is not None and theirs == own else origin


def json_refusal(scope: Scope) -> str | None:
    """Why a request's body is not acceptable JSON by its headers, else None: a body must say
    ``Content-Type: application/json``; a request without a body needs no type."""
    content_type = _header(scope, b"content-type")
    if content_type is None:
        length = _header(scope, b"content-length")
        no_body = (length is None or length.strip() == "0") \
            and _header(scope, b"transfer-encoding") is None
        return None if no_body else NOT_JSON
    media = content_type.split(";", 1)[0].strip().lower()
    return None if media == "application/json" else NOT_JSON


def _with_headers(message: Message) -> Message:
    headers = list(message.get("headers", ()))
    present = {bytes(key).lower() for key, _value in headers}
    content_type = next((bytes(value) for key, value in headers
                         if bytes(key).lower() == b"content-type"), b"")
    policy = PAGE_POLICY if content_type.startswith(b"text/html") else OTHER_POLICY
    for key, value in (*HEADERS, (b"content-security-policy", policy.encode())):
        if key not in present:  # (a route's own choice stands)
            headers.append((key, value))
    return {**message, "headers": headers}


def _refusal(message: str, status: int) -> Response:
    # A message may quote the request (its Origin): keep it one printable line.
    shown = message.encode("utf-8", "replace").decode("utf-8")
    return JSONResponse({"error": " ".join(shown.split())[:300]}, status_code=status)


def cross_site_message(origin: str) -> str:
    return f"Refused: the request comes from another site ({origin[:80]})."


class Guard:
    """The middleware of :mod:`cardtable.web.security` (see the module's text)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            origin = foreign_origin(scope)
            if origin is None:
                await self.app(scope, receive, send)
            else:
                await self._refuse_socket(send, origin)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        head = scope["method"] == "HEAD"

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = _with_headers(message)
            elif head and message["type"] == "http.response.body":
                # HEAD answers as GET would, headers (Content-Length too) without the body.
                message = {**message, "body": b""}
            await send(message)

        if scope["method"] in CHANGING_METHODS:
            origin = foreign_origin(scope)
            refusal = None
            if origin is not None:
                log.info("refused a %s request from another site (Origin %s, Host %s)",
                         scope["method"], origin[:80], (_header(scope, b"host") or "")[:80])
                refusal = _refusal(cross_site_message(origin), 403)
            elif (problem := json_refusal(scope)) is not None:
                refusal = _refusal(problem, 415)
            if refusal is not None:
                await refusal(scope, receive, send_guarded)
                return
        await self.app({**scope, "method": "GET"} if head else scope, receive, send_guarded)

    async def _refuse_socket(self, send: Send, origin: str) -> None:
        log.info("refused a WebSocket from another site (Origin %s)", origin[:80])
        # Closed before it is accepted: the handshake's answer is HTTP 403. (A body with it,
        # the denial-response extension, makes uvicorn log an error for each one.)
        await send({"type": "websocket.close", "code": 1008})


REDACTED = "[redacted]"
_NOT_DONE = r"(?!\[redacted\])"  # (a line goes through a logger's and a handler's filter)
SECRET_PATTERNS = (
    re.compile(r"(token=)" + _NOT_DONE + r"[^&\s\"'#;,)\]]+", re.IGNORECASE),
    re.compile(r"(\"token\"\s*:\s*\")" + _NOT_DONE + r"[^\"]*", re.IGNORECASE),
    re.compile(r"(bearer\s+)" + _NOT_DONE + r"[^\s\"',;]+", re.IGNORECASE),
    re.compile(r"(cardtable_[a-z]+=)" + _NOT_DONE + r"[^;\s\"',]+", re.IGNORECASE),
)
"""A seat's token in a URL's query, in a JSON field or an ``Authorization`` header, and the
value of the server's cookies (a guest's or a session's secret)."""
FRAME = re.compile(r"^(TEXT|CONT) .* (\[[^\]]*\])$", re.DOTALL)
"""A WebSocket frame as the ``websockets`` library logs it at debug level (its text cut to 75
characters: a token's key may be cut off while its value shows)."""


def redact(text: str) -> str:
    """``text`` without the secrets a request may carry (a seat's token in a URL, a JSON
    field or an ``Authorization`` header, the server's cookies); a logged WebSocket frame that
    says ``hello`` or ``token`` loses its text."""
    frame = FRAME.match(text)
    if frame is not None and re.search("hello|token", text, re.IGNORECASE):
        return f"{frame.group(1)} {REDACTED} {frame.group(2)}"
    for pattern in SECRET_PATTERNS:
        text = pattern.sub(lambda found: found.group(1) + REDACTED, text)
    return text


def _redacted(value: Any) -> Any:
    """An argument of a log record without secrets: numbers as they are (for ``%d``), other
    values as their redacted text when it differs."""
    if value is None or isinstance(value, (int, float)):
        return value
    text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
    cleaned = redact(text)
    return value if cleaned == text and not isinstance(value, bytes) else cleaned


class RedactSecrets(logging.Filter):
    """A filter (for a handler or a logger) that redacts a record's arguments one by one
    (formatters such as uvicorn's access log read them so), then its whole message if a
    secret still shows (a ``token=%s`` given the bare token), its traceback and its stack: a
    seat's token never reaches a log line."""

    _formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _redacted(arg) for key, arg in record.args.items()}
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # (logging reports a bad format itself)
            message = None
        if message is not None and (cleaned := redact(message)) != message:
            # The template's placeholders may be what the secret filled: keep the text only.
            record.msg, record.args = cleaned, None
            record.__dict__.pop("color_message", None)
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def redact_logs(logger_names: Iterable[str]) -> None:
    """Put :class:`RedactSecrets` on the named loggers, on every handler they and the root
    logger have, and on the handler of last resort (what logs without a handler reach)."""
    loggers = [logging.getLogger(), *(logging.getLogger(name) for name in logger_names)]
    handlers: list[logging.Handler] = [handler for logger in loggers
                                       for handler in logger.handlers]
    if logging.lastResort is not None:
        handlers.append(logging.lastResort)
    for target in (*loggers, *handlers):
        if not any(isinstance(each, RedactSecrets) for each in target.filters):
            target.addFilter(RedactSecrets())
