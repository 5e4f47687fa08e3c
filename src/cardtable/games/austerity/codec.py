"""The Austerity line protocol and the texts both programs print: strict parsing and formatting.

Parsing is whole-line and strict: a message is valid exactly when formatting the parsed values
gives back the same bytes (no spaces, signs, leading zeros, ``\\r`` or extra fields), with every
number at most ``INT_MAX``. Parsers return ``None`` for anything else. Lines are ``bytes``
without their ``\\n``.

This module is on the player's start-up path: it imports only :mod:`rules`.
"""

from cardtable.games.austerity.rules import (
    COLOURS,
    INT_MAX,
    PURCHASE,
    TAKE,
    WILD,
    WILD_ACTION,
    Action,
    Card,
)

LINE_LIMIT = 4096
"""Longer lines are invalid in both directions (no valid message comes near this)."""

# Hub-to-player message kinds, as the first item of a parsed message.
TOKENS = 0
NEWCARD = 1
DOWHAT = 2
PURCHASED = 3
TOOK = 4
WILDED = 5
EOG = 6

Message = tuple[int, int, int, tuple[int, ...], Card | None]
"""``(kind, player, number, values, card)``; fields a kind does not use are 0, () or None."""

_COLOUR_BYTES = {ord(c): i for i, c in enumerate(COLOURS)}


def parse_argument(text: str) -> int:
    """A command-line number: ASCII digits only (leading zeros allowed), at most ``INT_MAX``.

    Returns -1 when ``text`` is not such a number.
    """
    if not text or not text.isascii() or not text.isdigit():
        return -1
    digits = text.lstrip("0")
    if len(digits) > 10:
        return -1
    value = int(digits) if digits else 0
    return value if value <= INT_MAX else -1


def parse_num(field: bytes) -> int:
    """A canonical protocol number (no leading zeros), or -1."""
    # bytes.isdigit() accepts ASCII digits only.
    if not field.isdigit() or len(field) > 10 or (field[0] == 48 and len(field) > 1):
        return -1
    value = int(field)
    return value if value <= INT_MAX else -1


def parse_vector(field: bytes, size: int) -> tuple[int, ...] | None:
    parts = field.split(b",")
    if len(parts) != size:
        return None
    values = tuple(parse_num(part) for part in parts)
    if -1 in values:
        return None
    return values


def parse_letter(field: bytes, count: int) -> int:
    """A player letter below ``A + count``, as a player id; -1 otherwise."""
    if len(field) != 1:
        return -1
    player = field[0] - 65
    return player if 0 <= player < count else -1


def parse_deck_num(field: bytes) -> int:
    """A number in a deck file: ASCII digits, leading zeros tolerated, at most ``INT_MAX``."""
    if not field.isdigit():
        return -1
    digits = field.lstrip(b"0")
    if len(digits) > 10:
        return -1
    value = int(digits) if digits else 0
    return value if value <= INT_MAX else -1


def parse_card(field: bytes, canonical: bool = True) -> Card | None:
    """``D:V:P,B,Y,R``; ``canonical`` (messages) refuses leading zeros, deck files allow them."""
    number = parse_num if canonical else parse_deck_num
    parts = field.split(b":")
    if len(parts) != 3 or len(parts[0]) != 1:
        return None
    colour = _COLOUR_BYTES.get(parts[0][0], -1)
    value = number(parts[1])
    costs = parts[2].split(b",")
    if colour < 0 or value < 0 or len(costs) != 4:
        return None
    p, b, y, r = (number(cost) for cost in costs)
    if p < 0 or b < 0 or y < 0 or r < 0:
        return None
    return Card(colour, value, (p, b, y, r))


# --- player to hub ----------------------------------------------------------------------------


def parse_action(line: bytes) -> Action | None:
    """A player's reply: ``wild``, ``takeP,B,Y,R`` or ``purchaseC:P,B,Y,R,W``."""
    if line == b"wild":
        return WILD_ACTION
    if line.startswith(b"take"):
        values = parse_vector(line[4:], 4)
        return None if values is None else (TAKE, 0, values)
    if line.startswith(b"purchase"):
        parts = line[8:].split(b":")
        if len(parts) != 2:
            return None
        index = parse_num(parts[0])
        values = parse_vector(parts[1], 5)
        if index < 0 or values is None:
            return None
        return (PURCHASE, index, values)
    return None


def format_action(action: Action) -> bytes:
    kind, index, values = action
    if kind == WILD:
        return b"wild\n"
    joined = ",".join(map(str, values))
    if kind == TAKE:
        return f"take{joined}\n".encode()
    return f"purchase{index}:{joined}\n".encode()


# --- hub to player ----------------------------------------------------------------------------


def parse_message(line: bytes, count: int) -> Message | None:
    """A hub message as a player of a ``count``-player game reads it (structure only)."""
    if line == b"dowhat":
        return (DOWHAT, 0, 0, (), None)
    if line == b"eog":
        return (EOG, 0, 0, (), None)
    if line.startswith(b"tokens"):
        number = parse_num(line[6:])
        return None if number < 0 else (TOKENS, 0, number, (), None)
    if line.startswith(b"newcard"):
        card = parse_card(line[7:])
        return None if card is None else (NEWCARD, 0, 0, (), card)
    if line.startswith(b"purchased"):
        parts = line[9:].split(b":")
        if len(parts) != 3:
            return None
        player = parse_letter(parts[0], count)
        index = parse_num(parts[1])
        values = parse_vector(parts[2], 5)
        if player < 0 or index < 0 or values is None:
            return None
        return (PURCHASED, player, index, values, None)
    if line.startswith(b"took"):
        parts = line[4:].split(b":")
        if len(parts) != 2:
            return None
        player = parse_letter(parts[0], count)
        values = parse_vector(parts[1], 4)
        if player < 0 or values is None:
            return None
        return (TOOK, player, 0, values, None)
    if line.startswith(b"wild"):
        player = parse_letter(line[4:], count)
        return None if player < 0 else (WILDED, player, 0, (), None)
    return None


def vector_text(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values))


def newcard_message(card: Card) -> bytes:
    return f"newcard{card.text()}\n".encode()


def action_message(player: int, action: Action) -> bytes:
    """The broadcast that tells every player what ``player`` did."""
    kind, index, values = action
    who = chr(65 + player)
    if kind == WILD:
        return f"wild{who}\n".encode()
    if kind == TAKE:
        return f"took{who}:{vector_text(values)}\n".encode()
    return f"purchased{who}:{index}:{vector_text(values)}\n".encode()


# --- the hub's standard output ------------------------------------------------------------------


def newcard_line(card: Card) -> str:
    p, b, y, r = card.cost
    return f"New card = Bonus {COLOURS[card.colour]}, worth {card.value}, costs {p},{b},{y},{r}\n"


def action_line(player: int, action: Action) -> str:
    kind, index, values = action
    who = chr(65 + player)
    if kind == WILD:
        return f"Player {who} took a wild\n"
    if kind == TAKE:
        return f"Player {who} drew {vector_text(values)}\n"
    return f"Player {who} purchased {index} using {vector_text(values)}\n"


def winners_text(winners: list[int]) -> str:
    """``A,C``: winners' letters, ascending, no spaces."""
    return ",".join(chr(65 + player) for player in winners)


DISCONNECT_LINE = "Game ended due to disconnect\n"
