"""Caravan game records: writing them during a match, and replaying them.

A record is in the one record format of :mod:`cardtable.engine.record`:

1. the ``header``: game, format, cardtable version, both seats' rules (``{"ABC": {...},
   "DEF": {...}}``), seed, seats (``human`` or ``bot:NAME``) and ``first``, the seat that
   moves first;
2. a ``chance`` line ``deck`` per seat (ABC, then DEF): the deck top card first, as it
   stands before dealing, and its ``source`` (``random`` or ``file``; a deck file without a
   Joker makes ``jack_is_joker_without_jokers`` apply, a random deck never does unless its
   rules give it no Jokers);
3. a ``chance`` line ``mulligan`` per reshuffle mulligan: the hand shown and the new deck;
4. an ``action`` line per move (seat, move in notation: ``P2B``), followed by a ``chance``
   line ``shuffle`` for each discard pile that became a deck during that move's draw step;
5. the ``result`` line, also when the game was abandoned (reason ``abandoned``, cause
   ``quit``, ``eof``, ``interrupt``, ``stalemate`` ...).

Replay rebuilds the game from the chance lines (never from the seed): each shuffle the game
makes takes the next recorded order, which must hold exactly the cards being shuffled;
every move is applied again with full validation and the result is checked. A record of the
former dialect (``"format": 1``: ``deck``/``mulligan``/``move``/``shuffle`` lines) is upgraded
to this format first (:mod:`cardtable.games.caravan.former_record`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardtable.engine.bounded_read import FileTooLarge
from cardtable.engine.errors import RecordError
from cardtable.engine.match import FORFEIT, MatchAbandoned, MatchListener
from cardtable.engine.protocol import GameState, Result
from cardtable.engine.record import (
    ABANDONED,
    MISSING_RESULT,
    Entry,
    Header,
    LineSink,
    RecordFormatError,
    SeatEntry,
    action_line,
    chance_line,
    forfeit_line,
    header_line,
    other_game_message,
    read_lines,
    read_record,
    recorded_forfeit,
    replay_message,
    result_line,
)
from cardtable.engine.record_upgrade import current_lines
from cardtable.games.caravan.cards import JOKER, RANK_MASK, SEATS, identity, parse_identity
from cardtable.games.caravan.errors import IllegalMove, MoveSyntaxError, RulesError
from cardtable.games.caravan.events import MoveEvent
from cardtable.games.caravan.notation import Move, parse_move
from cardtable.games.caravan.rules import Rules, SeatRules
from cardtable.games.caravan.rules_assembly import (
    check_random_decks,
    rules_from_json,
    rules_to_json,
    validate_seat_rules,
)
from cardtable.games.caravan.state import CaravanState

GAME_NAME = "caravan"
SOURCES = ("random", "file")
CARD_MISMATCH = "card mismatch"
MALFORMED = "malformed line"


class ReplayError(RecordError):
    """A record that does not replay: "Replay 'FILE', line L: REASON." (``line`` is L,
    ``reason`` REASON)."""

    def __init__(self, message: str, line: int = 0, reason: str = "") -> None:
        super().__init__(message, line)
        self.reason = reason


class ReplayFileError(RecordError):
    """A record file that cannot be read at all."""


def _identities(cards: Sequence[int]) -> list[str]:
    return [identity(card) for card in cards]


def result_line_of(result: Result) -> dict[str, Any]:
    """The result line of the one format: an abandoned game (the state's reason ``quit``)
    has the reason ``abandoned`` and its cause."""
    details = {"lanes": list(result.details.get("lanes", [])),
               "plies": result.details.get("plies", 0)}
    if result.reason == "quit":
        return result_line((), ABANDONED, str(result.details.get("cause", "quit")), details)
    return result_line(result.winners, result.reason, result.reason, details)


def _forfeit_line(game: CaravanState, result: Result) -> dict[str, Any]:
    lanes = [None if taker is None else SEATS[taker] for taker in game.lanes()]
    return forfeit_line(result.winners, str(result.details.get("seat")),
                        str(result.details.get("why")), {"lanes": lanes, "plies": game.plies})


class GameRecorder(MatchListener):
    """Writes the record of one game as it is played.

    Call :meth:`start` once the game is set up, pass the recorder to ``play_match`` as a
    listener, and call :meth:`abandon` if the match stops for a reason the match loop does
    not see (an interrupt). A write error raises the writer's ``RecordWriteError``.
    """

    def __init__(self, target: LineSink, path: str, players: dict[str, str],
                 sources: tuple[str, str]) -> None:
        self.writer = target
        self.path = path
        self.players = players
        self.sources = sources
        self.finished = False

    def _write(self, obj: dict[str, Any]) -> None:
        self.writer.write(obj)  # RecordWriteError names the file and the reason

    def start(self, game: CaravanState) -> None:
        rules = game.seat_rules
        self._write(header_line(
            GAME_NAME,
            {"ABC": rules_to_json(rules.abc), "DEF": rules_to_json(rules.def_)},
            game.seed,
            [SeatEntry(seat, self.players[seat]) for seat in SEATS],
            first=SEATS[game.first],
        ))
        for seat in (0, 1):
            self._write(chance_line("deck", seat=SEATS[seat], source=self.sources[seat],
                                    cards=_identities(game.initial_decks[seat])))
        for seat, hand, deck in game.mulligans:
            self._write(chance_line("mulligan", seat=SEATS[seat], hand=_identities(hand),
                                    cards=_identities(deck)))
        if game.result is not None:
            self.on_end(game, game.result)

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        assert isinstance(event, MoveEvent)
        # The notation of the seat to move (``state.action_text`` before the move).
        self._write(action_line(SEATS[event.move.seat], event.move.notation))
        for shuffled_seat, deck in event.shuffles:
            self._write(chance_line("shuffle", seat=SEATS[shuffled_seat],
                                    cards=_identities(deck)))

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        if not self.finished:
            self.finished = True
            if result.reason == FORFEIT and isinstance(state, CaravanState):
                self._write(_forfeit_line(state, result))
                return
            self._write(result_line_of(result))

    def on_abandon(self, state: GameState[Any, Any], abandoned: MatchAbandoned) -> None:
        self.abandon(state, abandoned.cause)

    def abandon(self, state: GameState[Any, Any], cause: str) -> None:
        """Record that the game stopped unfinished (does nothing once a result is written)."""
        if self.finished:
            return
        assert isinstance(state, CaravanState)
        result = state.result
        if result is None or result.reason != "quit":
            lanes = [None if taker is None else SEATS[taker] for taker in state.lanes()]
            result = Result((), "quit", {"lanes": lanes, "plies": state.plies, "cause": cause})
        self.on_end(state, result)


# ---------------------------------------------------------------------- replay


class _Mismatch(Exception):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


@dataclass
class RecordedShuffle:
    """A shuffle the record holds: the line, the seat, the deck as it came out (top card
    first) and, for a mulligan, the hand shown."""

    line: int
    seat: int
    deck: tuple[int, ...]  # top card first
    hand: tuple[int, ...] = ()


class ScriptedShuffler:
    """Stands in for the game's random source during replay: each shuffle the game makes
    takes the next recorded deck order, provided it holds exactly the cards being shuffled."""

    def __init__(self) -> None:
        self.pending: list[RecordedShuffle] = []
        self.line = 0
        """The record line charged with a shuffle that the record does not have."""

    def load(self, shuffles: Sequence[RecordedShuffle], line: int) -> None:
        self.pending = list(shuffles)
        self.line = line

    def shuffle(self, items: list[int]) -> None:
        if not self.pending:
            raise _Mismatch(self.line, CARD_MISMATCH)
        expected = self.pending.pop(0)
        if Counter(items) != Counter(expected.deck):
            raise _Mismatch(expected.line, CARD_MISMATCH)
        items[:] = expected.deck[::-1]

    def check_used(self) -> None:
        if self.pending:
            raise _Mismatch(self.pending[0].line, CARD_MISMATCH)


@dataclass
class RecordedMove:
    line: int
    move: Move
    shuffles: list[RecordedShuffle] = field(default_factory=list)


@dataclass
class Replay:
    """A record that has been read and checked by replaying it; :meth:`start` and
    :meth:`apply` play it again (for showing it), which can then no longer fail."""

    path: str
    seed: int
    first: int
    rules: SeatRules
    players: dict[str, str]
    decks: tuple[tuple[int, ...], tuple[int, ...]]
    sources: tuple[str, str]
    setup_line: int
    mulligans: list[RecordedShuffle]
    moves: list[RecordedMove]
    result: dict[str, Any] | None = None
    result_line: int = 0
    end_line: int = 0
    """The number of the line after the last one: where a missing result line belongs."""

    def _error(self, line: int, reason: str) -> ReplayError:
        return replay_error(self.path, line, reason)

    def missing_result(self) -> ReplayError | None:
        """The complaint about a record that stops before its result line (the recording
        program was killed, or the file was cut short), None for a complete record. The
        moves that are there replay; the caller shows them, then this."""
        return None if self.result is not None else self._error(self.end_line, MISSING_RESULT)

    def start(self) -> CaravanState:
        """The game as dealt, with the recorded mulligans applied and checked."""
        shuffler = ScriptedShuffler()
        shuffler.load(self.mulligans, self.setup_line)
        without_jokers = tuple(
            (not any(card & RANK_MASK == JOKER for card in self.decks[seat]))
            if self.sources[seat] == "file"
            else self.rules.of(seat).jokers_per_sample == 0
            for seat in (0, 1)
        )
        try:
            game = CaravanState.start(
                self.rules, self.seed, self.first,
                [list(self.decks[0][::-1]), list(self.decks[1][::-1])],
                (without_jokers[0], without_jokers[1]), shuffler,
            )
            shuffler.check_used()
        except _Mismatch as mismatch:
            raise self._error(mismatch.line, mismatch.reason) from None
        for recorded, (seat, hand, _deck) in zip(self.mulligans, game.mulligans, strict=True):
            if recorded.seat != seat or recorded.hand != hand:
                raise self._error(recorded.line, CARD_MISMATCH)
        return game

    def apply(self, game: CaravanState, step: RecordedMove) -> MoveEvent:
        """Play one recorded move on ``game``, the shuffles it makes being the recorded ones."""
        shuffler = game.rng
        assert isinstance(shuffler, ScriptedShuffler)
        shuffler.load(step.shuffles, step.line)
        try:
            event = game.play(step.move)
            shuffler.check_used()
        except IllegalMove as error:
            raise self._error(step.line, error.message) from None
        except _Mismatch as mismatch:
            raise self._error(mismatch.line, mismatch.reason) from None
        return event

    def finish(self, game: CaravanState) -> None:
        """Check the recorded result against ``game`` after the last move (abandoning the
        game when the record says it was abandoned)."""
        if self.result is None:
            return
        recorded = self.result
        forfeit = recorded_forfeit(recorded)
        if forfeit is not None:
            self._finish_forfeit(game, *forfeit)
            return
        if recorded["reason"] == ABANDONED:
            if game.result is not None:
                raise self._error(self.result_line,
                                  "the game is over, but the result line says abandoned")
            game.abandon(str(recorded["cause"]))
        elif game.result is None:
            raise self._error(self.result_line, "the game is not over at the result line")
        assert game.result is not None
        expected = result_line_of(game.result)
        for key in ("winners", "reason", "cause", "details"):
            if recorded.get(key) != expected[key]:
                raise self._error(self.result_line,
                                  f"the result line's {key} should be "
                                  f"{json.dumps(expected[key], separators=(',', ':'))}")

    def _finish_forfeit(self, game: CaravanState, seat: str, why: str) -> None:
        """A result line that says ``seat`` forfeited: one of the game's seats (not always the
        seat to move: a program that cannot start forfeits at once) in a game that is not over."""
        assert self.result is not None
        if game.result is not None:
            raise self._error(self.result_line, "the game is over, but the result line says "
                                                "forfeit")
        if seat not in SEATS:
            raise self._error(self.result_line, "the forfeiting seat should be one of "
                                                f"{', '.join(SEATS)}")
        game.result = Result(tuple(name for name in SEATS if name != seat), FORFEIT,
                             {"seat": seat, "why": why})
        expected = _forfeit_line(game, game.result)
        for key in ("winners", "reason", "cause", "details"):
            if self.result.get(key) != expected[key]:
                raise self._error(self.result_line,
                                  f"the result line's {key} should be "
                                  f"{json.dumps(expected[key], separators=(',', ':'))}")


def replay_error(path: str, line: int, reason: str) -> ReplayError:
    """"Replay 'FILE', line L: REASON." (a game error text keeps a single final period)."""
    return ReplayError(replay_message(path, line, reason), line, reason)


def seat_of(value: object) -> int | None:
    """The index of the seat named ``value`` (``ABC``, ``DEF``), or None."""
    return SEATS.index(value) if isinstance(value, str) and value in SEATS else None


def recorded_cards(value: object, owner: int) -> tuple[int, ...] | None:
    """The cards of ``owner`` a record lists by identity (``7S@1``), or None."""
    if not isinstance(value, list):
        return None
    cards: list[int] = []
    for text in value:
        card = parse_identity(text, owner) if isinstance(text, str) else None
        if card is None:
            return None
        cards.append(card)
    return tuple(cards)


def _read(path: str) -> list[str]:
    try:
        return read_lines(path)
    except OSError as error:
        reason = error.strerror or str(error)
        raise ReplayFileError(f"Cannot open record file '{path}': {reason}.") from error
    except UnicodeDecodeError as error:
        raise ReplayFileError(
            f"Cannot open record file '{path}': the file is not valid UTF-8."
        ) from error
    except FileTooLarge as error:
        raise ReplayFileError(f"Cannot open record file '{path}': {error.reason}.") from None


def load_replay(path: str | Path) -> Replay:
    """Read the record at ``path`` and replay it completely (a record of the former dialect
    is upgraded first, in memory).

    Raises :class:`ReplayFileError` when the file cannot be read and :class:`ReplayError`
    ("Replay 'FILE', line L: REASON.") at the first line that does not replay.
    """
    name = str(path)
    lines = _read(name)
    other = other_game_message(name, lines, GAME_NAME)
    if other is not None:
        raise ReplayError(other, 1)
    try:
        lines = list(current_lines(name, lines))
    except RecordError as error:
        raise ReplayError(error.message, error.line) from None
    replay = read_replay(name, lines)
    check(replay)
    return replay


def check(replay: Replay) -> None:
    """Replay the whole record once: every line that does not fit raises ``ReplayError``."""
    game = replay.start()
    for step in replay.moves:
        replay.apply(game, step)
    replay.finish(game)


def read_replay(name: str, lines: Sequence[str]) -> Replay:
    """A record of the one format (:mod:`cardtable.engine.record`), read and checked line by
    line; :func:`check` replays it."""
    try:
        record = read_record(name, lines, GAME_NAME, check_header=_header_complaint)
    except RecordFormatError as error:
        raise ReplayError(error.message, error.line) from None
    header = record.header

    def fail(line: int, reason: str = MALFORMED) -> ReplayError:
        return replay_error(name, line, reason)

    first = seat_of(header.setup.get("first"))
    assert first is not None and header.seed is not None
    try:
        rules = SeatRules(rules_from_json(header.rules.get("ABC")),
                          rules_from_json(header.rules.get("DEF")))
        validate_seat_rules(rules)
    except RulesError as error:
        raise fail(header.line, f"the header's rules: {error.message}") from None
    if set(header.rules) != set(SEATS):
        raise fail(header.line, "the header's rules are not {\"ABC\": ..., \"DEF\": ...}")

    entries = list(record.entries)
    decks: list[tuple[int, ...]] = []
    sources: list[str] = []
    deck_lines: list[int] = []
    for seat in (0, 1):
        if not entries:
            raise fail(record.end_line, f"missing the deck of {SEATS[seat]}")
        entry = entries.pop(0)
        cards, source = _chance_cards(entry, "deck", seat)
        if cards is None or source not in SOURCES or set(entry.obj) != {
                "type", "event", "seat", "source", "cards"}:
            raise fail(entry.line, f"expected the chance line 'deck' of {SEATS[seat]}")
        assert isinstance(source, str)
        decks.append(cards)
        sources.append(source)
        deck_lines.append(entry.line)
    check_random_decks_at(rules, sources, fail, header.line)
    for seat, cards in enumerate(decks):
        if len(set(cards)) != len(cards) or not deck_fits(cards, rules.of(seat), sources[seat]):
            raise fail(deck_lines[seat], CARD_MISMATCH)
    setup_line = entry.line  # the second deck line: a missing mulligan is charged to it

    mulligans: list[RecordedShuffle] = []
    while entries and entries[0].kind == "chance" and entries[0].event == "mulligan":
        entry = entries.pop(0)
        seat_index = seat_of(entry.obj.get("seat"))
        hand = None if seat_index is None else recorded_cards(entry.obj.get("hand"), seat_index)
        cards, _ = _chance_cards(entry, "mulligan", seat_index)
        if seat_index is None or hand is None or cards is None:
            raise fail(entry.line, "a mulligan line is {\"seat\":S,\"hand\":[...],"
                                   "\"cards\":[...]}")
        mulligans.append(RecordedShuffle(entry.line, seat_index, cards, hand))
        setup_line = entry.line

    moves: list[RecordedMove] = []
    result: dict[str, Any] | None = None
    result_line = 0
    for entry in entries:
        if entry.kind == "action":
            moves.append(_read_action(entry, rules, fail))
        elif entry.kind == "chance" and entry.event == "shuffle":
            seat_index = seat_of(entry.obj.get("seat"))
            cards, _ = _chance_cards(entry, "shuffle", seat_index)
            if not moves or seat_index is None or not cards:
                raise fail(entry.line, "a shuffle line follows the move that drew from "
                                       "the reshuffled pile")
            moves[-1].shuffles.append(RecordedShuffle(entry.line, seat_index, cards))
        elif entry.kind == "result":
            result, result_line = entry.obj, entry.line
        else:
            raise fail(entry.line, f"unexpected chance line '{entry.event}'")
    players = {seat.seat: seat.player for seat in header.seats}
    return Replay(name, header.seed, first, rules, players, (decks[0], decks[1]),
                  (sources[0], sources[1]), setup_line, mulligans, moves, result, result_line,
                  record.end_line)


def _header_complaint(header: Header) -> str | None:
    if header.seat_names != SEATS:
        return "the header's seats are not ABC and DEF"
    if seat_of(header.setup.get("first")) is None or set(header.setup) != {"first"}:
        return "the header's 'first' field is not ABC or DEF"
    if header.seed is None:
        return "the header has no seed"
    return None


def _chance_cards(entry: Entry, event: str,
                  seat: int | None) -> tuple[tuple[int, ...] | None, object]:
    """The ``cards`` of a chance line ``event`` of ``seat`` (None when it is not one) and
    its ``source``."""
    if (entry.kind != "chance" or entry.event != event or seat is None
            or seat_of(entry.obj.get("seat")) != seat):
        return None, None
    return recorded_cards(entry.obj.get("cards"), seat), entry.obj.get("source")


def _read_action(entry: Entry, rules: SeatRules,
                 fail: Callable[..., ReplayError]) -> RecordedMove:
    seat = SEATS.index(entry.seat)
    try:
        move = parse_move(entry.text, rules, seat)
    except MoveSyntaxError as error:
        raise fail(entry.line, error.message) from None
    if move is None or move.notation != entry.text or move.seat != seat:
        raise fail(entry.line, f"'{entry.text}' is not a move in notation")
    return RecordedMove(entry.line, move)


def check_random_decks_at(rules: SeatRules, sources: Sequence[str],
                          fail: Callable[..., RecordError], header_line: int) -> None:
    """Refuse, at the header, rules that ``caravan`` would not start a game with, the seats
    whose recorded deck was drawn at random being the seats it deals random decks."""
    random_seats = [seat for seat in (0, 1) if sources[seat] == "random"]
    message = check_random_decks(rules, random_seats)
    if message is not None:
        raise fail(header_line, f"the header's rules: {message}")


def deck_fits(cards: Sequence[int], rules: Rules, source: str) -> bool:
    """Whether a recorded deck is one the seat's rules can produce: a size within the
    limits (exactly ``deck_size`` for a random deck that has one), sample decks within
    ``samples_max``, and no more Jokers per sample deck than a random deck can hold."""
    if not rules.deck_min <= len(cards) <= rules.deck_max:
        return False
    if source == "random" and rules.deck_size is not None and len(cards) != rules.deck_size:
        return False
    jokers = rules.jokers_per_sample if source == "random" else 2
    return all(
        card >> 10 <= rules.samples_max
        and (card & RANK_MASK != JOKER or (card >> 7) & 3 <= jokers)
        for card in cards
    )


