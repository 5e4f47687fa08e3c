"""Accounts: sign up, sign in and out, and a person's page (its JSON and its HTML).

``router`` is the JSON API (``/api/accounts``, ``/api/session``, ``/api/people/{name}``);
``pages_router`` the pages ``/account`` (the forms) and ``/people/{name}``. A session lives in
the cookie ``cardtable_session`` (``HttpOnly``, ``SameSite=Lax``, ``Secure`` over HTTPS); no
password or session secret is ever part of a response or a log line.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, ClassVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import Field

from cardtable.web import people, person_page
from cardtable.web.accounts import (
    MAX_PASSWORD,
    MIN_PASSWORD,
    PASSWORD_MESSAGE,
    SESSION_COOKIE,
    SESSION_SECONDS,
    AccountError,
    Player,
)
from cardtable.web.limits import client_key, retry_after
from cardtable.web.routes.bodies import NAME_MESSAGE, Body, DisplayName, Message
from cardtable.web.routes.json_body import JsonBodyRoute
from cardtable.web.routes.refusals import ERROR_RESPONSES, Refused
from cardtable.web.routes.state import PLAYER_COOKIE, Web
from cardtable.web.security import delete_cookie, set_cookie

router = APIRouter(prefix="/api", tags=["accounts"], route_class=JsonBodyRoute,
                   responses=ERROR_RESPONSES)
pages_router = APIRouter(include_in_schema=False)

MAX_PAGE = 10_000

Page = Annotated[int, Query(ge=1, le=MAX_PAGE, description="Which page of games (1: the "
                                                            "newest).")]


class SignUp(Body):
    """`POST /api/accounts`: a new account (and its first session)."""

    messages: ClassVar[dict[str, Message]] = {
        "name.missing": "A name is needed.", "name": NAME_MESSAGE,
        "password.missing": "A password is needed.", "password": PASSWORD_MESSAGE}

    name: DisplayName
    password: str = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD,
                          json_schema_extra={"format": "password", "writeOnly": True})


class SignIn(Body):
    """`POST /api/session`: sign in to an account."""

    messages: ClassVar[dict[str, Message]] = {
        "name.missing": "A name is needed.", "name": "'name' must be text.",
        "password.missing": "A password is needed.", "password": "'password' must be text."}

    name: str
    password: str = Field(json_schema_extra={"format": "password", "writeOnly": True})


def me_json(player: Player | None) -> dict[str, Any]:
    """What ``GET /api/players/me`` answers for ``player`` (None: nobody yet)."""
    if player is None:
        return {"name": None, "account": False}
    return {"name": player.name, "account": player.account}


def address(request: Request) -> str:
    """Who sign-ins and sign-ups count against: the address (a cookie is the client's to
    drop)."""
    return client_key(None, request.client.host if request.client is not None else None)


def refused(error: AccountError) -> Refused:
    answer = Refused(error.status, error.message)
    if error.status == 429:
        answer.headers = {"Retry-After": str(retry_after(error.retry))}
    return answer


@router.post("/accounts", status_code=201)
async def sign_up(body: SignUp, request: Request, web: Web) -> JSONResponse:
    """A new account: a name (a guest's own name, in the guest's browser: the guest becomes the
    account and keeps their games) and a password of 8 to 200 characters. Signs in: sets the
    cookie ``cardtable_session``. 409 when the name is taken."""
    guest = web.guest_id(request)
    try:
        # Hashing a password is work for a thread, not for the event loop.
        session = await asyncio.to_thread(web.accounts.sign_up, body.name, body.password,
                                          address(request), guest)
    except AccountError as error:
        raise refused(error) from None
    web.accounts.sign_out(request.cookies.get(SESSION_COOKIE))  # (the one it replaces)
    response = JSONResponse(me_json(session.player), status_code=201)
    set_cookie(response, request, SESSION_COOKIE, session.secret, SESSION_SECONDS)
    if session.player.id == guest:  # the guest's cookie names an account now
        delete_cookie(response, request, PLAYER_COOKIE)
    return response


@router.post("/session")
async def sign_in(body: SignIn, request: Request, web: Web) -> JSONResponse:
    """Sign in: sets the cookie ``cardtable_session`` (30 days). A wrong password and an
    unknown name get the same 401; too many attempts (per address, per name) a 429."""
    try:
        session = await asyncio.to_thread(web.accounts.sign_in, body.name, body.password,
                                          address(request))
    except AccountError as error:
        raise refused(error) from None
    web.accounts.sign_out(request.cookies.get(SESSION_COOKIE))  # (the one it replaces)
    response = JSONResponse(me_json(session.player))
    set_cookie(response, request, SESSION_COOKIE, session.secret, SESSION_SECONDS)
    return response


@router.delete("/session")
async def sign_out(request: Request, web: Web) -> JSONResponse:
    """Sign out: the session ends (on the server too) and its cookie goes. Answers who the
    browser is now (its guest, if any)."""
    web.accounts.sign_out(request.cookies.get(SESSION_COOKIE))
    response = JSONResponse(me_json(web.guest(request)))
    delete_cookie(response, request, SESSION_COOKIE)
    return response


@router.get("/people/{name}")
async def person(name: str, web: Web, page: Page = 1) -> dict[str, Any]:
    """A person's page: their finished public games (newest first, 20 a page; each with its
    replay), ratings per game (accounts only) and rating history."""
    found = people.person(web.store, name, page)
    if found is None:
        raise Refused(404, f"No player named '{name[:40]}'.")
    return found


@pages_router.get("/account", response_class=HTMLResponse)
def account_page() -> HTMLResponse:
    return person_page.account_page()


@pages_router.get("/people/{name}", response_class=HTMLResponse)
def person_html(name: str, request: Request, web: Web) -> HTMLResponse:
    raw = request.query_params.get("page", "1")
    page = int(raw) if raw.isascii() and raw.isdigit() and 1 <= int(raw) <= MAX_PAGE else 1
    found = people.person(web.store, name, page)
    if found is None:
        return person_page.missing(name)
    return person_page.person_html(found)

