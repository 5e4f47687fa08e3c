"""Playing web tables through the API in tests, with every frame checked for leaks.

``LeakChecker`` is applied to every frame (and page body) a seat or a spectator receives: no
card of another seat's hand, no hidden row, no card of a deck or draw pile, no other seat's
token may appear. The truth it compares with is the table replayed from the database's moves
to the frame's ply, independently of the server's serializer.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Self

from cardtable.web.games import new_state
from cardtable.web.store import Store


def ids_in(value: Any) -> set[str]:
    """Every card ``id`` anywhere in a JSON value."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("id"), str) and "card" in item:
                found.add(item["id"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def keys_in(value: Any) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.update(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def caravan_id(card: int) -> str:
    from cardtable.games.caravan.cards import SEATS, identity, owner_of

    return f"{SEATS[owner_of(card)]}/{identity(card)}"


def public_ids(game: str, state: Any, history_from: int = 0) -> tuple[set[str], int]:
    """Cards shown to everyone now (a card once shown may be named again, as in a history of
    moves, after it went back into a deck: a mulligan's hand, a reshuffled discard pile), and
    where to start reading the history next time (entries before it were counted)."""
    if game == "caravan":
        shown: set[str] = set()
        hidden = state.opening_hidden()
        history = state.history
        for index in range(0 if hidden else history_from, len(history)):
            entry = history[index]
            if not entry.opening or not hidden:
                shown |= {caravan_id(card) for card in entry.cards if card}
        for pile in state.piles:
            shown |= {caravan_id(card) for card in pile}
        if not hidden:
            for caravan in state.caravans:
                for numeral, faces in caravan:
                    shown |= {caravan_id(numeral)} | {caravan_id(f) for f in faces}
        return shown, 0 if hidden else len(history)
    if game == "obsession":
        shown = {f"o{card}" for card in state.pile}
        for row in state.visible:
            shown |= {f"o{card}" for card in row}
        return shown, 0
    return set(), 0


def secret_ids(game: str, state: Any, seat: str | None) -> tuple[set[str], set[str] | None]:
    """(ids the viewer may not see, ids of the viewer's own hand or None for spectators)."""
    if game == "caravan":
        me = None if seat is None else state.seats.index(seat)
        secret: set[str] = set()
        for index in (0, 1):
            if index != me:
                secret |= {caravan_id(card) for card in state.hands[index]}
            secret |= {caravan_id(card) for card in state.decks[index]}
        if state.opening_hidden():
            for index in range(6):
                owner = 0 if index < 3 else 1
                if owner != me:
                    for numeral, faces in state.caravans[index]:
                        secret |= {caravan_id(numeral)} | {caravan_id(f) for f in faces}
        own = None if me is None else {caravan_id(card) for card in state.hands[me]}
        return secret, own
    if game == "obsession":
        me = None if seat is None else state.seats.index(seat)
        secret = {f"o{card}" for card in state.draw}
        for index in range(state.players):
            secret |= {f"o{card}" for card in state.hidden[index]}
            if index != me:
                secret |= {f"o{card}" for card in state.hands[index]}
        own = None if me is None else {f"o{card}" for card in state.hands[me]}
        return secret, own
    return set(), None


class LeakChecker:
    """Checks the frames one viewer (a seat, or a spectator when ``seat`` is None) receives."""

    def __init__(self, store: Store, table: str, seat: str | None, tokens: dict[str, str]) -> None:
        self.store = store
        self.table = table
        self.seat = seat
        self.foreign_tokens = [token for name, token in tokens.items() if name != seat]
        row = store.table(table)
        assert row is not None
        self.row = row
        self.kinds = [s.kind for s in store.seats(table)]
        self.state = new_state(row.game, row.params, row.seed, self.kinds)
        self.ply = 0
        self.moves: list[tuple[str, str]] = []
        self.frames = 0
        self.seen, self.history_from = public_ids(row.game, self.state)

    def _advance(self, ply: int) -> None:
        if ply <= self.ply:
            return
        if ply > len(self.moves):  # (only the moves stored since the last reading)
            self.moves += [(seat, move) for _ply, seat, move
                           in self.store.moves_after(self.table, len(self.moves))]
        moves = self.moves
        assert ply <= len(moves), "a frame from the future"
        while self.ply < ply:
            self.state.apply(self.state.parse_action(moves[self.ply][1]))
            self.ply += 1
            shown, self.history_from = public_ids(self.row.game, self.state, self.history_from)
            self.seen |= shown

    def check_page(self, view: Any, ply: int) -> None:
        """A view (a page's data, a frame's observation) of the table at ``ply``."""
        self._advance(ply)
        self.check_view(view)

    def check_text(self, text: str) -> None:
        for token in self.foreign_tokens:
            assert token not in text, "another seat's token was sent"

    def check(self, frame: dict[str, Any], text: str | None = None) -> None:
        self.frames += 1
        self.check_text(json.dumps(frame) if text is None else text)
        if frame.get("type") == "state":
            self._advance(frame["ply"])
            observation = frame["observation"]
            self.check_view(observation)
            if self.seat is None:
                assert frame["legal"] == []
        else:
            self.check_view(frame, structural=False)
        assert "deck" not in keys_in(frame), "a deck was sent"

    def check_view(self, view: Any, structural: bool = True) -> None:
        game = self.row.game
        secret, own = secret_ids(game, self.state, self.seat)
        shown = ids_in(view)
        leaked = (shown & secret) - self.seen
        assert not leaked, f"hidden cards sent to {self.seat or 'a spectator'}: {sorted(leaked)}"
        if not structural:
            return
        keys = keys_in(view)
        if own is None:
            assert "hand" not in keys, "a hand was sent to a spectator"
        elif game != "austerity":
            assert {card["id"] for card in view["hand"]} == own
        if game == "austerity":
            market = [card.text() for card in self.state.game.table.market]
            assert [card["card"] for card in view["market"]] == market


def random_chooser(seed: int) -> Callable[[list[str]], str]:
    """A random legal move, plays before discards and clears (random Caravan players who
    discard half the time would play for thousands of moves)."""
    generator = random.Random(seed)

    def choose(legal: list[str]) -> str:
        plays = [move for move in legal if move.split(":")[-1].startswith("P")]
        return generator.choice(plays or legal)

    return choose


class Viewer:
    """One WebSocket (a seat or a spectator) with its leak checker."""

    def __init__(self, socket: Any, checker: LeakChecker) -> None:
        self.socket = socket
        self.checker = checker
        self.last: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.chat: list[dict[str, Any]] = []
        self.other: list[dict[str, Any]] = []

    def receive(self) -> dict[str, Any]:
        text = self.socket.receive_text()
        frame: dict[str, Any] = json.loads(text)
        self.checker.check(frame, text)
        if frame["type"] == "state":
            self.last = frame
        elif frame["type"] == "error":
            self.errors.append(frame["message"])
        elif frame["type"] == "chat":
            self.chat.append(frame)
        else:
            self.other.append(frame)
        return frame

    def until_state(self, settled: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            frame = self.receive()
            if frame["type"] == "state" and settled(frame):
                return frame
            assert frame["type"] != "error", frame

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            frame = self.receive()
            if frame["type"] == kind:
                return frame


def play_through(viewers: Mapping[str | None, Viewer], humans: set[str],
                 choose: Callable[[list[str]], str], max_moves: int = 5000,
                 stop_after: int | None = None) -> dict[str, Any]:
    """Play the human seats' moves (``choose`` among the legal ones) until the game ends (or
    ``stop_after`` plies); every viewer reads every frame. Returns the last state frame."""

    def settled_after(ply: int) -> Callable[[dict[str, Any]], bool]:
        return lambda frame: frame["ply"] >= ply and (
            frame["result"] is not None or frame["to_move"] in humans
            or (stop_after is not None and frame["ply"] >= stop_after))

    frames = {seat: viewer.last if viewer.last is not None and settled_after(0)(viewer.last)
              else viewer.until_state(settled_after(0)) for seat, viewer in viewers.items()}
    for _ in range(max_moves):
        frame = next(iter(frames.values()))
        if frame["result"] is not None or (stop_after is not None and frame["ply"] >= stop_after):
            return frame
        mover = frame["to_move"]
        mine = viewers[mover].last
        assert mine is not None and mine["legal"], mine
        viewers[mover].socket.send_json({"type": "move", "move": choose(mine["legal"])})
        ply = frame["ply"] + 1
        frames = {seat: viewer.until_state(settled_after(ply)) for seat, viewer in viewers.items()}
    raise AssertionError("the game did not end")


def connect(client: Any, table: str, token: str | None) -> Any:
    """A seat's socket (its token in the URL, as older clients send it), or a spectator's
    (which says hello, as the pages do)."""
    path = f"/api/tables/{table}/ws" + ("?hello" if token is None else f"?token={token}")
    return client.websocket_connect(path) if token is not None else _spectator(client, path)


@contextlib.contextmanager
def _spectator(client: Any, path: str) -> Iterator[Any]:
    with client.websocket_connect(path) as socket:
        socket.send_json({"type": "hello"})
        yield socket


def sockets(client: Any, store: Store, table: str, tokens: dict[str, str],
            spectator: bool = False) -> Iterator[Any]:
    """Context managers for every seat's socket (and a spectator's)."""
    for seat, token in tokens.items():
        yield seat, connect(client, table, token), LeakChecker(store, table, seat, tokens)
    if spectator:
        yield None, connect(client, table, None), LeakChecker(store, table, None, tokens)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """An app on a database, driven in-process through Starlette's test client. Test players
    move faster than people: the flood limit is raised and the rate limits are off, except
    where a test sets them."""

    def __init__(self, url: str, flood_limit: int = 10_000,
                 programs: dict[str, str] | None = None,
                 limits: Any = None, **options: Any) -> None:
        """``options``: more of ``create_app``'s (``lease``, say)."""
        from fastapi.testclient import TestClient

        from cardtable.web.app import create_app
        from cardtable.web.limits import Limits
        from cardtable.web.store import Store

        self.url = url
        self.store = Store(url)
        self.app = create_app(self.store, flood_limit=flood_limit, programs=programs,
                              limits=Limits.off() if limits is None else limits, **options)
        self.client = TestClient(self.app)

    def __enter__(self) -> Self:
        self.client.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.__exit__(None, None, None)
        self.store.close()

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def create(self, game: str, seats: list[str], params: dict[str, Any] | None = None,
               **extra: object) -> tuple[str, dict[str, str]]:
        response = self.client.post("/api/tables", json={
            "game": game, "params": params or {}, "seats": seats, **extra})
        assert response.status_code == 201, response.text
        data = response.json()
        return data["table"], data["tokens"]
