"""Game records as JSON Lines: one object per line, UTF-8, flushed after every line.

Every game writes one format (:data:`FORMAT`): a header line (game, format, cardtable
version, rules, seed, seats), then ``chance`` lines (decks as dealt, reshuffles: what replay
needs to deal the same cards), one ``action`` line per action in the game's notation with its
seat, and a ``result`` line with the result and its cause. The writers are each game's record
listener, or :class:`MatchRecorder` for a game without one; :func:`read_record` reads and
checks the lines, and each game replays them (``cardtable replay`` any game's).
Records of the former dialects (Caravan ``type``/``format`` 1, Obsession ``t``/``v``, the
Austerity hub's ``ev`` lines) are upgraded to this format by
:mod:`cardtable.engine.record_upgrade`, in memory by every replay.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any, BinaryIO, Protocol

from cardtable.engine.bounded_read import MEBIBYTE, read_bounded_lines
from cardtable.engine.errors import RecordError
from cardtable.engine.match import FORFEIT, MatchAbandoned, MatchListener
from cardtable.engine.protocol import GameState, Result
from cardtable.engine.record_lines import FORMAT as FORMAT
from cardtable.engine.record_lines import KIND as KIND
from cardtable.engine.record_lines import Line as Line
from cardtable.engine.record_lines import ReplayLineError as ReplayLineError
from cardtable.engine.record_lines import encode_line as encode_line
from cardtable.engine.record_lines import first_object as first_object
from cardtable.engine.record_lines import replay_message as replay_message
from cardtable.version import __version__

# A record line holds one event (the header with its rules and decks is the longest); a whole
# record is a few hundred lines. These limits only stop files that never end.
MAX_RECORD_LINE_BYTES = MEBIBYTE
MAX_RECORD_BYTES = 64 * MEBIBYTE


class RecordWriteError(RecordError):
    """The record file could not be written; the message names the file and the reason."""


def open_error_message(path: str | Path, error: OSError) -> str:
    """"Cannot open record file 'PATH': REASON." for a record file that cannot be created."""
    return f"Cannot open record file '{path}': {error.strerror or error}."


class RecordWriter:
    """Writes one record. Opening a path that cannot be written raises ``OSError``; a line
    that cannot be written (a full disk, a file size limit) raises :class:`RecordWriteError`
    ("Cannot write record file 'PATH': REASON."). The complete lines written before it stay
    in the file (a partly written line is cut off again) and nothing more is written."""

    def __init__(self, target: str | Path | IO[str], name: str | None = None) -> None:
        self._file: BinaryIO | None = None
        self._stream: IO[str] | None = None
        if isinstance(target, str | Path):
            # Unbuffered: each line goes to the file at once, and a failed line leaves no
            # bytes behind in a buffer for a later flush to write.
            self._file = open(target, "wb", buffering=0)  # noqa: SIM115
            self.name = str(target) if name is None else name
        else:
            self._stream = target
            self.name = str(getattr(target, "name", "")) if name is None else name
        self._size = 0
        self._failure: RecordWriteError | None = None

    def write(self, obj: dict[str, Any]) -> None:
        if self._failure is not None:
            raise self._failure
        try:
            if self._file is not None:
                data = memoryview(encode_line(obj).encode("utf-8"))
                end = self._size + len(data)
                while data:
                    written = self._file.write(data)
                    if not written:
                        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                    data = data[written:]
                self._size = end
            else:
                assert self._stream is not None
                self._stream.write(encode_line(obj))
                self._stream.flush()
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            self._failure = RecordWriteError(f"Cannot write record file '{self.name}': {reason}.")
            self._cut_partial_line()
            raise self._failure from error
        except BaseException:
            # Interrupted in the middle of a line (Ctrl-C): the next line starts cleanly.
            self._cut_partial_line()
            raise

    def _cut_partial_line(self) -> None:
        """Cut the file back to its last complete line (a device such as /dev/full cannot
        be cut, and has nothing to cut)."""
        if self._file is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if self._file.tell() > self._size:
                self._file.truncate(self._size)

    def close(self) -> None:
        if self._file is not None and not self._file.closed:
            with contextlib.suppress(OSError):
                self._file.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


# ---------------------------------------------------------------- replay messages

MISSING_RESULT = "missing result line"
"""The reason given for a record that ends before the game did (its program was killed, or
the file was cut short)."""

def not_finished_message(cause: str) -> str:
    """What a replay says at the end of a record of a game that was left unfinished."""
    return f"The recorded game was not finished ({cause})."


def record_game(lines: Sequence[str]) -> str | None:
    """The game a record belongs to, told by its first non-blank line: the header of the one
    format names it (a game cardtable knows); a record of a former dialect is told by its
    game's reader of that dialect (:func:`cardtable.engine.record_upgrade.former_game`).
    None when the line says none."""
    obj = first_object(lines)
    if obj is None:
        return None
    from cardtable.engine.game_registry import names

    game = obj.get("game")
    if obj.get(KIND) == "header" and isinstance(game, str) and game in names():
        return game
    from cardtable.engine.record_upgrade import former_game

    return former_game(obj)


def other_game_message(path: str | Path, lines: Sequence[str], game: str) -> str | None:
    """The complaint about a record of another game than ``game`` given to its replay
    (naming the command that replays it, the description's ``replay_command``), or None when
    the record may be ``game``'s."""
    found = record_game(lines)
    if found is None or found == game:
        return None
    from cardtable.engine.game_registry import description

    described = description(found)
    article = "an" if described.title[:1] in tuple("AEIOU") else "a"
    return (f"Replay '{path}': this is {article} {described.title} record; "
            f"replay it with: {described.replay_command} {shlex.quote(str(path))}")


def parse_lines(
    lines: Sequence[str], kind_key: str = "type"
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for every non-blank line; a line that is not a JSON
    object with a string ``kind_key`` (the line's kind) raises ``RecordError``."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            # JSONDecodeError, or an integer of more digits than int() converts.
            raise RecordError("malformed line", number) from None
        if not isinstance(obj, dict) or not isinstance(obj.get(kind_key), str):
            raise RecordError("malformed line", number)
        yield number, obj


def read_lines(path: str | Path) -> list[str]:
    """The lines of a record file; ``OSError`` and ``UnicodeDecodeError`` pass through.

    A line longer than ``MAX_RECORD_LINE_BYTES`` or a file larger than ``MAX_RECORD_BYTES``
    raises :class:`~cardtable.engine.bounded_read.FileTooLarge` (its ``reason`` says which).
    """
    data = read_bounded_lines(path, MAX_RECORD_LINE_BYTES, MAX_RECORD_BYTES)
    return data.decode("utf-8").splitlines()



# ---------------------------------------------------------------- the one record format

# FORMAT and KIND (from cardtable.engine.record_lines): the format's number, the key of a
# line's kind.
ABANDONED = "abandoned"
"""The ``reason`` of the result line of a game that stopped before its end."""
# FORFEIT (from cardtable.engine.match): the reason and cause of a game a seat forfeited.


@dataclass(frozen=True)
class SeatEntry:
    """One seat of the header: its name and who sat there (``human`` or ``bot:NAME``, or
    for the Austerity hub the player program)."""

    seat: str
    player: str


def header_line(game: str, rules: Mapping[str, Any], seed: int | None,
                seats: Sequence[SeatEntry], **setup: Any) -> Line:
    """The first line of a record. ``setup`` holds what a game needs beyond its rules and
    seed to deal the same game (Caravan: ``first``, the seat that moves first)."""
    return {KIND: "header", "game": game, "format": FORMAT, "cardtable": __version__,
            "rules": dict(rules), "seed": seed,
            "seats": [{"seat": entry.seat, "player": entry.player} for entry in seats],
            **setup}


def chance_line(event: str, **fields: Any) -> Line:
    """A chance event the replay needs: a deck as dealt, a reshuffle ... (``event`` says which)."""
    return {KIND: "chance", "event": event, **fields}


def action_line(seat: str, action: str) -> Line:
    """An action of ``seat`` in the game's notation (``state.action_text`` before it)."""
    return {KIND: "action", "seat": seat, "action": action}


def result_line(winners: Sequence[str], reason: str, cause: str,
                details: Mapping[str, Any]) -> Line:
    """The last line: the winners (none for a draw or an abandoned game), the game's reason
    (``abandoned`` for a game that stopped unfinished), the cause (the reason again for a
    finished game; ``quit``, ``eof``, ``interrupt``, ``sigterm``, ``sighup``, ``stalemate``
    ... for an abandoned one) and the game's own details."""
    return {KIND: "result", "winners": list(winners), "reason": reason, "cause": cause,
            "details": dict(details)}


def forfeit_line(winners: Sequence[str], seat: str, why: str,
                 details: Mapping[str, Any]) -> Line:
    """The result line of a game ``seat`` forfeited (reason and cause ``forfeit``): the game's
    details as it stood, with the seat and why."""
    return result_line(winners, FORFEIT, FORFEIT, {**details, "seat": seat, "why": why})


def recorded_forfeit(line: Mapping[str, Any]) -> tuple[str, str] | None:
    """``(seat, why)`` of a result line that says a seat forfeited, else None."""
    if line.get("reason") != FORFEIT:
        return None
    details = line.get("details")
    seat = details.get("seat") if isinstance(details, dict) else None
    why = details.get("why") if isinstance(details, dict) else None
    if not isinstance(seat, str) or not isinstance(why, str):
        return None
    return seat, why


class LineSink(Protocol):
    """Where record lines go: a :class:`RecordWriter`, or anything with its ``write``."""

    def write(self, obj: dict[str, Any]) -> None: ...


class MatchRecorder(MatchListener):
    """The record of one game of any game, as a match listener: the header at once (the
    ``rules`` a game's description gives with ``record_rules``, the seed, the seats), an
    action line per action in the game's notation (``state.action_text`` before the action)
    and the result line: the game's result (reason and cause the same), ``abandoned`` with
    its cause for a game that stopped before its end, or ``forfeit``.

    A game that records more than its rules, seed and actions (a deck dealt from a file, the
    seat that moves first) writes its own record; :func:`cardtable.engine.record_replay.
    replay_record` reads this one back through the game's description.
    """

    def __init__(self, sink: LineSink, game: str, rules: Mapping[str, Any], seed: int | None,
                 seats: Sequence[SeatEntry]) -> None:
        self.sink = sink
        self.before: Any = None
        """The state before the action about to be taken: its notation depends on it."""
        self.ended = False
        sink.write(header_line(game, rules, seed, seats))

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        self.before = state.clone()

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        before: Any = self.before if self.before is not None else state
        self.sink.write(action_line(seat, before.action_text(action)))
        self.before = None

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        if self.ended:
            return
        self.ended = True
        details = {key: value for key, value in result.details.items()
                   if result.reason != FORFEIT or key not in ("seat", "why")}
        if result.reason == FORFEIT:
            self.sink.write(forfeit_line(result.winners, str(result.details.get("seat")),
                                         str(result.details.get("why")), details))
        else:
            self.sink.write(result_line(result.winners, result.reason, result.reason, details))

    def on_abandon(self, state: GameState[Any, Any], abandoned: MatchAbandoned) -> None:
        self.abandon(abandoned.cause)

    def abandon(self, cause: str) -> None:
        """Record that the game stopped before its end (nothing once a result is written)."""
        if not self.ended:
            self.ended = True
            self.sink.write(result_line((), ABANDONED, cause, {}))


@dataclass(frozen=True)
class Header:
    line: int
    game: str
    format: int
    cardtable: str
    rules: dict[str, Any]
    seed: int | None
    seats: tuple[SeatEntry, ...]
    setup: dict[str, Any]
    """The header's other fields (a game's setup beyond its rules and seed)."""

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(entry.seat for entry in self.seats)


@dataclass(frozen=True)
class Entry:
    """A line after the header: ``kind`` (``chance``, ``action`` or ``result``) and the
    whole object; ``seat``/``text`` are set for an action, ``event`` for a chance line."""

    line: int
    kind: str
    obj: Line
    seat: str = ""
    text: str = ""
    event: str = ""


@dataclass(frozen=True)
class Record:
    """A record read and checked line by line (not yet replayed)."""

    path: str
    header: Header
    entries: tuple[Entry, ...]
    end_line: int
    """The number of the line after the last one (where a missing result line belongs)."""

    @property
    def result(self) -> Entry | None:
        last = self.entries[-1] if self.entries else None
        return last if last is not None and last.kind == "result" else None

    @property
    def actions(self) -> tuple[Entry, ...]:
        return tuple(entry for entry in self.entries if entry.kind == "action")


class RecordFormatError(RecordError):
    """A line that is not a line of the one record format: "Replay 'FILE', line L: REASON."."""


HEADER_FIELDS = ("game", "format", "cardtable", "rules", "seed", "seats")


def _field_error(path: str, line: int, reason: str) -> RecordFormatError:
    return RecordFormatError(replay_message(path, line, reason), line)


def read_header(path: str, line: int, obj: Line, game: str) -> Header:
    """The header ``obj`` (found at ``line``) of a record of ``game``, every field checked."""

    def fail(reason: str) -> RecordFormatError:
        return _field_error(path, line, reason)

    if obj.get(KIND) != "header":
        raise fail("the first line is not a record header")
    for name in HEADER_FIELDS:
        if name not in obj:
            raise fail(f"the header has no '{name}' field")
    if obj["game"] != game:
        raise fail(f"the header's game is {json.dumps(obj['game'])}, not \"{game}\"")
    version = obj["format"]
    if version != FORMAT or isinstance(version, bool):
        raise fail(f"record format {json.dumps(version)} is not one this version reads "
                   f"(1 and {FORMAT})")
    if not isinstance(obj["cardtable"], str):
        raise fail("the header's 'cardtable' field is not a version string")
    rules = obj["rules"]
    if not isinstance(rules, dict):
        raise fail("the header's 'rules' field is not an object")
    seed = obj["seed"]
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise fail("the header's 'seed' field is not a whole number >= 0")
    raw_seats = obj["seats"]
    if not isinstance(raw_seats, list) or not raw_seats:
        raise fail("the header's 'seats' field is not a list of seats")
    seats: list[SeatEntry] = []
    for raw in raw_seats:
        if (not isinstance(raw, dict) or set(raw) != {"seat", "player"}
                or not isinstance(raw["seat"], str) or not isinstance(raw["player"], str)):
            raise fail("a seat of the header is not {\"seat\": NAME, \"player\": WHO}")
        seats.append(SeatEntry(raw["seat"], raw["player"]))
    if len({entry.seat for entry in seats}) != len(seats):
        raise fail("the header names a seat twice")
    setup = {key: value for key, value in obj.items()
             if key not in HEADER_FIELDS and key != KIND}
    return Header(line, game, FORMAT, obj["cardtable"], rules, seed, tuple(seats), setup)


def _read_entry(path: str, number: int, obj: Line, seats: Sequence[str]) -> Entry:
    def fail(reason: str) -> RecordFormatError:
        return _field_error(path, number, reason)

    kind = obj[KIND]
    if kind == "action":
        seat, text = obj.get("seat"), obj.get("action")
        if set(obj) != {KIND, "seat", "action"} or not isinstance(text, str):
            raise fail("an action line is {\"type\":\"action\",\"seat\":SEAT,\"action\":TEXT}")
        if seat not in seats:
            raise fail(f"the action's seat {json.dumps(seat)} is not a seat of the header")
        assert isinstance(seat, str)
        return Entry(number, kind, obj, seat=seat, text=text)
    if kind == "chance":
        event = obj.get("event")
        if not isinstance(event, str):
            raise fail("a chance line has no 'event' name")
        return Entry(number, kind, obj, event=event)
    if kind == "result":
        winners, details = obj.get("winners"), obj.get("details")
        if (set(obj) != {KIND, "winners", "reason", "cause", "details"}
                or not isinstance(obj.get("reason"), str)
                or not isinstance(obj.get("cause"), str) or not isinstance(details, dict)
                or not isinstance(winners, list)):
            raise fail("a result line is {\"type\":\"result\",\"winners\":[...],"
                       "\"reason\":R,\"cause\":C,\"details\":{...}}")
        if any(winner not in seats for winner in winners):
            raise fail("a winner of the result line is not a seat of the header")
        return Entry(number, kind, obj)
    if kind == "header":
        raise fail("a second header")
    raise fail(f"unknown kind of line {json.dumps(kind)}")


def read_record(path: str | Path, lines: Sequence[str], game: str,
                extra_kinds: Iterable[str] = (),
                check_header: Callable[[Header], str | None] | None = None) -> Record:
    """Read ``lines`` (of the file ``path``) as a record of ``game`` in the one format:
    every line a JSON object with a ``type``, the header's fields, the seats of actions and
    results, nothing after the result line. ``extra_kinds`` are kinds of line a game adds
    and replay passes over (the Austerity hub's ``message`` lines). ``check_header`` gives
    the game's own complaint about the header (its seats, its setup), or None.

    Raises :class:`RecordFormatError` ("Replay 'FILE', line L: REASON.") at the first line
    that is wrong; a record of another game gets :func:`other_game_message`. A record
    without a result line is returned (``result`` is None): the caller replays what is
    there and then says :data:`MISSING_RESULT`.
    """
    name = str(path)
    other = other_game_message(name, lines, game)
    if other is not None:
        raise RecordFormatError(other, 1)
    passed = frozenset(extra_kinds)
    objects = _read_objects(name, lines)
    first = next(objects, None)
    if first is None:
        raise _field_error(name, 1, "the record is empty")
    header = read_header(name, first[0], first[1], game)
    complaint = None if check_header is None else check_header(header)
    if complaint is not None:
        raise _field_error(name, header.line, complaint)
    entries: list[Entry] = []
    for number, obj in objects:
        if entries and entries[-1].kind == "result":
            raise _field_error(name, number, "a line after the result line")
        if obj[KIND] in passed:
            continue
        entries.append(_read_entry(name, number, obj, header.seat_names))
    return Record(name, header, tuple(entries), len(lines) + 1)


def _read_objects(path: str, lines: Sequence[str]) -> Iterator[tuple[int, Line]]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            raise _field_error(path, number, "malformed line") from None
        if not isinstance(obj, dict) or not isinstance(obj.get(KIND), str):
            raise _field_error(path, number, 'malformed line (not an object with a "type")')
        yield number, obj


def start_complaint(lines: Sequence[str]) -> tuple[int, str] | None:
    """Where and why ``lines`` cannot be a record at all: ``(1, "the record is empty")``, or
    the first non-blank line that is not JSON (``malformed line``) or not a JSON object;
    None when they start with an object (whose header the readers then check)."""
    first = next(((number, text) for number, text in enumerate(lines, start=1)
                  if text.strip()), None)
    if first is None:
        return 1, "the record is empty"
    number, text = first
    try:
        obj = json.loads(text)
    except ValueError:
        return number, "malformed line"
    if not isinstance(obj, dict):
        return number, 'malformed line (not an object with a "type")'
    return None
