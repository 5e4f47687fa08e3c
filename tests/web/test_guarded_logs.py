"""The log filter that keeps secrets out of the server's log: a seat's token in a URL, a JSON
field, a header or a logged WebSocket frame, and the server's cookies, whatever the formatter
(uvicorn's access log reads its arguments one by one) and however many filters a line meets."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
from uvicorn.logging import AccessFormatter, DefaultFormatter
from websockets.frames import OP_TEXT, Frame

from cardtable.web.security import RedactSecrets, redact, redact_logs

TOKEN = "q3yWjT0_xkV9aZ1mN8pL4rS6tU2wX5yB"


@pytest.mark.parametrize(("text", "shown"), [
    (f"GET /api/tables/T/ws?token={TOKEN} HTTP/1.1",
     "GET /api/tables/T/ws?token=[redacted] HTTP/1.1"),
    (f"/ws?x=1&TOKEN={TOKEN}&y=2", "/ws?x=1&TOKEN=[redacted]&y=2"),
    (f'{{"type": "hello", "token": "{TOKEN}"}}', '{"type": "hello", "token": "[redacted]"}'),
    (f"Authorization: Bearer {TOKEN}", "Authorization: Bearer [redacted]"),
    (f"cardtable_session={TOKEN}; cardtable_player={TOKEN}",
     "cardtable_session=[redacted]; cardtable_player=[redacted]"),
    ("GET /api/tables?game=caravan HTTP/1.1", "GET /api/tables?game=caravan HTTP/1.1"),
])
def test_secrets_are_redacted_once(text: str, shown: str) -> None:
    assert redact(text) == shown
    assert redact(redact(text)) == shown  # (a logger's filter, then a handler's)


def formatted(record: logging.LogRecord, formatter: logging.Formatter) -> str:
    for _ in range(2):
        assert RedactSecrets().filter(record)
    return formatter.format(record)


def record(msg: str, *args: object, exc: BaseException | None = None) -> logging.LogRecord:
    return logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, msg, args,
                             (type(exc), exc, exc.__traceback__) if exc else None)


def test_the_access_log_keeps_its_shape_without_the_token() -> None:
    line = formatted(record('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET",
                            f"/api/tables/T/ws?token={TOKEN}", "1.1", 200),
                     AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s',
                                     use_colors=False))
    assert line == '127.0.0.1:5000 - "GET /api/tables/T/ws?token=[redacted] HTTP/1.1" 200 OK'


def test_frames_tracebacks_and_odd_arguments_lose_their_secrets() -> None:
    formatter = DefaultFormatter("%(levelprefix)s %(message)s", use_colors=False)
    hello = Frame(OP_TEXT, f'{{"type":"hello","token":"{TOKEN}"}}'.encode())
    long_hello = Frame(OP_TEXT, f'{{"type":"hello","padding":"{"x" * 80}","token":"{TOKEN}"}}'
                       .encode())
    for frame in (hello, long_hello):
        line = formatted(record("< %s", frame), formatter)
        assert TOKEN[-8:] not in line and "TEXT [redacted]" in line
    move = Frame(OP_TEXT, b'{"type":"move","move":"P1A"}')
    assert "P1A" in formatted(record("< %s", move), formatter)
    try:
        raise ValueError(f"bad URL /ws?token={TOKEN}")
    except ValueError as error:
        line = formatted(record("request failed: %s", error, exc=error), formatter)
    assert TOKEN not in line and line.count("token=[redacted]") >= 2
    line = formatted(record("headers: %(cookie)s", {"cookie": f"cardtable_player={TOKEN}"}),
                     formatter)
    assert TOKEN not in line


@pytest.fixture
def clean_loggers() -> Iterator[None]:
    names = ("cardtable.testlog",)
    saved = {name: list(logging.getLogger(name).filters) for name in names}
    last = list(logging.lastResort.filters) if logging.lastResort else []
    yield
    for name, filters in saved.items():
        logging.getLogger(name).filters[:] = filters
        logging.getLogger(name).handlers.clear()
    if logging.lastResort:
        logging.lastResort.filters[:] = last


def test_redact_logs_covers_every_handler_once(clean_loggers: None) -> None:
    logger = logging.getLogger("cardtable.testlog")
    out = io.StringIO()
    logger.addHandler(logging.StreamHandler(out))
    logger.propagate = False
    redact_logs(["cardtable.testlog"])
    redact_logs(["cardtable.testlog"])
    assert sum(isinstance(f, RedactSecrets) for f in logger.handlers[0].filters) == 1
    assert logging.lastResort is not None
    assert any(isinstance(f, RedactSecrets) for f in logging.lastResort.filters)
    logger.warning("joined with ?token=%s", TOKEN)
    assert out.getvalue() == "joined with ?token=[redacted]\n"
