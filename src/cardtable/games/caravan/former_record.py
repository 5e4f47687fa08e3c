"""Caravan records of the former dialect, read, checked and upgraded to the one format.

The former dialect (``{"type":"header","game":"caravan","format":1,...}``) held the header
(seed, first seat, both seats' rules, ``players``), a ``deck`` line per seat, a ``mulligan``
line per reshuffle mulligan (the hand shown and the new ``deck``), a ``move`` line per move
(``ply``, ``move`` as ``ABC:P2B``, and the identities of the ``card`` played and its
``target``), a ``shuffle`` line per discard pile that became a deck, and the ``result``
(``winner``, ``reason``, ``lanes``, ``plies``, and the ``cause`` of a game that was quit).

:data:`CARAVAN_FORMER` replays such a record with every check its replay made (the ply
numbers, the identities of the cards each move used, the result's fields; a line that does not
fit is refused with its number) and writes it again with :class:`GameRecorder`, exactly as
``caravan --record`` records that game today. Each line of the upgraded record comes from one
line of the former record, in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardtable.engine.errors import RecordError
from cardtable.engine.record import Line, parse_lines
from cardtable.engine.record_upgrade import Upgraded, UpgradeError
from cardtable.games.caravan.cards import SEATS, identity, parse_identity
from cardtable.games.caravan.errors import MoveSyntaxError, RulesError
from cardtable.games.caravan.notation import parse_move
from cardtable.games.caravan.record import (
    CARD_MISMATCH,
    GAME_NAME,
    MALFORMED,
    SOURCES,
    GameRecorder,
    RecordedMove,
    RecordedShuffle,
    Replay,
    ReplayError,
    check_random_decks_at,
    deck_fits,
    recorded_cards,
    seat_of,
)
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.rules_assembly import rules_from_json, validate_seat_rules
from cardtable.games.caravan.state import CaravanState

FORMER_FORMAT = 1
"""The ``format`` of the former dialect's header."""

Fail = Callable[..., UpgradeError]
Cards = tuple[str | None, str | None]
"""The identities a ``move`` line says its card and its target were (None: no target)."""


class _Lines:
    """Collects the lines :class:`GameRecorder` writes."""

    def __init__(self) -> None:
        self.lines: list[Line] = []

    def write(self, obj: dict[str, Any]) -> None:
        self.lines.append(obj)


class CaravanFormer:
    """The reader of Caravan's former record dialect (``GameDescription.former_records``)."""

    def recognizes(self, first: Mapping[str, Any]) -> bool:
        version = first.get("format")
        return (first.get("type") == "header" and first.get("game") == GAME_NAME
                and isinstance(version, int) and not isinstance(version, bool)
                and version == FORMER_FORMAT)

    def upgrade(self, path: str, lines: Sequence[str]) -> Upgraded:
        def fail(line: int, reason: str = MALFORMED) -> UpgradeError:
            return UpgradeError(path, line, reason)

        try:
            entries = list(parse_lines(lines))
        except RecordError as error:
            raise fail(error.line) from None
        if not entries:
            raise fail(1)
        replay, cards = _read_setup(path, entries, fail, max(1, len(lines)))
        replay.end_line = len(lines) + 1
        try:
            written = _replay(replay, cards, fail)
        except ReplayError as error:
            raise UpgradeError(path, error.line, error.reason) from None
        numbers = tuple(number for number, _ in entries)
        if len(written) != len(numbers):  # every former line gives one line, in order
            numbers = tuple(numbers[min(index, len(numbers) - 1)]
                            for index in range(len(written)))
        return Upgraded(GAME_NAME, tuple(written), numbers)


CARAVAN_FORMER = CaravanFormer()


def _replay(replay: Replay, cards: Sequence[Cards], fail: Fail) -> list[Line]:
    """Play ``replay`` again, checking the card identities of each move and the result, and
    write it as :class:`GameRecorder` records it."""
    sink = _Lines()
    recorder = GameRecorder(sink, replay.path, replay.players, replay.sources)
    game = replay.start()
    recorder.start(game)
    for step, (card, target) in zip(replay.moves, cards, strict=True):
        event = replay.apply(game, step)
        played = None if event.card is None else identity(event.card)
        aimed = None if event.target is None else identity(event.target)
        if played != card or aimed != target:
            raise fail(step.line, CARD_MISMATCH)
        recorder.on_action(game, SEATS[step.move.seat], step.move, event)
    if replay.result is not None:
        _finish(replay, game, fail)
        assert game.result is not None
        recorder.on_end(game, game.result)
    return sink.lines


def result_fields(game: CaravanState) -> dict[str, Any]:
    """The former dialect's ``result`` line of the game as it ended."""
    result = game.result
    assert result is not None
    line: dict[str, Any] = {
        "type": "result",
        "winner": result.winners[0] if result.winners else None,
        "reason": result.reason,
        "lanes": list(result.details.get("lanes", [])),
        "plies": result.details.get("plies", 0),
    }
    if result.reason == "quit":
        line["cause"] = result.details.get("cause", "quit")
    return line


def _finish(replay: Replay, game: CaravanState, fail: Fail) -> None:
    """Check the former result line against ``game`` (abandoning the game where it says the
    game was quit)."""
    recorded = replay.result
    assert recorded is not None
    if recorded.get("reason") == "quit":
        if game.result is not None or recorded.get("winner") is not None:
            raise fail(replay.result_line)
        cause = recorded.get("cause", "quit")
        game.abandon(cause if isinstance(cause, str) else "quit")
    elif game.result is None:
        raise fail(replay.result_line)
    expected = result_fields(game)
    for key in ("winner", "reason", "lanes", "plies"):
        if recorded.get(key) != expected[key]:
            raise fail(replay.result_line)


def _card_text(value: object) -> tuple[bool, str | None]:
    """(valid, identity) for a move line's ``card``/``target`` field."""
    if value is None:
        return True, None
    if isinstance(value, str) and any(
        parse_identity(value, owner) is not None for owner in (0, 1)
    ):
        return True, value
    return False, None


def _read_setup(name: str, entries: list[tuple[int, dict[str, Any]]], fail: Fail,
                last_line: int) -> tuple[Replay, list[Cards]]:
    """The former record read line by line (not yet replayed), with the card identities its
    moves name."""
    number, header = entries[0]
    if header.get("type") != "header" or header.get("game") != GAME_NAME:
        raise fail(number)
    seed, first = header.get("seed"), seat_of(header.get("first"))
    rules_data, players = header.get("rules"), header.get("players")
    if (header.get("format") != FORMER_FORMAT or not isinstance(seed, int)
            or isinstance(seed, bool) or seed < 0 or first is None
            or not isinstance(rules_data, dict) or not isinstance(players, dict)
            or set(players) != set(SEATS)
            or not all(isinstance(kind, str) for kind in players.values())):
        raise fail(number)
    try:
        rules = SeatRules(rules_from_json(rules_data.get("ABC")),
                          rules_from_json(rules_data.get("DEF")))
        validate_seat_rules(rules)
    except RulesError:
        raise fail(number) from None

    decks: list[tuple[int, ...]] = []
    sources: list[str] = []
    position = 1
    for seat in (0, 1):
        if position >= len(entries):
            raise fail(last_line)
        number, line = entries[position]
        cards = recorded_cards(line.get("cards"), seat)
        source = line.get("source")
        if (line.get("type") != "deck" or seat_of(line.get("seat")) != seat or not cards
                or source not in SOURCES or len(set(cards)) != len(cards)):
            raise fail(number)
        assert isinstance(source, str)
        decks.append(cards)
        sources.append(source)
        position += 1
    check_random_decks_at(rules, sources, fail, entries[0][0])
    for seat, cards in enumerate(decks):
        if not deck_fits(cards, rules.of(seat), sources[seat]):
            raise fail(entries[seat + 1][0], CARD_MISMATCH)
    setup_line = entries[position - 1][0]

    mulligans: list[RecordedShuffle] = []
    while position < len(entries) and entries[position][1].get("type") == "mulligan":
        number, line = entries[position]
        seat_index = seat_of(line.get("seat"))
        if seat_index is None:
            raise fail(number)
        hand = recorded_cards(line.get("hand"), seat_index)
        deck = recorded_cards(line.get("deck"), seat_index)
        if hand is None or deck is None:
            raise fail(number)
        mulligans.append(RecordedShuffle(number, seat_index, deck, hand))
        setup_line = number
        position += 1

    moves: list[RecordedMove] = []
    cards_used: list[Cards] = []
    result: dict[str, Any] | None = None
    result_line = 0
    for number, line in entries[position:]:
        kind = line.get("type")
        if result is not None:
            raise fail(number)
        if kind == "move":
            move, used = _read_move(number, line, rules, len(moves) + 1, fail)
            moves.append(move)
            cards_used.append(used)
        elif kind == "shuffle":
            seat_index = seat_of(line.get("seat"))
            deck = None if seat_index is None else recorded_cards(line.get("deck"), seat_index)
            if not moves or seat_index is None or not deck:
                raise fail(number)
            moves[-1].shuffles.append(RecordedShuffle(number, seat_index, deck))
        elif kind == "result":
            result, result_line = line, number
        else:
            raise fail(number)
    replay = Replay(name, seed, first, rules, {str(k): str(v) for k, v in players.items()},
                    (decks[0], decks[1]), (sources[0], sources[1]), setup_line, mulligans,
                    moves, result, result_line)
    return replay, cards_used


def _read_move(number: int, line: dict[str, Any], rules: SeatRules, ply: int,
               fail: Fail) -> tuple[RecordedMove, Cards]:
    text = line.get("move")
    if line.get("ply") != ply or not isinstance(text, str) or ":" not in text:
        raise fail(number)
    try:
        move = parse_move(text, rules)
    except MoveSyntaxError as error:
        raise fail(number, error.message) from None
    if move is None or str(move) != text:
        raise fail(number)
    card_ok, card = _card_text(line.get("card"))
    target_ok, target = _card_text(line.get("target"))
    if not (card_ok and target_ok):
        raise fail(number)
    return RecordedMove(number, move), (card, target)
