"""``austerity --record FILE``: the hub's game in the one record format, and reading it back.

The record (see :mod:`cardtable.engine.record`) holds the ``header`` (rules: ``tokens``,
``points``, ``players``; no seed, for the game has no chance; seats ``A``, ``B``, ... with
the player program each runs), a ``chance`` line ``deck`` (the deck file's cards in the order
they are dealt), one ``action`` line per valid reply in the protocol's notation
(``takeP,B,Y,R``, ``purchaseC:P,B,Y,R,W``, ``wild``) and the ``result`` line: the winners and
reason of the game (``points`` or ``market_empty``) or, for a game that did not end, reason
``abandoned`` and the hub's cause (``disconnect``, ``timeout``, ``protocol``, ``sigint``,
``badstart``). Its details give each player's points, the hub's exit status and each
program's status (``"exit N"``, ``"signal N"``, or null if never started).

The conversation itself is kept too, as ``message`` lines that replay passes over: the
hub's messages (``send``, to a letter or ``*``), its standard output (``out``), replies that
were refused (``recv``, bytes decoded as Latin-1 so that any garbage survives) and timeouts.

The hub calls :class:`Recorder` with the events of its conversation. A hub record of the
former dialect (one ``ev`` object per event: those same events) is upgraded to the one format
first (:mod:`cardtable.games.austerity.former_record`), by the same recorder.
"""

import io

RECORD_VERSION = 1
"""The version the hub gives its ``start`` event (the former ``ev`` records wrote it; the one
format has its own ``format`` instead)."""

GAME_NAME = "austerity"
MESSAGE = "message"
"""The kind of the conversation lines that replay passes over."""


class Recorder:
    """Writes one record file as the hub reports its events (``start``, ``send``, ``recv``,
    ``out``, ``timeout``, ``end``). Opening a path that cannot be created raises
    ``OSError``; a line that cannot be written stops the recording, never the game."""

    def __init__(self, path: str) -> None:
        # json (with re and enum behind it) is loaded only when a record is asked for: the
        # hub without --record starts faster.
        import json

        self._dumps = json.dumps
        self._stream: io.TextIOWrapper | None = open(path, "w", encoding="utf-8")  # noqa: SIM115
        self._state: object = None
        """The game as the record stands (an ``AusterityState``), from which each action is
        written in notation and the result gets its reason."""

    def _line(self, obj: dict[str, object]) -> None:
        if self._stream is None:
            return
        try:
            self._stream.write(self._dumps(obj, separators=(",", ":")) + "\n")
            self._stream.flush()
        except (OSError, ValueError):
            # A full disk must not change how the game ends: stop recording instead.
            self._stream = None

    def stopped(self) -> bool:
        """Whether nothing more is written (the file is closed, or a line failed)."""
        return self._stream is None

    def write(self, ev: str, **fields: object) -> None:
        if self.stopped():
            return
        if ev == "start":
            for line in start_lines(fields):
                self._line(line)
            self._state = _state_of(fields)
        elif ev == "recv" and fields.get("valid") is True:
            self._line(self._action(str(fields["from"]), str(fields["msg"])))
        elif ev == "end":
            self._line(self._result(fields))
        else:
            self._line({"type": MESSAGE, "event": ev, **fields})

    def _action(self, seat: str, message: str) -> dict[str, object]:
        from cardtable.engine.record import action_line
        from cardtable.games.austerity.state import AusterityState

        state = self._state
        text = message
        if isinstance(state, AusterityState):
            try:
                action = state.parse_action(message)
                text = state.action_text(action)
                state.apply(action)
            except Exception:  # the record must never stop the hub
                self._state = None
        return action_line(seat, text)

    def _result(self, fields: dict[str, object]) -> dict[str, object]:
        from cardtable.engine.record import ABANDONED, result_line
        from cardtable.games.austerity.state import AusterityState

        reason = str(fields.get("reason"))
        winners = fields.get("winners")
        details = {"points": fields.get("points"), "exit": fields.get("exit"),
                   "status": fields.get("status")}
        if reason != "normal":
            return result_line((), ABANDONED, reason, details)
        state = self._state
        ended = state.result if isinstance(state, AusterityState) else None
        why = "points" if ended is None else ended.reason
        return result_line([str(seat) for seat in winners] if isinstance(winners, list) else (),
                           why, why, details)

    def close(self) -> None:
        if self._stream is not None:
            try:  # noqa: SIM105 (contextlib would slow the start)
                self._stream.close()
            except OSError:
                pass
            self._stream = None


class RecordLines(Recorder):
    """A :class:`Recorder` that keeps its lines (``lines``) instead of writing a file."""

    def __init__(self) -> None:
        self.lines: list[dict[str, object]] = []
        self._stream = None
        self._state = None

    def stopped(self) -> bool:
        return False

    def _line(self, obj: dict[str, object]) -> None:
        self.lines.append(obj)


def message_text(data: bytes) -> str:
    """A protocol line for the record: without its ``\\n``, any byte kept (Latin-1)."""
    return data.rstrip(b"\n").decode("latin-1")


def start_lines(fields: dict[str, object]) -> list[dict[str, object]]:
    """The header and the deck line, from the hub's ``start`` event."""
    from cardtable.engine.record import SeatEntry, chance_line, header_line
    from cardtable.games.austerity.rules import letter

    players = fields.get("players")
    programs = [str(program) for program in players] if isinstance(players, list) else []
    rules = {"tokens": fields.get("tokens"), "points": fields.get("points"),
             "players": len(programs)}
    seats = [SeatEntry(letter(index), program) for index, program in enumerate(programs)]
    return [header_line(GAME_NAME, rules, None, seats), chance_line("deck", cards=fields["deck"])]


def _state_of(fields: dict[str, object]) -> object:
    """The game the hub starts (None when the players are too few for one)."""
    from cardtable.games.austerity.state import AusterityState

    deck = deck_cards(fields.get("deck"))
    players = fields.get("players")
    tokens, points = fields.get("tokens"), fields.get("points")
    if (deck is None or not isinstance(players, list) or not isinstance(tokens, int)
            or not isinstance(points, int) or len(players) < 2):
        return None
    try:
        return AusterityState(deck, tokens, points, len(players))
    except Exception:  # the record must never stop the hub
        return None


def deck_cards(texts: object) -> list["Card"] | None:
    """The cards a record lists (``B:1:0,1,0,1``), or None when one is not a card."""
    from cardtable.games.austerity.codec import parse_card

    if not isinstance(texts, list):
        return None
    cards = []
    for text in texts:
        card = parse_card(text.encode("utf-8")) if isinstance(text, str) else None
        if card is None:
            return None
        cards.append(card)
    return cards


# ---------------------------------------------------------------------- reading records

# Not ``typing.TYPE_CHECKING``: the hub imports this module and must start fast.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from cardtable.engine.record_replay import ReplayedMatch
    from cardtable.games.austerity.rules import Card
    from cardtable.games.austerity.state import AusterityState


class HubRecord:
    """A hub record read line by line: the game it sets up, its actions and its result."""

    def __init__(self, path: str, tokens: int, points: int, deck: "list[Card]",
                 players: "list[str]", actions: "list[tuple[int, str, str]]",
                 result: "tuple[int, dict[str, object]] | None", end_line: int,
                 deck_line: int, shown: "list[tuple[int, str, str]]") -> None:
        self.path = path
        self.tokens = tokens
        self.points = points
        self.deck = deck
        self.players = players
        self.actions = actions
        """``(line, seat, action text)`` for every action, in order."""
        self.result = result
        """``(line, result line)``."""
        self.end_line = end_line
        self.deck_line = deck_line
        """The line of the deck (the chance line ``deck``)."""
        self.shown = shown
        """``(line, event, text)`` for each card the conversation shows turned up, in order:
        the ``send`` of ``newcard…`` (``event`` ``send``) and the ``New card = …`` standard
        output line (``out``). Replay checks them against the deck line."""


def shown_card(obj: "dict[str, object]") -> "tuple[str, str] | None":
    """``(event, text)`` when the conversation line ``obj`` shows a card turned up."""
    event = obj.get("event")
    if event == "send" and isinstance(obj.get("msg"), str) and str(obj["msg"]).startswith(
            "newcard"):
        return "send", str(obj["msg"])
    if event == "out" and isinstance(obj.get("line"), str) and str(obj["line"]).startswith(
            "New card"):
        return "out", str(obj["line"])
    return None


def _shown_cards(lines: "Sequence[str]") -> list[tuple[int, str, str]]:
    """The cards shown turned up by the ``message`` lines of a record of the one format."""
    import json

    shown = []
    for number, text in enumerate(lines, start=1):
        if '"message"' not in text:
            continue
        obj = json.loads(text)  # read_record has checked every line
        if isinstance(obj, dict) and obj.get("type") == MESSAGE:
            card = shown_card(obj)
            if card is not None:
                shown.append((number, *card))
    return shown


def read_hub_record(path: str, lines: "Sequence[str]") -> HubRecord:
    """Read the hub record ``lines`` (of the file ``path``; a record of the former ``ev``
    dialect is upgraded first, in memory); raises
    :class:`~cardtable.engine.errors.RecordError` ("Replay 'FILE', line L: REASON.", or the
    message naming another game's record) at the first wrong line."""
    from cardtable.engine.errors import RecordError
    from cardtable.engine.record import (
        RecordFormatError,
        other_game_message,
        read_record,
        replay_message,
    )
    from cardtable.engine.record_upgrade import current_lines

    other = other_game_message(path, lines, GAME_NAME)
    if other is not None:
        raise RecordError(other, 1)
    lines = current_lines(path, lines)
    try:
        record = read_record(path, lines, GAME_NAME, extra_kinds=(MESSAGE,),
                             check_header=_header_complaint)
    except RecordFormatError as error:
        raise RecordError(error.message, error.line) from None
    header = record.header
    entries = list(record.entries)
    deck = None
    if entries and entries[0].kind == "chance" and entries[0].event == "deck":
        deck = deck_cards(entries[0].obj.get("cards"))
    if deck is None:
        line = entries[0].line if entries else record.end_line
        raise RecordError(replay_message(path, line, "expected the chance line 'deck'"), line)
    actions: list[tuple[int, str, str]] = []
    result = None
    for entry in entries[1:]:
        if entry.kind == "action":
            actions.append((entry.line, entry.seat, entry.text))
        elif entry.kind == "result":
            result = (entry.line, entry.obj)
        else:
            raise RecordError(replay_message(path, entry.line, "unexpected chance line"),
                              entry.line)
    rules = header.rules
    return HubRecord(path, int(rules["tokens"]), int(rules["points"]), deck,
                     [entry.player for entry in header.seats], actions, result, record.end_line,
                     entries[0].line, _shown_cards(lines))


def _header_complaint(header: object) -> str | None:
    from cardtable.engine.record import Header
    from cardtable.games.austerity.rules import letter

    assert isinstance(header, Header)
    rules = header.rules
    numbers = [rules.get(name) for name in ("tokens", "points", "players")]
    if set(rules) != {"tokens", "points", "players"} or not all(
            isinstance(value, int) and not isinstance(value, bool) and value >= 0
            for value in numbers):
        return "the header's rules are not {\"tokens\": T, \"points\": P, \"players\": N}"
    if header.seat_names != tuple(letter(index) for index in range(len(header.seats))) or (
            len(header.seats) != rules["players"]):
        return "the header's seats are not A, B, ... one per player"
    if header.setup:
        return f"the header has a field it should not: '{next(iter(header.setup))}'"
    return None


def replay_hub_record(record: HubRecord) -> "AusterityState":
    """Play ``record`` again: every action by the seat to move, accepted by the rules, every
    card the conversation shows turned up being the deck line's next card, and the result as
    recorded (for a game that ended: its winners, reason and each player's points). Returns
    the state after the last action; raises :class:`~cardtable.engine.errors.RecordError` at
    the first line that does not fit.
    """
    from cardtable.engine.errors import GameError
    from cardtable.engine.record import ABANDONED, MISSING_RESULT, ReplayLineError
    from cardtable.games.austerity.state import AusterityState

    def fail(line: int, reason: str) -> ReplayLineError:
        return ReplayLineError(record.path, line, reason)

    if len(record.players) < 2:
        raise fail(1, "an Austerity game needs two players or more")
    _check_shown(record, None, False, fail)
    state = AusterityState(list(record.deck), record.tokens, record.points, len(record.players))
    for line, seat, text in record.actions:
        if state.to_move != seat:
            raise fail(line, f"{seat} is not the seat to move")
        try:
            state.apply(state.parse_action(text))
        except GameError as error:
            raise fail(line, error.message) from None
    if record.result is None:
        raise fail(record.end_line, MISSING_RESULT)
    line, result = record.result
    ended = state.result
    _check_shown(record, state, result["reason"] != ABANDONED, fail)
    _check_points(record, state, fail)
    if result["reason"] == ABANDONED:
        if ended is not None:
            raise fail(line, "the game is over, but the result line says abandoned")
        return state
    if ended is None:
        raise fail(line, "the game is not over at the result line")
    if list(ended.winners) != result["winners"]:
        raise fail(line, f"the winners should be {list(ended.winners)}")
    if result["reason"] != ended.reason:
        raise fail(line, f"the reason should be {ended.reason}")
    return state


def _check_shown(record: HubRecord, state: "AusterityState | None", ended: bool,
                 fail: "Callable[[int, str], Exception]") -> None:
    """Every card the conversation shows turned up is the deck line's next one. Once the
    game is replayed (``state``), no more were shown than the replay turned up and, for a game
    that ``ended`` (rather than being abandoned), none is missing. A record without the
    conversation (a web table's) has nothing to check."""
    from cardtable.games.austerity.codec import newcard_line

    if not record.shown:
        return
    deck = record.deck
    turned = len(deck) if state is None else state.game.next_card
    counts = {"send": 0, "out": 0}
    for line, event, text in record.shown:
        index = counts[event]
        counts[event] = index + 1
        if index >= turned:
            raise fail(line, f"this card was not turned up: the deck line (line "
                             f"{record.deck_line}) and the actions turn up {turned} cards")
        expected = ("newcard" + deck[index].text() if event == "send"
                    else newcard_line(deck[index])[:-1])
        if text != expected:
            raise fail(line, f"the card turned up here is not the deck line's card "
                             f"{index + 1}, {deck[index].text()} (line {record.deck_line})")
    if ended and state is not None:
        for event, count in counts.items():
            if count < turned:
                where = record.result[0] if record.result is not None else record.end_line
                raise fail(where, f"the record shows {count} cards turned up ({event} lines), "
                                  f"but the deck line (line {record.deck_line}) and the "
                                  f"actions turn up {turned}")


def _check_points(record: HubRecord, state: "AusterityState",
                  fail: "Callable[[int, str], Exception]") -> None:
    """The result line's points are the players' points in the replayed game. A hub stopped
    before its game was set up records no points (``[]``), as does a web table abandoned."""
    if record.result is None:
        return
    line, result = record.result
    details = result.get("details")
    points = details.get("points") if isinstance(details, dict) else None
    expected = list(state.table.points)
    if points is None or (points == [] and not record.actions):
        return
    if points != expected:
        raise fail(line, f"the points should be {expected}")


def replayed_match(path: str, lines: "Sequence[str]") -> "ReplayedMatch":
    """The hub record ``lines`` (of the file ``path``) read, checked and replayed
    (:func:`read_hub_record`, :func:`replay_hub_record`), for ``cardtable replay``: the game as
    the hub started it, its actions and how it ended. Raises
    :class:`~cardtable.engine.errors.RecordError` at the first line that does not fit."""
    from cardtable.engine.errors import RecordError
    from cardtable.engine.record import ABANDONED, MISSING_RESULT, ReplayLineError
    from cardtable.engine.record_replay import ReplayedMatch, ReplayStep
    from cardtable.games.austerity.rules import letter
    from cardtable.games.austerity.state import AusterityState

    record = read_hub_record(path, lines)
    missing: RecordError | None = None
    try:
        state = replay_hub_record(record)
    except ReplayLineError as error:
        if record.result is not None or error.line != record.end_line:
            raise
        missing = ReplayLineError(path, record.end_line, MISSING_RESULT)
        state = None
    start = AusterityState(list(record.deck), record.tokens, record.points, len(record.players))
    steps = tuple(ReplayStep(line, seat, text) for line, seat, text in record.actions)
    cause = None
    if record.result is not None and record.result[1]["reason"] == ABANDONED:
        cause = str(record.result[1]["cause"])
    result = None if state is None or cause is not None else state.result
    players = tuple((letter(index), player) for index, player in enumerate(record.players))
    return ReplayedMatch(path, GAME_NAME, players, None, start, steps, result, cause, missing)
