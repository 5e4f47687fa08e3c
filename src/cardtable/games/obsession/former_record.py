"""Obsession records of the former dialect, checked line by line and upgraded to the one format.

The former dialect (``{"t":"header","game":"obsession","v":1,...}``) held the header (seed,
rules, each seat's kind, the whole deck) and then a line per public event: the swaps, the
start, every play with its effects (the plays the game makes by itself too), blind attempts,
pick-ups, the seats going out, and the ``end`` (or ``abandoned`` with its reason).

:data:`OBSESSION_FORMER` replays such a record as its replay did: the decisions (swaps, plays
from the hand or the face-up cards, blind attempts) are fed to the game, every other line is
compared with the events the game derives, and the first line that differs is refused with its
number. The same game is recorded meanwhile by :class:`RecordListener`, exactly as
``obsession --record`` writes it today. A record that stops before the game did stays so: the
upgraded record holds the decisions whose every line was there, and no result line.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.engine.errors import IllegalAction, RecordError
from cardtable.engine.match import MatchAbandoned, MatchListener, play_match
from cardtable.engine.protocol import GameState
from cardtable.engine.record import Line, parse_lines
from cardtable.engine.record_upgrade import Upgraded, UpgradeError
from cardtable.games.obsession.actions import Action, Blind, Play, Swap
from cardtable.games.obsession.cards import TEXT
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.record import (
    GAME_NAME,
    Checker,
    LoadedRecord,
    RecordCutShort,
    RecordListener,
    RecordStart,
    ReplayMismatch,
    Script,
    deck_from_texts,
    event_record,
    header,
    kind_of,
    known_seat_kind,
    texts,
)
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import ObsessionState, seat_name

FORMER_VERSION = 1
"""The ``v`` of the former dialect's header."""
LAST_LINES = ("end", "abandoned")
"""The kinds of line that close a former record: a record without one at its end was cut
short."""
DECISIONS = ("swap", "blind", "play")


@dataclass(frozen=True)
class FormerRecord(LoadedRecord):
    """A former record read line by line (not yet replayed)."""

    @property
    def cut_short(self) -> bool:
        """Whether the record stops without its ``end`` or ``abandoned`` line."""
        return not self.lines or self.lines[-1][1].get("t") not in LAST_LINES


def former_header(start: RecordStart) -> dict[str, Any]:
    """The header line of the former dialect for the start of a record."""
    first = start.lines[0]
    kinds = [kind_of(str(entry["player"])) for entry in first["seats"]]
    return {"t": "header", "game": GAME_NAME, "v": FORMER_VERSION, "seed": first["seed"],
            "rules": first["rules"], "seats": kinds, "deck": texts(start.game.deck)}


class FormerListener(MatchListener):
    """The lines of the former dialect for a match, given to ``sink`` (the checker of a
    former record): its header at once, a line per public event, ``abandoned``."""

    def __init__(self, sink: Checker, start: RecordStart) -> None:
        self.sink = sink
        sink(former_header(start))

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        for item in event:
            line = event_record(item)
            if line is not None:
                self.sink(line)

    def on_abandon(self, state: GameState[Any, Any], abandoned: MatchAbandoned) -> None:
        self.sink({"t": "abandoned", "reason": abandoned.cause})


class FormerScript(Script):
    """The decisions of a former record: swaps, blind attempts, and the plays that are not
    the game's own (the opening play, a turned hidden card)."""

    def __init__(self, loaded: FormerRecord) -> None:
        super().__init__(loaded)
        self.decisions = [
            (number, obj) for number, obj in loaded.lines
            if obj.get("t") in DECISIONS
            and not (obj["t"] == "play" and (obj.get("auto") is True
                                             or obj.get("from") == "hidden"))
        ]
        last = loaded.lines[-1][1] if loaded.lines else {}
        if last.get("t") == "abandoned":
            self.abandoned = str(last.get("reason", "eof"))

    def decision(self, number: int, obj: Line, observation: Observation) -> Action:
        action = _action(obj, observation)
        if action is None:
            raise ReplayMismatch(number)
        return action


class _Seat:
    def __init__(self, script: Script) -> None:
        self.script = script

    def choose(self, observation: Observation) -> Action:
        return self.script.action(observation)

    def rejected(self, error: IllegalAction) -> None:
        self.script.rejected(error)


class _Written:
    """The lines of the one format, each with the last former line the checker had matched
    when it was written."""

    def __init__(self, checker: Checker) -> None:
        self.checker = checker
        self.lines: list[Line] = []
        self.sources: list[int] = []

    def __call__(self, line: dict[str, Any]) -> None:
        position = self.checker.position
        self.lines.append(line)
        self.sources.append(self.checker.expected[max(position - 1, 0)][0])


class ObsessionFormer:
    """The reader of Obsession's former record dialect (``GameDescription.former_records``)."""

    def recognizes(self, first: Mapping[str, Any]) -> bool:
        # The ``t`` keys were Obsession's alone; a header naming another game is refused at
        # its line, as the former replay refused it.
        return first.get("t") == "header"

    def upgrade(self, path: str, lines: Sequence[str]) -> Upgraded:
        try:
            return _upgrade(path, lines)
        except ReplayMismatch as mismatch:
            raise UpgradeError(path, mismatch.line, mismatch.reason) from None


OBSESSION_FORMER = ObsessionFormer()


def load_former(lines: Sequence[str], path: str = "") -> FormerRecord:
    """Read a former record; anything unreadable is a mismatch at its line."""
    objects = parse_lines(lines, kind_key="t")
    try:
        opening = next(objects, None)
        if opening is None:
            raise ReplayMismatch(1)
        number, first = opening
        try:
            seed, rules, seats, deck = _read_header(first)
        except (ValueError, KeyError, TypeError):
            raise ReplayMismatch(number) from None
        rest = tuple(objects)
    except RecordError as error:
        raise ReplayMismatch(error.line) from None
    return FormerRecord(seed, rules, seats, deck, first, number, rest, path)


def _upgrade(path: str, lines: Sequence[str]) -> Upgraded:
    loaded = load_former(lines, path)
    script = FormerScript(loaded)
    humans = tuple(kind == "human" for kind in loaded.seats)
    game = ObsessionState(loaded.rules, loaded.deck, humans)
    seats = {seat_name(index): _Seat(script) for index in range(loaded.rules.players)}
    checker = Checker(loaded)
    written = _Written(checker)
    # The former lines are checked first: the one format gets a decision once all of its
    # former lines matched.
    listeners = (FormerListener(checker, header(game, loaded.seed, loaded.seats)),
                 RecordListener(written, header(game, loaded.seed, loaded.seats)))
    last = loaded.lines[-1][0] if loaded.lines else loaded.header_line
    try:
        with contextlib.suppress(MatchAbandoned):
            play_match(game, seats, listeners)
        checker.finish()
    except RecordCutShort:
        pass  # the record stops before the game did, and its upgrade too
    except ReplayMismatch as mismatch:
        if mismatch.line <= last:
            raise
        # Every line there is matched; the game simply went on past the end of the file.
    return Upgraded(GAME_NAME, tuple(written.lines), tuple(written.sources))


def _read_header(first: dict[str, Any]) -> tuple[int, Rules, tuple[str, ...], tuple[int, ...]]:
    if (first["t"], first["game"], first["v"]) != ("header", GAME_NAME, FORMER_VERSION):
        raise ValueError("not an Obsession record header")
    seed = first["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("bad seed")
    rules = Rules.from_json(first["rules"])
    seats = tuple(first["seats"])
    if len(seats) != rules.players or not all(map(known_seat_kind, seats)):
        raise ValueError("bad seats")
    return seed, rules, seats, deck_from_texts(first["deck"], rules.decks)


def _action(obj: Line, observation: Observation) -> Action | None:
    """The decision a former line says, for the seat that observes ``observation``."""
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
