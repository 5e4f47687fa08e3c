"""Obsession game records (JSON Lines) and their replay.

A record is in the one record format of :mod:`cardtable.engine.record`: the header (rules,
seed, seats: ``human`` or ``bot:NAME``), a ``chance`` line ``deck`` (the whole shuffled deck,
top first), one ``action`` line per decision in notation (``swap 4C 9H KS``, ``play 9C 9H``,
``blind 2``; plays the game makes by itself are not decisions), and the ``result`` line
(reason ``out``, ``cap`` or ``repetition``, or ``abandoned`` with its cause).

Replay rebuilds the game from the recorded deck (never from the seed), feeds it the recorded
decisions (never calling a bot) and checks that the game writes every line exactly as recorded.
A record of the former dialect (``"t"``/``"v": 1``, a line per public event) is upgraded to
this format first (:mod:`cardtable.games.obsession.former_record`), every derived event checked
as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.engine.errors import IllegalAction, NotationError, RecordError
from cardtable.engine.match import FORFEIT, Forfeit, MatchAbandoned, MatchListener
from cardtable.engine.protocol import GameState, Result
from cardtable.engine.record import (
    ABANDONED,
    KIND,
    MISSING_RESULT,
    Header,
    Line,
    RecordFormatError,
    SeatEntry,
    action_line,
    chance_line,
    forfeit_line,
    header_line,
    parse_lines,
    read_record,
    recorded_forfeit,
    replay_message,
    result_line,
)
from cardtable.engine.record_upgrade import UpgradeError, current_lines
from cardtable.games.obsession.actions import Action
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
from cardtable.games.obsession.state import ObsessionState, seat_name, shuffled_deck

SEAT_KINDS = ("human", "obsessed", "random")
GAME_NAME = "obsession"
BOT_PREFIX = "bot:"
Sink = Callable[[dict[str, Any]], None]


def player_of(kind: str) -> str:
    """Who sits at a seat, as the header says it: ``human`` or ``bot:NAME``."""
    return kind if kind == "human" else BOT_PREFIX + kind


def kind_of(player: str) -> str | None:
    """The seat kind (``human``, ``obsessed``, ``random``, a bot of the registry such as
    ``ismcts:iters=500`` or ``exec:COMMAND``) of a header's player, or None."""
    if player == "human":
        return player
    kind = player.removeprefix(BOT_PREFIX)
    return kind if kind != player and kind != "human" and known_seat_kind(kind) else None


@dataclass(frozen=True)
class RecordStart:
    """The first lines of a record (the header and the deck) and the game as dealt, from
    which the record listener keeps the state each action is written against."""

    lines: tuple[Line, ...]
    game: ObsessionState


def header(game: ObsessionState, seed: int, seats: Sequence[str]) -> RecordStart:
    """The start of the record of ``game`` (dealt, no decision taken yet) seeded ``seed``;
    ``seats`` are the seat kinds (``human``, ``obsessed``, ``random``)."""
    entries = [SeatEntry(seat_name(index), player_of(kind)) for index, kind in enumerate(seats)]
    return RecordStart(
        (header_line(GAME_NAME, game.rules.to_json(), seed, entries),
         chance_line("deck", cards=texts(game.deck))),
        game.clone(),
    )


def texts(cards: Sequence[int]) -> list[str]:
    return [TEXT[card] for card in cards]


def event_record(event: Event) -> dict[str, Any] | None:
    """A public event as JSON (``{"t": "play", ...}``: the history a program is sent, and the
    line of the former record dialect), or None for events that it leaves out."""
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


def result_fields(result: Result) -> Line:
    """The result line of a finished game."""
    return result_line(result.winners, result.reason, result.reason, result.details)


def abandoned_fields(game: ObsessionState, cause: str) -> Line:
    """The result line of a game that stopped before its end."""
    return result_line((), ABANDONED, cause, {"plays": game.plays, "turns": game.turns})


class RecordListener(MatchListener):
    """Turns the actions of a match into record lines for ``sink`` (a writer or a checker).

    ``first_line`` is what :func:`header` returns (its lines are given to ``sink`` at once).
    """

    def __init__(self, sink: Sink, first_line: RecordStart) -> None:
        self.sink = sink
        self.before: ObsessionState | None = first_line.game.clone()
        """The game as it stands before the next action (actions are written in notation,
        which depends on it)."""
        self.ended = False
        for line in first_line.lines:
            sink(line)

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        before = self.before
        assert before is not None, "a record listener is given the start of the game"
        self.sink(action_line(seat, before.action_text(action)))
        before.apply(action)
        if isinstance(state, ObsessionState) and state.result is not None:
            self.on_end(state, state.result)

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        if not self.ended:
            self.ended = True
            if result.reason == FORFEIT and isinstance(state, ObsessionState):
                self.sink(forfeit_line(result.winners, str(result.details.get("seat")),
                                       str(result.details.get("why")),
                                       {"plays": state.plays, "turns": state.turns}))
                return
            self.sink(result_fields(result))

    def on_abandon(self, state: GameState[Any, Any], abandoned: MatchAbandoned) -> None:
        if not self.ended:
            self.ended = True
            assert isinstance(state, ObsessionState)
            self.sink(abandoned_fields(state, abandoned.cause))


# --- replay ----------------------------------------------------------------------------------


class ReplayMismatch(RecordError):
    """The record and the replayed game disagree first at ``line`` (1-based)."""

    def __init__(self, line: int, reason: str = "") -> None:
        super().__init__(f"Replay mismatch at line {line}" + (f": {reason}" if reason else ""),
                         line)
        self.reason = reason


class RecordCutShort(RecordError):
    """The record ends before the game did (its program was killed, or the file was cut
    short): "Replay 'FILE', line L: missing result line.", L the line where the record's
    result line belongs."""

    def __init__(self, path: str, line: int) -> None:
        super().__init__(replay_message(path, line, MISSING_RESULT), line)


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
        """Whether the record stops without its result line."""
        return not self.lines or self.lines[-1][1].get(KIND) != "result"

    def ended_early(self) -> RecordError:
        """What running past the record's last line means: the record was cut short, or
        (when it does have its result line) that line does not match the game, which goes
        on."""
        if self.cut_short:
            return RecordCutShort(self.path, self.end_line)
        return ReplayMismatch(self.end_line - 1)


def not_a_record(path: str, lines: Sequence[str]) -> str | None:
    """Why ``lines`` (the file ``path``) are not a record at all, as "Replay 'FILE', line L:
    REASON." (an empty file, a first line that is not JSON, not an object with a ``type``, or
    not a header), or None when they start like one. Such a file is refused like any other
    file that cannot be used (status 1, as Caravan does); a record that starts with a header
    and then disagrees with the game is a replay mismatch."""
    first = next(((number, line) for number, line in enumerate(lines, start=1)
                  if line.strip()), None)
    if first is None:
        return replay_message(path, 1, "the record is empty")
    number, text = first
    try:
        obj = json.loads(text)
    except ValueError:
        # JSONDecodeError, or an integer of more digits than int() converts.
        return replay_message(path, number, "malformed line")
    kind = obj.get(KIND, obj.get("t")) if isinstance(obj, dict) else None
    if not isinstance(kind, str):
        return replay_message(path, number, 'malformed line (not an object with a "type")')
    if kind != "header":
        return replay_message(path, number, "the first line is not a record header")
    return None


def load(lines: Sequence[str], path: str = "") -> LoadedRecord:
    """Read a record (from the file ``path``); anything unreadable is a mismatch at its line.
    A record of the former dialect is upgraded first, in memory."""
    try:
        lines = current_lines(path, lines)
    except UpgradeError as error:
        raise ReplayMismatch(error.line, error.reason) from None
    return _load_record(lines, path)


def _load_record(lines: Sequence[str], path: str) -> LoadedRecord:
    """:func:`load` for a record of the one format (the one reader of Obsession records)."""
    try:
        record = read_record(path, lines, GAME_NAME, check_header=_header_complaint)
    except RecordFormatError as error:
        raise ReplayMismatch(error.line, _reason(error.message)) from None
    header = record.header
    rules = Rules.from_json(header.rules)
    seats = tuple(str(kind_of(entry.player)) for entry in header.seats)
    assert header.seed is not None
    entries = record.entries
    first = entries[0] if entries else None
    if first is None:
        # Cut short before the deck: the deck the seed shuffles is the one that was dealt.
        deck = tuple(shuffled_deck(rules.players, header.seed))
    elif first.kind != "chance" or first.event != "deck":
        raise ReplayMismatch(first.line, "expected the chance line 'deck'")
    else:
        try:
            deck = deck_from_texts(first.obj.get("cards"), rules.decks)
        except ValueError as error:
            raise ReplayMismatch(first.line, f"the deck: {error}") from None
    for entry in entries[1:]:
        if entry.kind == "chance":
            raise ReplayMismatch(entry.line, f"unexpected chance line '{entry.event}'")
    raw = next(line for number, line in parse_lines(lines, KIND) if number == header.line)
    return LoadedRecord(header.seed, rules, tuple(seats), deck, raw, header.line,
                        tuple((entry.line, entry.obj) for entry in entries), path)


def _header_complaint(header: Header) -> str | None:
    try:
        rules = Rules.from_json(header.rules)
    except (ValueError, KeyError, TypeError) as error:
        return f"the header's rules: {error}"
    if header.seat_names != tuple(seat_name(index) for index in range(rules.players)):
        return f"the header's seats are not P1 to P{rules.players}"
    if any(kind_of(entry.player) is None for entry in header.seats):
        return "a seat's player is not human, bot:obsessed or bot:random"
    if header.seed is None:
        return "the header has no seed"
    if header.setup:
        return f"the header has a field it should not: '{next(iter(header.setup))}'"
    return None


def _reason(message: str) -> str:
    """The REASON of "Replay 'FILE', line L: REASON." (a whole other-game message as it is)."""
    head, colon, reason = message.partition(": ")
    return reason.rstrip(".") if colon and ", line " in head else message


def known_seat_kind(kind: object) -> bool:
    """A seat kind of a record: one of ``SEAT_KINDS`` or a bot spec (``ismcts:iters=500``,
    ``exec:COMMAND``), its name a word of letters, digits, ``-`` and ``_`` (in any case). A
    replay needs only to know who is a person (the repetition guard leaves people alone), not
    the bot itself, so a record of a bot this installation does not offer still replays; the
    command lines check the bots they seat against the bot registry."""
    if kind in SEAT_KINDS:
        return True
    if not isinstance(kind, str):
        return False
    name = kind.strip().partition(":")[0].strip().lower()
    return bool(name) and name != "human" and all(
        character.isascii() and (character.islower() or character.isdigit()
                                  or character in "-_") for character in name)


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


def _without_version(line: Line) -> Line:
    return {key: value for key, value in line.items() if key != "cardtable"}


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
        if self.position == 0:
            # The header was checked when the record was read; it names the version that
            # wrote it, which need not be this one.
            line, expected = _without_version(line), _without_version(expected)
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
        self.loaded = loaded
        last = loaded.lines[-1] if loaded.lines else (0, {})
        self.abandoned: str | None = None
        """The cause of a game the record says was abandoned."""
        self.forfeit: tuple[str, str] | None = None
        """``(seat, why)`` when the record ends with that seat's forfeit."""
        self.line_of_result = 0
        self.position = 0
        self.line = 0
        self.decisions = [(number, obj) for number, obj in loaded.lines
                          if obj.get(KIND) == "action"]
        if last[1].get(KIND) == "result":
            if last[1].get("reason") == ABANDONED:
                self.abandoned = str(last[1].get("cause"))
            self.forfeit = recorded_forfeit(last[1])
            self.line_of_result = last[0]
        self.game = ObsessionState(loaded.rules, loaded.deck,
                                   tuple(kind == "human" for kind in loaded.seats), log=False)
        """The game as it stands before the next decision, against which its notation is
        read."""

    @property
    def exhausted(self) -> bool:
        """Every recorded decision has been handed out."""
        return self.position >= len(self.decisions)

    def action(self, observation: Observation) -> Action:
        if self.exhausted:
            if self.abandoned is not None:
                raise MatchAbandoned(f"P{observation.seat + 1}", self.abandoned)
            if self.forfeit is not None:
                # Any seat of the game may forfeit, not only the seat to move: a program
                # that cannot start forfeits at once.
                seat, why = self.forfeit
                seats = self.loaded.rules.players
                if seat not in (seat_name(index) for index in range(seats)):
                    raise ReplayMismatch(self.line_of_result, "the forfeiting seat should be "
                                         f"one of P1 to P{seats}")
                raise Forfeit(seat, why)
            raise self.loaded.ended_early()
        number, obj = self.decisions[self.position]
        self.position += 1
        self.line = number
        return self.decision(number, obj, observation)

    def decision(self, number: int, obj: Line, observation: Observation) -> Action:
        """The action of the decision ``obj`` (line ``number``) for the seat that observes
        ``observation``; raises :class:`ReplayMismatch` when it is none."""
        return _notated_action(self.game, number, obj, observation)

    def rejected(self, error: IllegalAction) -> None:
        raise ReplayMismatch(self.line)


def _notated_action(game: ObsessionState, number: int, obj: Line,
                    observation: Observation) -> Action:
    """The decision of action line ``obj`` (line ``number``), read in ``game``'s notation and
    applied to it (``game`` follows the replayed game one decision ahead)."""
    if obj["seat"] != seat_name(observation.seat) or game.current != observation.seat:
        raise ReplayMismatch(number, f"{obj['seat']} is not the seat to move")
    try:
        action = game.parse_action(obj["action"])
        game.apply(action)
    except (NotationError, IllegalAction) as error:
        raise ReplayMismatch(number, error.message) from None
    return action
