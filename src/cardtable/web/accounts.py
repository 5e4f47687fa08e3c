"""Accounts: a name with a password, and the sessions of those signed in.

A player (a row of ``players``) is a *guest* (no password: a cookie names them in one browser)
or an *account* (``password_hash`` set: an Argon2id hash made by argon2-cffi). Signing up or in
opens a *session*: a random secret in the browser's cookie ``cardtable_session``, stored only
as its SHA-256 (the row's id) with an expiry. Names are one namespace for guests and accounts;
a guest who signs up under their own name in the same browser (the guest's cookie comes with
the request) becomes that account and keeps their games.

Nothing here logs or returns a password or a session secret. Signing in with an unknown name
and with a wrong password give the same answer after the same work (an unknown name is checked
against a dummy hash), and attempts are limited per client address and per name.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from cardtable.web import schema
from cardtable.web.limits import Rate, RateLimiter, wait_message
from cardtable.web.store import Store, token_hash

SESSION_COOKIE = "cardtable_session"
SESSION_SECONDS = 30 * 86400
"""How long a session lasts after signing in."""
MAX_SECRET_CHARS = 100
"""A session cookie longer than this is no cookie the server gave (they are 43 characters)."""
MIN_PASSWORD = 8
MAX_PASSWORD = 200
PASSWORD_MESSAGE = f"A password is {MIN_PASSWORD} to {MAX_PASSWORD} characters."
WRONG = "Wrong name or password."
MAX_NAME_KEY = 40
"""Sign-in attempts are counted per name, cut to this length (a name has at most 20
characters): a flood of long made-up names cannot fill the memory."""
NAME_SIGN_IN_RATE = Rate(10, 900)
"""Sign-in attempts per name (whoever makes them): 10 within 15 minutes."""
SIGN_UP_RATE = Rate(10, 3600)
"""Sign-ups per client address (each one hashes a password and takes a name)."""

Clock = Callable[[], float]


class AccountError(Exception):
    """A refused sign-up or sign-in: ``status`` (an HTTP status) and a one-line message;
    ``retry`` the seconds to wait when it is over a limit (429)."""

    def __init__(self, status: int, message: str, retry: float = 0.0) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry = retry


def too_many(what: str, seconds: float) -> AccountError:
    return AccountError(429, wait_message(what, seconds), seconds)


@dataclass(frozen=True)
class Player:
    """A named player: ``account`` True when it has a password."""

    id: str
    name: str
    account: bool


@dataclass(frozen=True)
class Session:
    """A session just opened: the player, and the secret for the browser's cookie only."""

    player: Player
    secret: str
    expires: float


class Accounts:
    """Sign-up, sign-in and sessions on ``store``'s database.

    ``clock`` gives the time of sessions and of the limits per name and on sign-ups (a test
    moves it); ``client_limit`` counts sign-in attempts per client address (the server's
    ``signin`` rate limit; none when None); ``hasher`` hashes passwords (its parameters are
    the server's: a stored hash made with others is rehashed at the next sign-in)."""

    def __init__(self, store: Store, hasher: PasswordHasher | None = None,
                 clock: Clock = time.time, client_limit: RateLimiter | None = None) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        self.clock = clock
        self.client_limit = RateLimiter(None) if client_limit is None else client_limit
        self.name_limit = RateLimiter(NAME_SIGN_IN_RATE, self.now)
        self.sign_up_limit = RateLimiter(SIGN_UP_RATE, self.now)
        self._dummy: tuple[PasswordHasher, str] | None = None

    def now(self) -> float:
        return self.clock()

    # --- players ------------------------------------------------------------------------------

    def player(self, player_id: str) -> Player | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(select(schema.players.c.name, schema.players.c.password_hash)
                               .where(schema.players.c.id == player_id)).first()
        return None if row is None else Player(player_id, row.name, row.password_hash is not None)

    def by_name(self, name: str) -> tuple[Player, str | None] | None:
        """The player named ``name`` (any case) and their password hash."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(schema.players)
                               .where(func.lower(schema.players.c.name) == name.lower())).first()
        if row is None:
            return None
        return Player(row.id, row.name, row.password_hash is not None), row.password_hash

    # --- sign-up and sign-in ------------------------------------------------------------------

    def sign_up(self, name: str, password: str, client: str,
                guest_id: str | None = None) -> Session:
        """A new account (or the guest ``guest_id`` made an account, when it holds ``name``)
        and its first session."""
        check_password(password)
        wait = self.sign_up_limit.wait(client)
        if wait:
            raise too_many("sign-ups", wait)
        found = self.by_name(name)
        if found is not None and not (found[0].id == guest_id and not found[0].account):
            raise AccountError(409, f"The name '{name}' is taken.")
        self.sign_up_limit.take(client)
        hashed = self.hasher.hash(password)
        if found is not None:
            player = Player(found[0].id, found[0].name, True)
            with self.store.engine.begin() as conn:
                done = conn.execute(update(schema.players)
                                    .where(schema.players.c.id == player.id,
                                           schema.players.c.password_hash.is_(None))
                                    .values(password_hash=hashed))
            if not done.rowcount:
                raise AccountError(409, f"The name '{name}' is taken.")
        else:
            player = Player(token_hash(secrets.token_urlsafe(24)), name, True)
            try:
                with self.store.engine.begin() as conn:
                    conn.execute(insert(schema.players).values(
                        id=player.id, name=name, created=self.now(), password_hash=hashed))
            except IntegrityError:
                raise AccountError(409, f"The name '{name}' is taken.") from None
        return self.open_session(player)

    def sign_in(self, name: str, password: str, client: str) -> Session:
        """A new session for the account ``name`` when ``password`` is its password."""
        # Every attempt counts, right or wrong: a success must not reset a count that an
        # attacker's own account could then reset between guesses.
        key = name.strip().lower()[:MAX_NAME_KEY]
        wait = max(self.name_limit.wait(key), self.client_limit.wait(client))
        if wait:
            raise too_many("sign-in attempts", wait)
        self.name_limit.take(key)
        self.client_limit.take(client)
        found = self.by_name(name.strip())
        player, hashed = found if found is not None else (None, None)
        if player is None or hashed is None:
            self.verify(self.dummy_hash(), password)  # the same work as a wrong password
            raise AccountError(401, WRONG)
        if not self.verify(hashed, password):
            raise AccountError(401, WRONG)
        if self.needs_rehash(hashed):
            with self.store.engine.begin() as conn:
                conn.execute(update(schema.players).where(schema.players.c.id == player.id)
                             .values(password_hash=self.hasher.hash(password)))
        return self.open_session(player)

    def verify(self, hashed: str, password: str) -> bool:
        if len(password) > MAX_PASSWORD:
            return False
        try:
            return self.hasher.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, hashed: str) -> bool:
        try:
            return self.hasher.check_needs_rehash(hashed)
        except InvalidHashError:
            return True

    def dummy_hash(self) -> str:
        """A hash of a random password with the server's parameters, made once."""
        if self._dummy is None or self._dummy[0] is not self.hasher:
            self._dummy = (self.hasher, self.hasher.hash(secrets.token_urlsafe(16)))
        return self._dummy[1]

    # --- sessions -----------------------------------------------------------------------------

    def open_session(self, player: Player) -> Session:
        secret = secrets.token_urlsafe(32)
        now = self.now()
        expires = now + SESSION_SECONDS
        with self.store.engine.begin() as conn:
            # Sessions past their expiry go whenever a new one opens.
            conn.execute(delete(schema.sessions).where(schema.sessions.c.expires <= now))
            conn.execute(insert(schema.sessions).values(
                id=token_hash(secret), player_id=player.id, created=now, expires=expires))
        return Session(player, secret, expires)

    def session_player(self, secret: str | None) -> Player | None:
        """The account whose unexpired session has this secret."""
        if not secret or len(secret) > MAX_SECRET_CHARS:
            return None
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(schema.players.c.id, schema.players.c.name)
                .join(schema.sessions, schema.sessions.c.player_id == schema.players.c.id)
                .where(schema.sessions.c.id == token_hash(secret),
                       schema.sessions.c.expires > self.now())).first()
        return None if row is None else Player(row.id, row.name, True)

    def sign_out(self, secret: str | None) -> None:
        """End the session with this secret (nothing when there is none)."""
        if not secret or len(secret) > MAX_SECRET_CHARS:
            return
        with self.store.engine.begin() as conn:
            conn.execute(delete(schema.sessions)
                         .where(schema.sessions.c.id == token_hash(secret)))


def accounts_among(store: Store, player_ids: Sequence[str]) -> set[str]:
    """Which of ``player_ids`` are accounts."""
    if not player_ids:
        return set()
    with store.engine.connect() as conn:
        rows = conn.execute(select(schema.players.c.id)
                            .where(schema.players.c.id.in_(list(player_ids)),
                                   schema.players.c.password_hash.is_not(None))).all()
    return {row.id for row in rows}


def check_password(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(400, PASSWORD_MESSAGE)
