"""Game records (JSON Lines) and their replay.

A record is a header (rules, seed, seats and the whole shuffled deck, top first) followed by one
line per public event: swaps, the start, plays, blind attempts, pick-ups, outs and the end.
Replay rebuilds the game from the deck, feeds it the recorded decisions (never calling a bot)
and checks that the game derives every other line exactly as recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.engine.errors import IllegalAction, RecordError
from cardtable.engine.match import MatchAbandoned, MatchListener
from cardtable.engine.protocol import GameState
from cardtable.engine.record import MISSING_RESULT, RECORD_FORMAT, parse_lines, replay_message
from cardtable.games.obsession.actions import Action, Blind, Play, Swap
from cardtable.games.obsession.cards import TEXT, canonical_deck
from cardtable.games.obsession.events import (
    BlindTurned,
    Ended,
    Event,
    PickedUp,
    Played,
    Started,
    Swapped,
    WentOut,
)
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import Game

SEAT_KINDS = ("human", "obsessed", "random")
Sink = Callable[[dict[str, Any]], None]


def header(game: Game, seed: int, seats: Sequence[str]) -> dict[str, Any]:
    return {"t": "header", "game": "obsession", "v": RECORD_FORMAT, "seed": seed,
            "rules": game.rules.to_json(), "seats": list(seats),
            "deck": [TEXT[card] for card in game.deck]}


def texts(cards: Sequence[int]) -> list[str]:
    return [TEXT[card] for card in cards]


def event_record(event: Event) -> dict[str, Any] | None:
    """The record line of a public event, or None for events that records leave out."""
    if isinstance(event, Played):
        line: dict[str, Any] = {"t": "play", "n": event.n, "seat": event.seat + 1,
                                "from": event.source, "cards": texts(event.cards)}
        if event.auto:
            line["auto"] = True
        line["effects"] = list(event.effects)
        line["drew"] = event.drew
        return line
    if isinstance(event, PickedUp):
        return {"t": "pickup", "n": event.n, "seat": event.seat + 1, "count": event.count,
                "threes_removed": event.threes_removed}
    if isinstance(event, BlindTurned):
        return {"t": "blind", "n": event.n, "seat": event.seat + 1, "index": event.index,
                "card": TEXT[event.card]}
    if isinstance(event, Swapped):
        return {"t": "swap", "seat": event.seat + 1, "visible": texts(event.visible)}
    if isinstance(event, Started):
        return {"t": "start", "seat": event.seat + 1}
    if isinstance(event, WentOut):
        return {"t": "out", "seat": event.seat + 1, "place": event.place}
    if isinstance(event, Ended):
        return {"t": "end", "placings": [seat + 1 for seat in event.placings],
                "stalemate": event.stalemate, "reason": event.reason, "plays": event.plays,
                "turns": event.turns}
    return None


class RecordListener(MatchListener):
    """Turns the events of a match into record lines for ``sink`` (a writer or a checker)."""

    def __init__(self, sink: Sink, first_line: dict[str, Any]) -> None:
        self.sink = sink
        sink(first_line)

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        for item in event:
            line = event_record(item)
            if line is not None:
                self.sink(line)

    def on_abandon(self, state: GameState[Any, Any], abandoned: MatchAbandoned) -> None:
        self.sink({"t": "abandoned", "reason": abandoned.cause})


# --- replay ----------------------------------------------------------------------------------


class ReplayMismatch(RecordError):
    """The record and the replayed game disagree first at ``line`` (1-based)."""

    def __init__(self, line: int) -> None:
        super().__init__(f"Replay mismatch at line {line}", line)


class RecordCutShort(RecordError):
    """The record ends before the game did (its program was killed, or the file was cut
    short): "Replay 'FILE', line L: missing result line.", L the line where the record's
    last line (``end`` or ``abandoned``) belongs."""

    def __init__(self, path: str, line: int) -> None:
        super().__init__(replay_message(path, line, MISSING_RESULT), line)


LAST_LINES = ("end", "abandoned")
"""The kinds of line that close a record: a record without one at its end was cut short."""


@dataclass(frozen=True)
class LoadedRecord:
    seed: int
    rules: Rules
    seats: tuple[str, ...]
    deck: tuple[int, ...]
    header: dict[str, Any]
    header_line: int
    lines: tuple[tuple[int, dict[str, Any]], ...]
    """Every non-blank line after the header: (line number, object)."""
    path: str = ""

    @property
    def end_line(self) -> int:
        """The number of the line after the last one (where a missing last line belongs)."""
        return (self.lines[-1][0] if self.lines else self.header_line) + 1

    @property
    def cut_short(self) -> bool:
        """Whether the record stops without its ``end`` or ``abandoned`` line."""
        return not self.lines or self.lines[-1][1].get("t") not in LAST_LINES

    def ended_early(self) -> RecordError:
        """What running past the record's last line means: the record was cut short, or
        (when it does have its ``end`` or ``abandoned`` line) that line does not match the
        game, which goes on."""
        if self.cut_short:
            return RecordCutShort(self.path, self.end_line)
        return ReplayMismatch(self.end_line - 1)


def load(lines: Sequence[str], path: str = "") -> LoadedRecord:
    """Read a record (from the file ``path``); anything unreadable is a mismatch at its line."""
    try:
        objects = list(parse_lines(lines, kind_key="t"))
    except RecordError as error:
        raise ReplayMismatch(error.line) from None
    if not objects:
        raise ReplayMismatch(1)
    number, first = objects[0]
    try:
        seed, rules, seats, deck = _read_header(first)
    except (ValueError, KeyError, TypeError):
        raise ReplayMismatch(number) from None
    return LoadedRecord(seed, rules, seats, deck, first, number, tuple(objects[1:]), path)


def _read_header(first: dict[str, Any]) -> tuple[int, Rules, tuple[str, ...], tuple[int, ...]]:
    if (first["t"], first["game"], first["v"]) != ("header", "obsession", RECORD_FORMAT):
        raise ValueError("not an Obsession record header")
    seed = first["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("bad seed")
    rules = Rules.from_json(first["rules"])
    seats = tuple(first["seats"])
    if len(seats) != rules.players or not all(map(known_seat_kind, seats)):
        raise ValueError("bad seats")
    return seed, rules, seats, deck_from_texts(first["deck"], rules.decks)


def known_seat_kind(kind: object) -> bool:
    """A seat kind of a record or ``--seats``: one of ``SEAT_KINDS`` or a bot of the registry
    (``ismcts:iters=500``)."""
    if kind in SEAT_KINDS:
        return True
    if not isinstance(kind, str):
        return False
    from cardtable.agents.registry import UnknownBot, parse_spec

    try:
        parse_spec("obsession", kind)
    except UnknownBot:
        return False
    return True


def deck_from_texts(names: Any, decks: int) -> tuple[int, ...]:
    """Card ids for a recorded deck; it must hold exactly the cards of ``decks`` decks.

    Copies with the same text are interchangeable, so each text takes the next unused copy.
    """
    if not isinstance(names, list):
        raise ValueError("deck is not a list")
    copies: dict[str, list[int]] = {}
    for card in reversed(canonical_deck(decks)):
        copies.setdefault(TEXT[card], []).append(card)
    deck: list[int] = []
    for name in names:
        if not isinstance(name, str) or not copies.get(name):
            raise ValueError(f"unexpected card {name!r}")
        deck.append(copies[name].pop())
    if any(copies.values()):
        raise ValueError("cards missing from the deck")
    return tuple(deck)


class Checker:
    """A record sink that compares each produced line with the recorded one."""

    def __init__(self, loaded: LoadedRecord) -> None:
        self.loaded = loaded
        self.expected = ((loaded.header_line, loaded.header), *loaded.lines)
        self.position = 0

    def __call__(self, line: dict[str, Any]) -> None:
        if self.position >= len(self.expected):
            raise self.loaded.ended_early()
        number, expected = self.expected[self.position]
        if line != expected:
            raise ReplayMismatch(number)
        self.position += 1

    def finish(self) -> None:
        """Lines left over after the game ended are a mismatch too."""
        if self.position < len(self.expected):
            raise ReplayMismatch(self.expected[self.position][0])


class Script:
    """The recorded decisions, handed out in order as actions for the replayed game."""

    def __init__(self, loaded: LoadedRecord) -> None:
        self.decisions = [
            (number, obj) for number, obj in loaded.lines
            if obj["t"] in ("swap", "blind")
            or (obj["t"] == "play" and obj.get("auto") is not True and obj.get("from") != "hidden")
        ]
        self.loaded = loaded
        last = loaded.lines[-1] if loaded.lines else (0, {})
        self.abandoned: str | None = None
        if last[1].get("t") == "abandoned":
            self.abandoned = str(last[1].get("reason", "eof"))
        self.position = 0
        self.line = 0

    @property
    def exhausted(self) -> bool:
        """Every recorded decision has been handed out."""
        return self.position >= len(self.decisions)

    def action(self, observation: Observation) -> Action:
        if self.exhausted:
            if self.abandoned is not None:
                raise MatchAbandoned(f"P{observation.seat + 1}", self.abandoned)
            raise self.loaded.ended_early()
        number, obj = self.decisions[self.position]
        self.position += 1
        self.line = number
        action = _action(obj, observation)
        if action is None:
            raise ReplayMismatch(number)
        return action

    def rejected(self, error: IllegalAction) -> None:
        raise ReplayMismatch(self.line)


def _action(obj: dict[str, Any], observation: Observation) -> Action | None:
    if obj.get("seat") != observation.seat + 1:
        return None
    kind = obj["t"]
    if kind == "swap" and observation.phase == "swap":
        chosen = _pick(obj.get("visible"), observation.pool)
        return None if chosen is None else Swap(chosen)
    if observation.phase != "play":
        return None
    if kind == "blind" and observation.source == "hidden":
        index = obj.get("index")
        return Blind(index) if isinstance(index, int) and not isinstance(index, bool) else None
    if kind == "play" and obj.get("from") == observation.source:
        chosen = _pick(obj.get("cards"), observation.pool)
        return None if chosen is None else Play(chosen)
    return None


def _pick(names: Any, pool: Sequence[int]) -> tuple[int, ...] | None:
    """The first unused card in display order for each text, or None when one is missing."""
    if not isinstance(names, list):
        return None
    used: list[int] = []
    for name in names:
        card = next((c for c in pool if TEXT[c] == name and c not in used), None)
        if card is None:
            return None
        used.append(card)
    return tuple(used)
