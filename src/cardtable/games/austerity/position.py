"""Austerity positions: a whole game state as one line of text, and back.

The line is a list of fields separated by single spaces (python-chess's FEN is the model);
``docs/positions.md`` describes each field and shows an example. Cards are written as in deck
files (``B:1:1,0,0,0``); lists of cards and per-player values are separated by ``/``.

The game's parameters (the whole deck, the tokens per pile, the target and the number of
players) are not part of a position: they come from the game. The position carries a short
fingerprint of them instead, and :func:`from_position` refuses a position made under other
parameters.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtable.engine.errors import PositionError
from cardtable.engine.protocol import Result
from cardtable.games.austerity.codec import parse_card
from cardtable.games.austerity.rules import MARKET_LIMIT, Card, Game, Table, letter

if TYPE_CHECKING:
    from cardtable.games.austerity.game import AusterityGame
    from cardtable.games.austerity.state import AusterityState

FORMAT = "austerity/1"
"""The first field: the game and the version of this format."""

FIELDS: tuple[str, ...] = (
    "game", "params", "to move", "turns", "market", "deck", "piles", "tokens", "wilds",
    "discounts", "points", "result",
)
"""The name of each field, in order; errors name the field they are about."""

EMPTY = "-"
RUNNING = "*"
MAX_DIGITS = 40
_REASONS = ("points", "market_empty")
COLOUR_NAMES = ("Purple", "Brown", "Yellow", "Red")


def params_fingerprint(deck: Sequence[Card], tokens: int, points: int, players: int,
                       shuffled: bool = False) -> str:
    """Eight hex digits that change whenever the deck (its cards in order), the tokens per
    pile, the target or the number of players change. For a shuffled deal
    (``deal="shuffled"``) the deck's order is the seed's, not a parameter: the digits then
    cover the deck's cards in any order, and differ from those of the file's deal."""
    cards = [card.text() for card in deck]
    text = "\n".join(sorted(cards) if shuffled else cards) + f"\n{tokens} {points} {players}"
    if shuffled:
        text += "\nshuffled"
    return hashlib.sha256(text.encode()).hexdigest()[:8]


# ------------------------------------------------------------------------- writing


def _cards(cards: Sequence[Card]) -> str:
    return "/".join(card.text() for card in cards) if cards else EMPTY


def _vectors(rows: Sequence[Sequence[int]]) -> str:
    return "/".join(",".join(map(str, row)) for row in rows)


def _result(state: AusterityState) -> str:
    result = state.result
    if result is None:
        return RUNNING
    return result.reason + "=" + "+".join(result.winners)


def to_position(state: AusterityState) -> str:
    """The whole state of ``state`` as one line (see the module's docstring)."""
    game = state.game
    table = game.table
    fields = [
        FORMAT,
        params_fingerprint(*state.setup, shuffled=state.shuffled),
        letter(game.current),
        str(state.turns),
        _cards(table.market),
        _cards(game.deck[game.next_card:]),
        ",".join(map(str, table.piles)),
        _vectors(table.tokens),
        "/".join(map(str, table.wilds)),
        _vectors(table.discounts),
        "/".join(map(str, table.points)),
        _result(state),
    ]
    return " ".join(fields)


# ------------------------------------------------------------------------- reading


_fail = PositionError.in_field
_shown = PositionError.quoted


def _number(field: str, text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS
            and (text == "0" or not text.startswith("0"))):
        raise _fail(field, f"expected a count, got {_shown(text)}")
    return int(text)


def _numbers(field: str, text: str, separator: str, size: int) -> list[int]:
    parts = text.split(separator)
    if len(parts) != size:
        raise _fail(field, f"expected {size} values separated by '{separator}', "
                    f"got {_shown(text)}")
    return [_number(field, part) for part in parts]


def _per_player(field: str, text: str, players: int, width: int) -> list[list[int]]:
    rows = text.split("/")
    if len(rows) != players:
        raise _fail(field, f"expected {players} players separated by '/', got {len(rows)}")
    return [_numbers(field, row, ",", width) for row in rows]


def _card_list(field: str, text: str) -> list[Card]:
    if text == EMPTY:
        return []
    cards = []
    for item in text.split("/"):
        card = parse_card(item.encode()) if item.isascii() else None
        if card is None:
            raise _fail(field, f"expected cards like B:1:1,0,0,0, got {_shown(item)}")
        cards.append(card)
    return cards


def from_position(game: AusterityGame, text: str) -> AusterityState:
    """The state that ``text`` describes under ``game``'s parameters; raises
    :class:`PositionError` naming the field at fault when the text is not a position of a game
    with these parameters."""
    fields = text.split(" ")
    if len(fields) != len(FIELDS):
        raise PositionError(f"expected {len(FIELDS)} fields, got {len(fields)}")
    value = dict(zip(FIELDS, fields, strict=True))
    if value["game"] != FORMAT:
        raise _fail("game", f"expected {FORMAT}, got {_shown(value['game'])}")
    players = game.players
    shuffled = game.deal == "shuffled"
    fingerprint = params_fingerprint(game.deck, game.tokens, game.points, players, shuffled)
    if value["params"] != fingerprint:
        raise _fail("params", "the position was made under other parameters than this game's "
                    f"({_shown(value['params'])} is not {fingerprint})")
    mover = value["to move"]
    if len(mover) != 1 or not "A" <= mover < letter(players):
        raise _fail("to move", f"expected a player from A to {letter(players - 1)}, "
                    f"got {_shown(mover)}")
    current = ord(mover) - 65
    turns = _number("turns", value["turns"])
    market = _card_list("market", value["market"])
    deck = _card_list("deck", value["deck"])
    piles = _numbers("piles", value["piles"], ",", 4)
    tokens = _per_player("tokens", value["tokens"], players, 4)
    wilds = [row[0] for row in _per_player("wilds", value["wilds"], players, 1)]
    discounts = _per_player("discounts", value["discounts"], players, 4)
    points = [row[0] for row in _per_player("points", value["points"], players, 1)]
    ended = _result_of(value["result"], players)

    if len(market) > MARKET_LIMIT:
        raise _fail("market", f"{len(market)} cards, more than the {MARKET_LIMIT} it holds")
    if deck and len(market) < MARKET_LIMIT:
        raise _fail("market", f"{len(market)} cards while the deck still holds cards "
                    f"(the market holds {MARKET_LIMIT} until the deck runs out)")
    for colour in range(4):
        held = piles[colour] + sum(row[colour] for row in tokens)
        if held != game.tokens:
            raise PositionError(f"tokens do not add up: {held} {COLOUR_NAMES[colour]} tokens "
                                f"on the table, the game has {game.tokens}")
    _check_cards(game.deck, market, deck, discounts, points)

    expected = _mover_after(turns, players, ended is not None and ended[0] == "market_empty")
    if current != expected:
        raise _fail("to move", f"after {turns} turns it is {letter(expected)}, "
                    f"not {letter(current)}")
    table = Table.__new__(Table)
    table.count = players
    table.piles = piles
    table.tokens = tokens
    table.wilds = wilds
    table.discounts = discounts
    table.points = points
    table.market = market
    table.affordable = None
    table.shortfalls = []
    _check_ending(table, ended, current, turns, game.points)

    rules = Game.__new__(Game)
    rules.table = table
    drawn = len(game.deck) - len(deck)
    if list(game.deck[drawn:]) == deck:
        rules.deck = list(game.deck)
        rules.next_card = drawn
    else:  # a deck in another order (shuffled, a sampled world): only what is left is read
        rules.deck = deck
        rules.next_card = 0
    rules.target = game.points
    rules.current = current
    rules.finished = ended is not None

    result = None
    if ended is not None:
        result = Result(
            tuple(letter(player) for player in table.winners()),
            ended[0],
            {"points": list(points), "turns": turns},
        )
    # A shuffled deal's order of the cards already drawn is not in the position: the deck's
    # cards in the file's order stand for it (a fingerprint of a shuffled deal reads no order).
    setup = (game.deck, game.tokens, game.points, players)
    return game.state_class.under_way(rules, turns, setup, shuffled, result)


def _result_of(text: str, players: int) -> tuple[str, tuple[int, ...]] | None:
    if text == RUNNING:
        return None
    reason, eq, winners_text = text.partition("=")
    winners = winners_text.split("+")
    if (reason not in _REASONS or not eq
            or any(len(w) != 1 or not "A" <= w < letter(players) for w in winners)):
        raise _fail("result", f"expected * or how the game ended, got {_shown(text)}")
    return reason, tuple(ord(w) - 65 for w in winners)


def _mover_after(turns: int, players: int, market_emptied: bool) -> int:
    """Whose turn it is after ``turns`` turns: each passes the turn on, except the purchase
    that empties the market, which ends the game on its buyer."""
    if market_emptied:
        return (turns - 1) % players if turns else 0
    return turns % players


def _check_ending(table: Table, ended: tuple[str, tuple[int, ...]] | None, current: int,
                  turns: int, target: int) -> None:
    """The result field agrees with the table: how the game ended and who won."""
    if ended is None:
        if not table.market:
            raise _fail("result", "the market is empty, so the game is over")
        if turns and current == 0 and max(table.points) >= target:
            raise _fail("result", "a round ended with the target reached, so the game is over")
        return
    reason, winners = ended
    if (reason == "market_empty") != (not table.market):
        raise _fail("result", f"'{reason}' does not agree with the market")
    if reason == "points" and (not turns or current != 0 or max(table.points) < target):
        raise _fail("result", "no round ended with the target reached")
    if list(winners) != table.winners():
        raise _fail("result", "the winners are not the players holding the most points")


def _check_cards(full: Sequence[Card], market: list[Card], deck: list[Card],
                 discounts: list[list[int]], points: list[int]) -> None:
    """The cards bought (the game's deck less the market and what is left of the deck) are
    the players' discounts and points."""
    bought = Counter(full)
    bought.subtract(market)
    bought.subtract(deck)
    extra = [card for card, count in bought.items() if count < 0]
    if extra:
        raise PositionError(f"cards do not add up: {extra[0].text()} is more often in the "
                            "market and deck than in the game's deck")
    for colour in range(4):
        owned = sum(row[colour] for row in discounts)
        cards = sum(count for card, count in bought.items() if card.colour == colour)
        if owned != cards:
            raise PositionError(f"cards do not add up: {owned} {COLOUR_NAMES[colour]} "
                                f"discounts, but {cards} {COLOUR_NAMES[colour]} cards bought")
    worth = sum(card.value * count for card, count in bought.items())
    if sum(points) != worth:
        raise PositionError(f"cards do not add up: {sum(points)} points held, but the cards "
                            f"bought are worth {worth}")
